import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// What a refresh test needs: a connection to a stand-in, validated, whose log lines are kept.
final class RefreshLogLines: @unchecked Sendable {   // `lines` behind `lock`
    private let lock = NSLock()
    private var kept: [String] = []
    func add(_ line: String) { lock.lock(); kept.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

enum RefreshTesting {
    @MainActor
    static func connection(_ stand: RefreshStandIn, log: RefreshLogLines = RefreshLogLines(),
                           root: URL? = nil) async throws -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = hangGuardTimeout   // a hang guard: these tests are not about the deadline (issue 50)
        configuration.retryPolicy = .none
        configuration.logLevel = .requests
        configuration.logHandler = { _, line in log.add(line) }
        let connection = BMLTConnection(rootServerURL: root ?? stand.rootURL, configuration: configuration)
        _ = try await connection.validate()
        return connection
    }

    static var radius: BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.location = .init(latitude: RefreshStandIn.center.latitude, longitude: RefreshStandIn.center.longitude,
                                  radius: .miles(9))
        return criteria
    }

    static var weekdays: BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.monday, .tuesday, .thursday, .saturday]
        return criteria
    }

    /// Whether a request downloads a list whole: a search without ids that is not a list's skeleton (`ListSkeleton`: the
    /// ids alone, `data_field_key` without the `service_body_bigint` BMLTKit adds to every other).
    static func isWholeDownload(_ request: LoopbackHTTPServer.Request) -> Bool {
        guard request.query("switcher") == "GetSearchResults", request.query("meeting_ids[]") == nil else { return false }
        return !isSkeleton(request)
    }

    /// Whether a request reads the skeleton of a list not by id (`RefreshRank`'s check asks ids too).
    static func isSkeleton(_ request: LoopbackHTTPServer.Request) -> Bool {
        guard request.query("switcher") == "GetSearchResults", request.query("meeting_ids[]") == nil,
              let keys = request.query("data_field_key")?.split(separator: ",") else {
            return false
        }
        return keys.first == "id_bigint" && !keys.contains("service_body_bigint")
    }

    /// `results` with no download size: a refresh of them is not held to the cost of a download (`RefreshCost`), for
    /// tests of the merge on the stand-ins' small lists (the server-wide change log soon outweighs them).
    static func sizeForgotten(_ results: BMLTSearchResults) -> BMLTSearchResults {
        var forgotten = results
        forgotten.bodyBytes = nil
        return forgotten
    }

    /// What a refresh must say it did: the difference between the previous list and a new download.
    static func expectedDelta(from previous: BMLTSearchResults, to download: BMLTSearchResults) -> BMLTSearchDelta {
        let before = Dictionary(previous.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(download.meetings.map(\.id))
        return BMLTSearchDelta(
            added: download.meetings.filter { before[$0.id] == nil }.map(\.id),
            changed: download.meetings.filter { meeting in before[meeting.id].map { $0 != meeting } ?? false }.map(\.id),
            removed: previous.meetings.filter { !after.contains($0.id) }.map(\.id))
    }
}

/// Random series of edits on a stateful stand-in of each generation (`RefreshStandIn`, built from the captures it
/// names), each followed by a refresh that must equal a new download: every meeting's value, the formats, the order;
/// its delta the difference; and read only what changed (the change log, the formats and service bodies past every
/// cache, and the changed meetings by `meeting_ids[]`). Seeded: a failure names its seed and edits.
@Suite("Refresh: random edits, each refresh equals a new download (stand-ins of 2.16.6, 3.1.2, 4.1.0, 4.2.7)",
       .serialized, .needsCorpus)
