import BMLTKit
import Foundation
import CaptureReplay
import LoopbackHTTPServer
import Testing

/// Written only from design/API.md's names (no `@testable`), against the real 4.1.0 aggregator's replies
/// (three root servers imported: 2.16.6, 3.1.2, 4.1.0) replayed over HTTP on 127.0.0.1.
@Suite("API contract: an aggregator of three root servers, replayed", .needsCaptures, .serialized)
@MainActor
struct AggregatorReplayTests {
    static let folder = "aggregator-4x"

    func connect() async throws -> (BMLTConnection, LoopbackHTTPServer) {
        let http = try CaptureReplayServer.start(folder: Self.folder)
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let info = try await connection.validate()
        #expect(info.aggregatorModeEnabled)
        #expect(connection.capabilities.contains(.aggregator))
        return (connection, http)
    }

    @Test("validation names the three root servers; an unfiltered search is refused without a request")
    func refusesUnfilteredSearch() async throws {
        let (connection, http) = try await connect()
        defer { http.stop() }
        #expect(connection.server.rootServers.map(\.name) == ["Loopback 2.16.6 (sample data)", "Loopback 3.1.2 (sample data)",
                                                              "Loopback 4.1.0 (sample data)"])
        #expect(connection.server.rootServers.compactMap(\.serverInfo?.version) == ["2.16.6", "3.1.2", "4.1.0"])
        let sent = http.requests.count
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.tuesday]
        do {
            _ = try await connection.meetings(matching: criteria)
            Issue.record("an unfiltered search on an aggregator must be refused")
        } catch let error as BMLTError {
            guard case .invalidArgument(let argument) = error else { Issue.record("\(error)"); return }
            #expect(argument == .aggregatorSearchWithoutFilter)
            #expect(error.description.contains("rootServerIDs"))
        }
        #expect(http.requests.count == sent, "nothing was sent")
    }

    @Test("a filtered search returns meetings of three root servers, each with its root server named")
    func filteredSearchNamesRootServers() async throws {
        let (connection, http) = try await connect()
        defer { http.stop() }
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [5, 49, 93]
        criteria.weekdays = [.monday]
        let meetings = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
        let raw = try CaptureReplayServer.objects(Self.folder, "07-GetSearchResults-services-3-roots-weekday.json")
        #expect(meetings.count == raw.count && meetings.count == 15)
        #expect(meetings.map(\.rootServerID) == raw.map { $0["root_server_id"] as? Int })
        let names = Set(meetings.compactMap { connection.rootServer(of: $0)?.name })
        #expect(names == ["Loopback 2.16.6 (sample data)", "Loopback 3.1.2 (sample data)", "Loopback 4.1.0 (sample data)"])
        #expect(meetings.deduplicated().count == 5)
    }

    @Test("the nearest 6 fold to their 2 distinct meetings")
    func nearestSixFoldToTwo() async throws {
        let (connection, http) = try await connect()
        defer { http.stop() }
        var criteria = BMLTSearchCriteria()
        criteria.location = .nearest(6, latitude: 40.72, longitude: -73.95)
        criteria.sortByDistance = true
        criteria.dataFieldKeys = ["id_bigint", "meeting_name", "root_server_id", "distance_in_miles"]
        let meetings = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
        #expect(meetings.count == 6)
        let distinct = meetings.deduplicated()
        #expect(distinct.map(\.name) == ["Recovery Is The Point", "Alive in Williamsburg"])
        #expect(distinct.allSatisfy { $0.foldedMeetingIDs.count == 2 })
    }

    @Test("changes() is refused on an aggregator, nothing sent")
    func changesRefused() async throws {
        let (connection, http) = try await connect()
        defer { http.stop() }
        let sent = http.requests.count
        do {
            _ = try await connection.changes()
            Issue.record("changes() must be refused on an aggregator")
        } catch let error as BMLTError {
            guard case .unsupported(let capability) = error else { Issue.record("\(error)"); return }
            #expect(capability == .aggregatorChangeLog(.changesAndDeletedMeetings))
            #expect(error.description.contains("change log"))
        }
        #expect(http.requests.count == sent)
    }
}
