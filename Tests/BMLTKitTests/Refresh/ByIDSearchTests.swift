import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// A search by id means on 2.16.6 what it means on 3.1.2 and 4.x: every criterion holds, and an anonymous reader gets no
/// unpublished meeting unless `publishedStatus` asks. 2.16.6 answers `meeting_ids[]=6&meeting_ids[]=33&meeting_ids[]=2339
/// &weekdays[]=1` with all three — weekday 2 and 4, and 6 and 33 unpublished — where 3.1.2 and 4.2.7 answer 2339 alone
/// (`server-truths/216-`, `312-`, `427-GetSearchResults-meeting_ids-weekdays.json`). On the refresh stand-ins, which hold
/// those three meetings as captured and answer `meeting_ids[]` as each generation does (`RefreshStandIn`).
@Suite("Search by id: the same meetings on 2.16.6 as on 3.1.2 and 4.x (server-truths)", .serialized, .needsCorpus)
@MainActor
struct ByIDSearchTests {
    static func ids(_ generation: RefreshStandIn.Generation, _ change: (inout BMLTSearchCriteria) -> Void) async throws -> [Int] {
        let stand = try RefreshStandIn(generation, seed: 56)
        let connection = try await RefreshTesting.connection(stand)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [6, 33, 2339]
        change(&criteria)
        return try await connection.meetings(matching: criteria).meetings.map(\.id)
    }

