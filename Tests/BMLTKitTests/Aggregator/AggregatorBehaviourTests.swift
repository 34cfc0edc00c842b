import Foundation
import Testing
@testable import BMLTKit

/// The aggregator's rules as BMLTKit applies them: the filter rule, folding duplicates, what is refused.
@Suite("Aggregators: filter rule, duplicates, refusals")
@MainActor
struct AggregatorBehaviourTests {
    static func criteria(_ build: (inout BMLTSearchCriteria) -> Void) -> BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        build(&criteria)
        return criteria
    }

    @Test("the filter rule counts exactly the server's narrowing filters")
    func filterRule() {
        #expect(!BMLTSearchCriteria().satisfiesAggregatorFilterRule)
        #expect(!Self.criteria { $0.weekdays = [.tuesday]; $0.startsAfter = .init(hour: 18) }.satisfiesAggregatorFilterRule)
        #expect(!Self.criteria { $0.text = "Aquebogue"; $0.venueTypes = [.virtual] }.satisfiesAggregatorFilterRule)
        #expect(!Self.criteria { $0.excludedServiceBodyIDs = [5]; $0.formats = .excluding([4]); $0.excludedRootServerIDs = [1] }
            .satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.meetingIDs = [1] }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.serviceBodyIDs = [5] }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.formats = .any(of: [17]) }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.rootServerIDs = [2] }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.fieldMatch = .init(key: "location_municipality", value: "Aquebogue") }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.location = .nearest(6, latitude: 40.7, longitude: -73.9) }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.page = .init(size: 6) }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.text = "11201"; $0.textMatch = .address(radius: nil) }.satisfiesAggregatorFilterRule)
        // raw parameters are judged as the server judges them: PHP's intval reads "1,3" as 1, "-1" excludes
        #expect(Self.criteria { $0.rawParameters = [URLQueryItem(name: "root_server_ids", value: "1,3")] }.satisfiesAggregatorFilterRule)
        #expect(!Self.criteria { $0.rawParameters = [URLQueryItem(name: "meeting_ids", value: "-4,-5")] }.satisfiesAggregatorFilterRule)
        #expect(Self.criteria { $0.rawParameters = [URLQueryItem(name: "services", value: "-4,7")] }.satisfiesAggregatorFilterRule)
        #expect(!Self.criteria { $0.rawParameters = [URLQueryItem(name: "meeting_key", value: "meeting_name")] }.satisfiesAggregatorFilterRule)
    }

    /// A stub aggregator (or plain root) that counts what it is asked.
    static func server(aggregator: Bool) throws -> StubServer {
        let info = try FixtureCorpus.data("aggregator-4x", "01-GetServerInfo.json")
        let plain = String(decoding: info, as: UTF8.self).replacingOccurrences(of: "\"aggregator_mode_enabled\":true",
                                                                                 with: "\"aggregator_mode_enabled\":false")
        return StubServer { request in
            let query = request.url?.query ?? ""
            if query.contains("GetServerInfo") { return aggregator ? StubServer.Response(body: info) : .json(plain) }
            if request.url?.path.hasSuffix("rootservers") == true { return .json("[]") }
            return .json("[]")
        }
    }

    @Test("an unfiltered search is refused on an aggregator before anything is sent, even before validation",
          .needsCorpus)
    func unfilteredSearchRefused() async throws {
        let stub = try Self.server(aggregator: true)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let criteria = Self.criteria { $0.weekdays = [.tuesday] }
        await #expect(throws: BMLTError.invalidArgument(AggregatorFilterRule.advice)) {
            _ = try await connection.meetings(matching: criteria)
        }
        #expect(stub.requests.allSatisfy { $0.url?.query?.contains("GetSearchResults") != true })
        #expect(connection.search.lastError == .invalidArgument(AggregatorFilterRule.advice))
        _ = try await connection.validate()
        await #expect(throws: BMLTError.self) { _ = try await connection.meetings(matching: criteria) }
        #expect(stub.requests.allSatisfy { $0.url?.query?.contains("GetSearchResults") != true })
        // the same search on a plain root server is sent
        let plain = try Self.server(aggregator: false)
        let root = BMLTConnection(rootServerURL: plain.rootURL, configuration: plain.configuration())
        _ = try await root.meetings(matching: criteria)
        #expect(plain.requests.contains { $0.url?.query?.contains("GetSearchResults") == true })
    }

    @Test("a radius wider than the usual aggregator cap is noted in the log; nearest-N is not",
          .needsCorpus)
    func widthCapLogged() async throws {
        let stub = try Self.server(aggregator: true)
        let lines = Locked<[String]>([])
        var configuration = stub.configuration()
        configuration.logLevel = .errors
        configuration.logHandler = { _, line in lines.withLock { $0.append(line) } }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        _ = try await connection.meetings(matching: Self.criteria { $0.location = .nearest(6, latitude: 37.9, longitude: -75.4) })
        _ = try await connection.meetings(matching: Self.criteria { $0.location = .init(latitude: 37.9, longitude: -75.4, radius: .kilometers(300)) })
        #expect(lines.withLock { $0 }.isEmpty)
        _ = try await connection.meetings(matching: Self.criteria { $0.location = .init(latitude: 37.9, longitude: -75.4, radius: .miles(1000)) })
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("1609.3 km") == true && logged.first?.contains("320 km") == true)
    }

    @Test("change lists, deleted meetings, meeting edits and admin writes are refused on an aggregator, nothing sent",
          .needsCorpus)
    func refusals() async throws {
        let stub = try Self.server(aggregator: true)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        let sent = stub.requests.count
        func isUnsupported(_ body: () async throws -> Void) async -> Bool {
            do { try await body(); return false } catch let error as BMLTError {
                if case .unsupported(let message) = error { return message.contains("aggregator") }
                return false
            } catch { return false }
        }
        #expect(await isUnsupported { _ = try await connection.changes() })
        #expect(await isUnsupported { _ = try await connection.deletedMeetings(serviceBodyIDs: [1, 2]) })
        #expect(await isUnsupported { _ = try await connection.saveAndWait(BMLTMeetingDraft(serviceBodyID: 5)) })
        #expect(await isUnsupported { try await connection.deleteMeetingAndWait(id: 1) })
        #expect(await isUnsupported { try await connection.deleteFormatAndWait(id: 17) })
        #expect(await isUnsupported {
            try await connection.sendMessageAndWait(toContactOf: BMLTMeeting(id: 1, serviceBodyID: 5), from: "me@example.org", body: "hello")
        })
        #expect(stub.requests.count == sent)
    }

    @Test("root servers' import time is UTC without a zone; anything else is no date")
    func importTime() {
        let server = BMLTRootServer(id: 1, sourceID: 216, name: "x", url: "http://127.0.0.1:8010/main_server/",
                                    lastSuccessfulImport: "2026-11-23 09:38:16")
        #expect(server.lastImport == Date(timeIntervalSince1970: 1_795_426_696))
        #expect(BMLTRootServer.utcDate("2026-02-30 09:38:16") == nil)
        #expect(BMLTRootServer.utcDate("yesterday") == nil)
        #expect(WireRootServer.serverInfo(.string("{not json")) == nil)
        #expect(WireRootServer.serverInfo(.string("{\"version\":\"3.1.2\"}"))?.versionInt == 3_001_002)
    }
}
