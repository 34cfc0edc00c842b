import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// Review turn 7's refresh findings, each on a stand-in built from the captures (`RefreshStandIn`):
/// R9 — the server's `default_sort_key` orders the list (4.x `SwitcherController::getSearchResults` sorts by the alias's
/// keys when the request names none), so a refresh that put meetings where weekday, start and duration would have them
/// made another list than a download; R10 — `date_int` read from a database clock not on UTC dropped every change with
/// a 5-minute margin; R15 — an absurd `serverDate` trapped in `Int(_:)`.
@Suite("Refresh: the server's sort setting, a database clock off UTC, an absurd server time (review R9, R10, R15)",
       .serialized, .needsCorpus)
@MainActor
struct RefreshReviewTests {
    /// A list of the three Monday meetings 827, 1353 and 714 (`rootserver-42/005-…`) on a 4.2.7 server sorting by
    /// `sortKey`; `create` adds a meeting like 714; the refresh must equal a new download and read only what changed.
    func sorted(by sortKey: String, create fields: [String: String], before: Bool) async throws {
        let stand = try RefreshStandIn(.v42, seed: 909)
        stand.locked { $0.defaultSortKey = sortKey }
        stand.keepOnly([827, 1353, 714])
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(list.meetings.map(\.id) == [827, 1353, 714], "in weekday, start and duration order too")
        let created = stand.create(like: 714, fields)
        let mark = stand.server.requests.count
        let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: RefreshTesting.sizeForgotten(list))
        let asked = stand.server.requests[mark...]
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        let ids = download.meetings.map(\.id)
        #expect((ids.firstIndex(of: created)! < ids.firstIndex(of: 714)!) == before,
                "the server's \(sortKey) order puts \(created) \(before ? "before" : "after") 714: \(ids)")
        #expect(fresh.delta != nil && fresh.meetings == download.meetings, "\(sortKey): \(fresh.meetings.map(\.id)) against \(ids)")
        #expect(fresh.delta == RefreshTesting.expectedDelta(from: list, to: download))
        #expect(!asked.contains(where: RefreshTesting.isWholeDownload), "\(log.lines.filter { $0.contains("refresh") })")
    }

    @Test("R9: default_sort_key time — a longer meeting at the same time in a town before 714's comes first")
    func sortedByTime() async throws {
        try await sorted(by: "time", create: ["duration_time": "01:30:00", "location_municipality": "Albertson"], before: true)
    }

    @Test("R9: default_sort_key weekday — an earlier meeting in a town after 714's comes last")
    func sortedByWeekdayAndTown() async throws {
        try await sorted(by: "weekday", create: ["start_time": "09:00:00", "location_municipality": "Westbury"], before: false)
    }

    @Test("R10: a database clock hours off UTC (date_int early or late): every change is read, the first refresh and the next",
          arguments: [-5 * 3_600.0, -12 * 3_600.0, 9 * 3_600.0])
    func databaseClockOffUTC(offset: TimeInterval) async throws {
        let stand = try RefreshStandIn(.v3, seed: 1010)
        stand.locked { $0.databaseClockOffset = offset }
        let connection = try await RefreshTesting.connection(stand)
        var list = try await connection.meetings(matching: BMLTSearchCriteria())
        for step in 0..<3 {
            stand.edit(.rename)
            stand.edit(.time)
            let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: RefreshTesting.sizeForgotten(list))
            let download = try await connection.meetings(matching: BMLTSearchCriteria())
            #expect(fresh.delta != nil && fresh.delta?.changed.isEmpty == false, "offset \(offset) step \(step): the changes were read")
            #expect(fresh.meetings == download.meetings, "offset \(offset) step \(step)")
            #expect(step == 0 || list.lastChangeID != nil, "from the second refresh on, the last change id read")
            list = fresh
        }
    }

    @Test("R15: the conversions of a refresh's age are total: any number of seconds gives bounded whole days and seconds")
    func ageConversionsAreTotal() {
        for seconds in [TimeInterval.infinity, -.infinity, .nan, 1e300, -1e300, .greatestFiniteMagnitude, 0, 86_400 * 31, -600] {
            #expect((0...1_000_000_000).contains(RefreshAge.days(seconds)) && (0...1_000_000_000).contains(RefreshAge.seconds(seconds)),
                    "\(seconds)")
        }
        #expect(RefreshAge.days(86_400 * 31) == 31 && RefreshAge.seconds(600) == 600)
        for date in [Date(timeIntervalSinceReferenceDate: 1e300), Date(timeIntervalSinceReferenceDate: -1e300),
                     Date(timeIntervalSinceReferenceDate: .infinity), Date(timeIntervalSinceReferenceDate: .nan),
                     Date.distantFuture.addingTimeInterval(1e12)] {
            #expect(!RefreshAge.isUsable(date), "\(date.timeIntervalSince1970)")
        }
        #expect(RefreshAge.isUsable(Date(timeIntervalSince1970: 1_800_000_000)) && RefreshAge.isUsable(Date(timeIntervalSince1970: 0)))
    }

    @Test("R15: previous results with an absurd server time (huge, infinite, NaN, far past) are downloaded whole, never a trap")
    func absurdServerDate() async throws {
        let stand = try RefreshStandIn(.v42, seed: 1515)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        stand.edit(.rename)
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        for seconds in [1e300, -1e300, TimeInterval.infinity, .nan, .greatestFiniteMagnitude, -9e9] {
            var absurd = list
            absurd.serverDate = Date(timeIntervalSinceReferenceDate: seconds)
            let lines = log.lines.count
            let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: absurd)
            #expect(fresh.delta == nil && fresh.meetings == download.meetings, "\(seconds)")
            let said = log.lines[lines...].filter { $0.contains("downloading the whole list") }
            #expect(said.contains { $0.contains("carry no server time") } || said.contains { $0.contains("days old") }, "\(seconds): \(said)")
        }
    }
}