@MainActor
struct RefreshSeriesTests {
    func series(_ generation: RefreshStandIn.Generation, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                seed: UInt64, steps: Int = 6) async throws {
        let stand = try RefreshStandIn(generation, seed: seed)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        var rng = SeededGenerator(seed: seed &+ 1)
        var list = try await connection.meetings(matching: criteria, extent: extent)
        #expect(list.serverDate != nil && !list.meetings.isEmpty, "the first download carries the server's time")
        var deltas = 0
        for step in 0..<steps {
            let edits = (0..<Int.random(in: 1...3, using: &rng)).map { _ in stand.randomEdit() }
            let lines = log.lines.count
            let context = "\(generation) seed \(seed) step \(step): \(edits)"
            let mark = stand.server.requests.count
            let previous = RefreshTesting.sizeForgotten(list)
            let fresh = try await connection.meetings(matching: criteria, extent: extent, updating: previous)
            let asked = stand.server.requests[mark...]
            let download = try await connection.meetings(matching: criteria, extent: extent)
            // A format or service body renamed (no change record) may touch more of a small list than a refresh asks
            // for by id: then, and only then, the whole list comes (said in the log).
            let tooMany = log.lines[lines...].contains { $0.contains("too many for a refresh") }
            #expect(fresh.meetings.map(\.id) == download.meetings.map(\.id), "the order: \(context)")
            #expect(fresh.delta != nil || tooMany, "a whole download only for too many changes: \(context)")
            #expect(fresh.meetings == download.meetings && fresh.formats == download.formats, "the list: \(context)")
            list = fresh
            guard fresh.delta != nil else { continue }
            deltas += 1
            #expect(fresh.delta == RefreshTesting.expectedDelta(from: previous, to: download), "the delta: \(context)")
            // Only what changed was read: the list's ids and the changed meetings by id, the change log past every cache.
            let searches = asked.filter { $0.query("switcher") == "GetSearchResults" }
            #expect(!searches.contains(where: RefreshTesting.isWholeDownload), "no whole download: \(context)")
            #expect(searches.filter(RefreshTesting.isSkeleton).count <= 1, "at most one skeleton read: \(context)")
            let logReads = asked.filter { $0.query("switcher") == "GetChanges" }
            #expect(logReads.count == 1 && logReads.allSatisfy { $0.query("_") != nil && $0.headers["cache-control"] == "no-cache" },
                    "one change-log read, unique and no-cache: \(context)")
            #expect(fresh.serverDate != nil && fresh.serverDate! > previous.serverDate!, "the server time moves on: \(context)")
        }
        #expect(deltas >= steps - 2, "\(generation) seed \(seed): most refreshes read only what changed (\(deltas) of \(steps))")
    }

    @Test("2.16.6: every meeting, with formats (order: weekday, start, id as text; formats by first use)")
    func legacyAll() async throws {
        try await series(.v2, criteria: BMLTSearchCriteria(), extent: .meetingsAndFormats, seed: 216)
    }

    @Test("2.16.6: a radius and weekdays, meetings only (moved into and out of the radius)")
    func legacyRadius() async throws {
        var criteria = RefreshTesting.radius
        criteria.weekdays = RefreshTesting.weekdays.weekdays
        try await series(.v2, criteria: criteria, extent: .meetingsOnly, seed: 2166)
        try await series(.v2, criteria: RefreshTesting.radius, extent: .meetingsAndFormats, seed: 21_666)
    }

    @Test("3.1.2: every meeting and a radius (ties in the database's order, asked for)")
    func modern() async throws {
        try await series(.v3, criteria: BMLTSearchCriteria(), extent: .meetingsAndFormats, seed: 312)
        try await series(.v3, criteria: RefreshTesting.radius, extent: .meetingsOnly, seed: 3120)
    }

    @Test("4.1.0: weekdays, with formats and service body names")
    func server41() async throws {
        try await series(.v41, criteria: RefreshTesting.weekdays, extent: .meetingsAndFormats, seed: 410)
        try await series(.v41, criteria: RefreshTesting.radius, extent: .meetingsAndFormats, seed: 4100)
    }

    @Test("4.2.7: every meeting and a radius with weekdays")
    func server42() async throws {
        try await series(.v42, criteria: BMLTSearchCriteria(), extent: .meetingsAndFormats, seed: 427)
        var criteria = RefreshTesting.radius
        criteria.weekdays = RefreshTesting.weekdays.weekdays
        try await series(.v42, criteria: criteria, extent: .meetingsOnly, seed: 4270)
    }

    @Test("a format's key renamed and a service body renamed (no change record): the meetings that show them come again")
    func unrecordedChanges() async throws {
        for generation in [RefreshStandIn.Generation.v2, .v42] {
            let stand = try RefreshStandIn(generation, seed: 77)
            let connection = try await RefreshTesting.connection(stand)
            let list = try await connection.meetings(matching: BMLTSearchCriteria())
            stand.edit(.formatKey)
            stand.edit(.bodyRename)
            let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: RefreshTesting.sizeForgotten(list))
            let download = try await connection.meetings(matching: BMLTSearchCriteria())
            #expect(fresh.meetings == download.meetings && fresh.formats == download.formats, "\(generation)")
            #expect(fresh.delta != nil && fresh.delta?.changed.isEmpty == false, "\(generation): the meetings came again")
        }
    }
}