    @Test("ids with a weekday: both hold; ids alone: no unpublished meeting to an anonymous reader",
          arguments: RefreshStandIn.Generation.allCases)
    func idsAndWeekday(_ generation: RefreshStandIn.Generation) async throws {
        #expect(try await Self.ids(generation) { $0.weekdays = [.sunday] } == [2339], "\(generation): the captured answer of 3.1.2 and 4.2.7")
        #expect(try await Self.ids(generation) { _ in } == [2339], "\(generation): 6 and 33 are unpublished")
        #expect(try await Self.ids(generation) { $0.weekdays = [.monday] } == [], "\(generation): 33, the Monday meeting, is unpublished")
        #expect(try await Self.ids(generation) { $0.excludedWeekdays = [.sunday]; $0.publishedStatus = .both } == [33, 6],
                "\(generation): not on Sunday, published or not")
        #expect(try await Self.ids(generation) { $0.publishedStatus = .both } == [2339, 33, 6], "\(generation): both, in the server's order")
        #expect(try await Self.ids(generation) { $0.publishedStatus = .unpublished } == [33, 6], "\(generation): unpublished only")
        #expect(try await Self.ids(generation) { $0.publishedStatus = .both; $0.serviceBodyIDs = [1005] } == [33, 6],
                "\(generation): service body 1005")
        #expect(try await Self.ids(generation) { $0.publishedStatus = .both; $0.excludedServiceBodyIDs = [1005] } == [2339],
                "\(generation): not service body 1005")
    }

    @Test("before validation: the answer is completed on every generation without asking GetServerInfo first",
          arguments: [RefreshStandIn.Generation.v2, .v42])
    func beforeValidation(_ generation: RefreshStandIn.Generation) async throws {
        let stand = try RefreshStandIn(generation, seed: 60)
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = hangGuardTimeout   // a hang guard: this test is not about the deadline (issue 50)
        let connection = BMLTConnection(rootServerURL: stand.rootURL, configuration: configuration)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [6, 33, 2339]
        criteria.weekdays = [.sunday, .monday]
        #expect(try await connection.meetings(matching: criteria).meetings.map(\.id) == [2339], "\(generation)")
        #expect(stand.server.requests.map { $0.query("switcher") } == ["GetSearchResults"], "\(stand.server.requests.map(\.target))")
    }

    @Test("2.16.6: fields only the completion asked for are left out again, and the request says what was added")
    func narrowedFields() async throws {
        let stand = try RefreshStandIn(.v2, seed: 57)
        let connection = try await RefreshTesting.connection(stand)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [6, 33, 2339]
        criteria.weekdays = [.sunday, .monday]
        criteria.publishedStatus = .both
        criteria.dataFieldKeys = ["meeting_name"]
        let mark = stand.server.requests.count
        let results = try await connection.meetings(matching: criteria, extent: .meetingsOnly)
        #expect(results.meetings.map(\.id) == [2339, 33])
        #expect(results.meetings.allSatisfy { $0.weekday == nil && $0.isPublished == nil && !$0.name.isEmpty },
                "weekday_tinyint was asked for the completion only: \(results.meetings.map { ($0.id, $0.weekday as Any) })")
        let asked = stand.server.requests[mark...].filter { $0.query("switcher") == "GetSearchResults" }
        #expect(asked.count == 1 && asked.first?.query("data_field_key") == "meeting_name,weekday_tinyint,id_bigint,service_body_bigint",
                "\(asked.map(\.target))")
        // The same criteria on 4.2.7 send the fields as asked.
        let modern = try RefreshStandIn(.v42, seed: 57)
        let other = try await RefreshTesting.connection(modern)
        let mark42 = modern.server.requests.count
        let same = try await other.meetings(matching: criteria, extent: .meetingsOnly)
        #expect(same.meetings.map(\.id) == [2339, 33] && same.meetings.allSatisfy { $0.weekday == nil })
        #expect(modern.server.requests[mark42...].filter { $0.query("switcher") == "GetSearchResults" }
                    .allSatisfy { $0.query("data_field_key") == "meeting_name,id_bigint,service_body_bigint" })
    }

    @Test("2.16.6: ids with a text search (which no meeting can decide as the server would): asked without the ids")
    func undecidableAskedWithoutIDs() async throws {
        var results: [RefreshStandIn.Generation: [Int]] = [:]
        for generation in [RefreshStandIn.Generation.v2, .v42] {
            let stand = try RefreshStandIn(generation, seed: 58)
            let log = RefreshLogLines()
            let connection = try await RefreshTesting.connection(stand, log: log)
            let all = try await connection.meetings(matching: BMLTSearchCriteria()).meetings
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = [6, 2339] + all.filter { !$0.name.lowercased().contains("recovery") }.prefix(3).map(\.id)
            criteria.text = "Recovery"
            let mark = stand.server.requests.count
            results[generation] = try await connection.meetings(matching: criteria).meetings.map(\.id)
            let asked = stand.server.requests[mark...].filter { $0.query("switcher") == "GetSearchResults" }
            if generation == .v2 {
                #expect(asked.count == 1 && asked.first?.query("meeting_ids[]") == nil && asked.first?.query("SearchString") == "Recovery",
                        "\(asked.map(\.target))")
                #expect(log.contains("root server 2.x answers meeting_ids[] alone, ignoring a text search"))
            }
        }
        #expect(results[.v2] == [2339] && results[.v2] == results[.v42], "\(results)")
    }

    @Test("2.16.6: the refresh of a list by id with a weekday keeps what 3.x would (the changed meeting asked by id comes whatever)")
    func refreshOfAListByID() async throws {
        let stand = try RefreshStandIn(.v2, seed: 59)
        let connection = try await RefreshTesting.connection(stand)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [6, 33, 2339]
        criteria.weekdays = [.sunday, .monday]
        let list = try await connection.meetings(matching: criteria)
        #expect(list.meetings.map(\.id) == [2339])
        stand.change(33, ["meeting_name": "Renamed, still unpublished"])
        stand.change(6, ["weekday_tinyint": "2", "published": "1"])   // now a published Monday meeting: it joins
        let fresh = try await connection.meetings(matching: criteria, updating: RefreshTesting.sizeForgotten(list))
        let download = try await connection.meetings(matching: criteria)
        #expect(download.meetings.map(\.id) == [2339, 6])
        #expect(fresh.delta != nil && fresh.meetings == download.meetings && fresh.formats == download.formats)
        #expect(fresh.delta == RefreshTesting.expectedDelta(from: list, to: download))
    }

    /// Review of the 1.1.0 merge, finding 1: the list's skeleton asks `data_field_key=id_bigint` alone, without the
    /// `service_body_bigint` BMLTKit adds to every other search, so 2.x's completion read every meeting as service body
    /// 0 and dropped them all: the refresh said every meeting was removed.
    @Test("ids, service bodies and data_field_key: the refresh equals a new download on every generation (2.x's skeleton asks the service body)",
          arguments: RefreshStandIn.Generation.allCases)
    func refreshOfIDsInAServiceBody(_ generation: RefreshStandIn.Generation) async throws {
        let stand = try RefreshStandIn(generation, seed: 57)
        let connection = try await RefreshTesting.connection(stand)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [6, 33, 2339]
        criteria.serviceBodyIDs = [1005]
        criteria.publishedStatus = .both
        criteria.dataFieldKeys = ["meeting_name", "weekday_tinyint", "start_time"]
        let list = try await connection.meetings(matching: criteria)
        #expect(list.meetings.map(\.id) == [33, 6], "\(generation)")
        stand.change(33, ["meeting_name": "Renamed in its service body"])
        let fresh = try await connection.meetings(matching: criteria, updating: RefreshTesting.sizeForgotten(list))
        let download = try await connection.meetings(matching: criteria)
        #expect(download.meetings.map(\.id) == [33, 6], "\(generation)")
        #expect(download.meetings.first?.name == "Renamed in its service body", "\(generation)")
        #expect(fresh.delta != nil && fresh.meetings == download.meetings, "\(generation): \(fresh.meetings.map(\.id))")
        #expect(fresh.delta == RefreshTesting.expectedDelta(from: list, to: download), "\(generation)")
    }
}
