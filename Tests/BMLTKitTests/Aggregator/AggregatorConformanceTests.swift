import Foundation
import Testing
@testable import BMLTKit

/// Every capture of the real 4.1.0 aggregator replayed through the public calls: what is sent carries the
/// recorded parameters, what comes back equals the raw JSON (root servers included), and what the aggregator
/// would answer uselessly is refused before anything is sent.
@Suite("Aggregator conformance: real captures", .needsCorpus)
@MainActor
struct AggregatorConformanceTests {
    nonisolated static let folder = AggregatorCase.folder

    /// One row of the aggregator's `index.md` (which has a "server" column the other folders lack).
    struct Recorded: Sendable {
        let method: String
        /// The path and query after `/main_server`, e.g. `/client_interface/json/?switcher=GetFormats`.
        let request: String
        let status: Int
        var path: String { String(request.prefix { $0 != "?" }) }
        var query: String { request.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }
    }

    /// The rows of `aggregator-4x/index.md`, by file.
    nonisolated static let recorded: [String: Recorded] = {
        let text = (try? String(contentsOf: FixtureCorpus.root.appendingPathComponent(folder).appendingPathComponent("index.md"),
                                encoding: .utf8)) ?? ""
        var rows: [String: Recorded] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            guard cells.count > 6, cells[1].contains("."), let status = Int(cells[6]) else { continue }
            rows[cells[1]] = Recorded(method: cells[3], request: cells[4], status: status)
        }
        return rows
    }()

    /// Parameters for matching a request to its capture: the field list aside (BMLTKit may add keys), and a
    /// minute of 0 aside (an hour alone means minute 0 to the server).
    nonisolated static func routing(_ parameters: [String]) -> [String] {
        parameters.filter { !$0.hasPrefix("data_field_key=") && !($0.hasSuffix("M=0") && $0.hasPrefix("Starts")) }
    }

    /// A path without its trailing slash (`URL.path` drops it).
    nonisolated static func trimmed(_ path: String) -> String { path.hasSuffix("/") ? String(path.dropLast()) : path }

    /// A stand-in aggregator: the case's own capture for its recorded request, the aggregator's validation
    /// captures (01, 25, 23, 31) for validation, 404 for anything else.
    static func stub(for capture: AggregatorCase) -> StubServer {
        let entry = recorded[capture.file]
        let recordedPath = entry.map { trimmed("/main_server" + $0.path) }
        let recordedQuery = entry.map { routing(CaptureIndex.parameters($0.query)) }
        let body = (try? FixtureCorpus.data(folder, capture.file)) ?? Data()
        let status = entry?.status ?? 200
        return StubServer { request in
            let url = request.url!
            let query = routing(CaptureIndex.parameters(of: url))
            if trimmed(url.path) == recordedPath, query == recordedQuery {
                return StubServer.Response(status: status, body: body)
            }
            let validation: String? = switch (trimmed(url.path), query) {
            case ("/main_server/client_interface/json", ["switcher=GetServerInfo"]): "01-GetServerInfo.json"
            case ("/main_server/client_interface/json", ["switcher=GetServiceBodies"]): "25-GetServiceBodies-all.json"
            case ("/main_server/client_interface/json", ["switcher=GetFormats"]): "23-GetFormats-all.json"
            case ("/main_server/api/v1/rootservers", []): "31-api-rootservers.json"
            default: nil
            }
            guard let validation, let data = try? FixtureCorpus.data(folder, validation) else {
                return .text("<html>no capture</html>", status: 404)
            }
            return StubServer.Response(body: data)
        }
    }

    @Test("validation groups formats and service bodies by root server; fetchRootServers() reads the list again")
    func groupsByRootServer() async throws {
        let capture = try #require(AggregatorCase.all.first { $0.file.hasPrefix("31") })
        let stub = Self.stub(for: capture)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        let groups = connection.server.rootServerGroups
        #expect(groups.map(\.rootServerID) == [1, 2, 3])
        #expect(groups.map { $0.rootServer?.sourceID } == [216, 312, 410])
        #expect(groups.map(\.formats.count) == [44, 44, 44], "23: 132 formats, 44 per root server")
        #expect(groups.map { $0.serviceBodyTree.flatMap(\.flattened).count } == [44, 44, 44])
        #expect(connection.server.formats.filter { $0.key == "O" }.map(\.rootServerID) == [1, 2, 3])
        let before = stub.requests.count
        connection.fetchRootServers()
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(stub.requests.count == before + 1)
        #expect(connection.server.rootServers.map(\.name) == connection.admin.rootServers.map(\.name))
        #expect(connection.server.rootServer(id: 3)?.serverInfo?.version == "4.1.0")
    }

    @Test("every capture in aggregator-4x/index.md has a case")
    func coversEveryCapture() {
        let covered = Set(AggregatorCase.all.map(\.file))
        let files = FixtureCorpus.files(Self.folder, suffix: "")
            .filter { $0 != "index.md" }
        #expect(files.count == 43)
        for file in files { #expect(covered.contains(file), "no aggregator case for \(file)") }
        #expect(covered.count == AggregatorCase.all.count, "a capture has two cases")
    }

    @Test("the call sends the recorded request, or refuses before sending", arguments: AggregatorCase.all)
    func replay(_ capture: AggregatorCase) async throws {
        let raw = try FixtureCorpus.data(Self.folder, capture.file)
        if case .notACall = capture.expectation {
            #expect(!raw.isEmpty || capture.file.hasSuffix(".empty"))
            return
        }
        let stub = Self.stub(for: capture)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        if capture.validates {
            _ = try await connection.validate()
            #expect(connection.capabilities.contains(.aggregator))
            #expect(connection.server.rootServers.map(\.id).prefix(3) == [1, 2, 3])
        }
        let before = stub.requests.count

        if case .refused = capture.expectation {
            do {
                _ = try await capture.call(connection)
                Issue.record("\(capture): the call was not refused")
            } catch let error as BMLTError {
                switch error {
                case .invalidArgument(let argument):
                    #expect(argument == .aggregatorSearchWithoutFilter)
                    #expect(error.description.contains("rootServerIDs") && error.description.contains("serviceBodyIDs"))
                case .unsupported(let capability): #expect(capability.description.contains("aggregator"))
                default: Issue.record("\(capture): \(error)")
                }
            }
            #expect(stub.requests.count == before, "\(capture): nothing is sent")
            if capture.file.contains("GetSearchResults") || capture.file.contains("GetChanges") {
                #expect(String(decoding: raw, as: UTF8.self) == "[]", "the server's answer to the refused question is []")
            }
            return
        }

        let outcome = try await Self.outcome(capture, connection)
        let sent = try #require((capture.file.hasPrefix("01") ? stub.requests.first : stub.requests.last)?.url)
        let entry = try #require(Self.recorded[capture.file])
        let recordedQuery = entry.query
        #expect(Self.trimmed(sent.path) == Self.trimmed("/main_server" + entry.path), "\(capture)")
        ReadConformanceTests.expectSameParameters(sent: CaptureIndex.parameters(of: sent), recorded: CaptureIndex.parameters(recordedQuery),
                                                  capture: capture.description)
        Self.check(outcome, capture: capture, raw: raw, query: recordedQuery)
    }

    /// The call's outcome, or the error it threw as an outcome to check (404s and refusals are recorded answers).
    static func outcome(_ capture: AggregatorCase, _ connection: BMLTConnection) async throws -> Result<AggregatorCase.Outcome?, BMLTError> {
        do { return .success(try await capture.call(connection)) } catch let error as BMLTError { return .failure(error) }
    }

    static func check(_ outcome: Result<AggregatorCase.Outcome?, BMLTError>, capture: AggregatorCase, raw data: Data, query: String) {
        switch (capture.file, outcome) {
        case ("33-api-rootservers-999-404.json", .failure(.notFound)): return
        case ("35-root410-api-rootservers-404.json", .failure(.unsupported(let message))):
            guard case .notAnAggregator(.rootServers, let said) = message else { Issue.record("\(message)"); return }
            #expect(said?.contains("aggregator mode is disabled") == true, "the server's own words, kept apart")
            return
        case (_, .failure(let error)):
            Issue.record("\(capture): \(error)")
            return
        case (_, .success(let value)):
            let raw = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) ?? NSNull()
            switch value {
            case .info(let info):
                #expect(info.aggregatorModeEnabled && info.version == "4.1.0")
            case .read(.search(let results)):
                RawCheck.search(results, raw: raw)
                let isObject = (raw as? [String: Any])?["meetings"] != nil
                let rawMeetings = isObject ? RawCheck.list(raw, key: "meetings") : RawCheck.list(raw)
                #expect(results.meetings.map(\.rootServerID) == rawMeetings.map { $0["root_server_id"] as? Int }, "\(capture)")
                #expect(results.meetings.map(\.rootServerURI) == rawMeetings.map { $0["root_server_uri"] as? String }, "\(capture)")
                let rawFormats = isObject ? RawCheck.list(raw, key: "formats") : []
                #expect(results.formats.map(\.rootServerID) == rawFormats.map { $0["root_server_id"] as? Int }, "\(capture)")
            case .read(.formats(let formats)):
                RawCheck.formats(formats, raw: raw, query: query)
                #expect(formats.map(\.rootServerID) == RawCheck.list(raw).map { $0["root_server_id"] as? Int })
            case .read(.serviceBodies(let bodies)):
                RawCheck.serviceBodies(bodies, raw: raw)
                #expect(bodies.map(\.rootServerID) == RawCheck.list(raw).map { $0["root_server_id"] as? Int })
            case .read(.fieldKeys(let keys)):
                RawCheck.fieldKeys(keys, raw: raw)
            case .read:
                Issue.record("\(capture): unexpected outcome")
            case .rootServers(let servers):
                let list = RawCheck.list(raw)
                #expect(servers.map(\.id) == list.map { $0["id"] as? Int ?? -1 })
                for (server, object) in zip(servers, list) { checkRootServer(server, object) }
            case .rootServer(let server):
                checkRootServer(server, raw as? [String: Any] ?? [:])
            case nil:
                Issue.record("\(capture): no outcome")
            }
        }
    }

    /// A decoded root server against its raw object (the embedded server info parsed again independently).
    static func checkRootServer(_ server: BMLTRootServer, _ object: [String: Any]) {
        #expect(server.id == object["id"] as? Int)
        #expect(server.sourceID == object["sourceId"] as? Int)
        #expect(server.name == object["name"] as? String)
        #expect(server.url == object["url"] as? String)
        #expect(server.lastSuccessfulImport == object["lastSuccessfulImport"] as? String)
        if let text = object["serverInfo"] as? String {
            let inner = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            #expect(server.serverInfo?.version == inner?["version"] as? String)
            #expect(server.serverInfo?.versionInt == (inner?["versionInt"] as? String).flatMap { Int($0) })
            #expect(server.hasBeenImported && server.lastImport != nil)
        } else {
            #expect(server.serverInfo == nil && !server.hasBeenImported && server.lastImport == nil)
            #expect(server.statistics.isEmpty, "null counts are absent, not zero")
        }
        let meetings = (object["statistics"] as? [String: Any])?["meetings"] as? [String: Any]
        #expect(server.meetingCount == meetings?["numTotal"] as? Int)
    }
}
