import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// No request longer than a server takes. 2.16.6 behind Apache answers `414 Request-URI Too Long` to a search of 400
/// `meeting_ids%5B%5D=` items (9.6 KB; `server-truths/216-apache-414-headers.txt`, Apache's `LimitRequestLine` 8,190):
/// the stand-ins answer a longer request line the same way (`RefreshStandIn.lineLimit`). Long id lists go in several
/// requests, merged in the server's order without duplicates; a server with a shorter limit splits a search again at
/// each 414, and makes a refresh download the list whole.
@Suite("Long id lists: several requests, a 414 read as too long (server-truths/216-apache-414-*)", .serialized, .needsCorpus)
@MainActor
struct RequestLengthTests {
    /// The request line each request was sent with.
    static func line(_ request: LoopbackHTTPServer.Request) -> Int { request.method.utf8.count + request.target.utf8.count + 10 }

    /// The formats a `get_used_formats` search lists beside `meetings`: by first use (2.16.6,
    /// `rootserver/json_GetSearchResults_get_used_formats.json`) or by id (3.x/4.x, `006-…`), from `known`.
    static func usedFormats(_ meetings: [BMLTMeeting], legacy: Bool, known: [BMLTFormat]) -> [Int] {
        var ids: [Int] = []
        for meeting in meetings {
            for key in meeting.formatKeys { if let id = known.first(where: { $0.key == key })?.id, !ids.contains(id) { ids.append(id) } }
        }
        return legacy ? ids : ids.sorted()
    }

    @Test("400 ids (some unknown, some twice) in one search come back through Apache's limit: the server's order, once each",
          arguments: [RefreshStandIn.Generation.v2, .v42])
    func fourHundredIDs(_ generation: RefreshStandIn.Generation) async throws {
        let stand = try RefreshStandIn(generation, seed: 400, copies: 6)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        let all = try await connection.meetings(matching: BMLTSearchCriteria())
        var rng = SeededGenerator(seed: 401)
        var held = stand.locked { Array($0.meetings.keys) }.shuffled(using: &rng)
        held = Array(held.prefix(340))
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = held + (1...40).map { 900_000 + $0 } + held.prefix(20)
        #expect(criteria.meetingIDs.count == 400)
        let mark = stand.server.requests.count
        let results = try await connection.meetings(matching: criteria)
        let asked = stand.server.requests[mark...]
        let wanted = Set(held)
        let expected = all.meetings.filter { wanted.contains($0.id) }
        #expect(results.meetings == expected, "\(generation): \(results.meetings.count) meetings against \(expected.count)")
        #expect(results.formats.map(\.id) == Self.usedFormats(expected, legacy: generation.isLegacy, known: all.formats))
        let byID = asked.filter { $0.query("switcher") == "GetSearchResults" && $0.query("meeting_ids[]") != nil }
        #expect(byID.count >= 2 && asked.allSatisfy { Self.line($0) <= RequestLine.limit }, "\(asked.map(Self.line))")
        #expect(log.contains("asked in \(byID.count) requests"), "\(log.lines.suffix(3))")
    }

    /// Review of the 1.1.0 merge, finding 12: every run of a long id list was sent at once (3,000 ids, about ten
    /// searches together at a volunteer's server), and one failing run left the others running.
    @Test("2,400 ids: at most 4 runs asked at a time; the first run failing cancels the rest, nothing more is sent")
    func runsInFlight() async throws {
        let stand = try RefreshStandIn(.v42, seed: 405, copies: 6)
        let connection = try await RefreshTesting.connection(stand)
        let held = stand.locked { Array($0.meetings.keys).sorted() }
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = held + (1...(2_400 - held.count)).map { 900_000 + $0 }
        let runs = ByIDSearch.runs(criteria.meetingIDs, template: BMLTSearchCriteria(),
                                   ask: .init(criteria: criteria, extent: .meetingsAndFormats, units: .miles, fresh: false, bare: false),
                                   OperationContext(root: stand.rootURL, transport: Transport(configuration: BMLTConfiguration()),
                                                    serverInfo: nil, serverFormats: [], adminSession: AdminSession()))
        #expect(runs.count > ByIDSearch.runsInFlight, "\(runs.count) runs")
        stand.locked { $0.byIDDelay = 0.2 }
        let results = try await connection.meetings(matching: criteria)
        let all = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(results.meetings == all.meetings, "every meeting held is asked for: the whole (published) list")
        let (most, answered) = stand.locked { ($0.byIDMostInFlight, $0.byIDAnswered) }
        #expect(most <= ByIDSearch.runsInFlight && answered >= runs.count, "at most \(most) at a time, \(answered) asked")

        // The first run asked fails at once; the others are held unanswered until the search has ended (RefreshStandIn),
        // so no run can end before the failure is read: a fifth run sent would be sent after it, whatever the load.
        stand.locked { $0.byIDAnswered = 0; $0.byIDFailsFirst = true; $0.byIDDelay = 0 }
        await #expect(throws: BMLTError.self) { _ = try await connection.meetings(matching: criteria) }
        let sent = stand.locked { $0.byIDAnswered }
        stand.locked { $0.byIDHolding = false }
        #expect(sent <= ByIDSearch.runsInFlight, "after the first run's 500, no other run is sent: \(sent) of \(runs.count)")
        // The cancelled runs' requests that reached the stand-in end there before it goes (its handler reads it).
        for _ in 0..<18_000 where stand.locked({ $0.byIDInFlight }) > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
    }

    @Test("a server taking shorter lines (1,500 bytes): the search of 400 ids is asked again in halves at each 414")
    func shorterLimitSplitsAgain() async throws {
        let stand = try RefreshStandIn(.v42, seed: 402, copies: 4)
        let connection = try await RefreshTesting.connection(stand)
        let all = try await connection.meetings(matching: BMLTSearchCriteria())
        let ids = stand.locked { Array($0.meetings.keys).sorted() }.prefix(400)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = Array(ids)
        stand.locked { $0.lineLimit = 1_500 }
        let mark = stand.server.requests.count
        let results = try await connection.meetings(matching: criteria)
        let refused = stand.server.requests[mark...].filter { Self.line($0) > 1_500 }
        #expect(!refused.isEmpty, "the first parts were refused with 414")
        let wanted = Set(ids)
        #expect(results.meetings == all.meetings.filter { wanted.contains($0.id) })
    }

    @Test("a refresh whose changed meetings do not fit one request line: read in several, no 414, equals a download")
    func refreshOfManyChanges() async throws {
        let stand = try RefreshStandIn(.v42, seed: 403, copies: 30)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(list.meetings.count >= 1_700)
        for _ in 0..<380 { stand.edit(.rename) }
        let mark = stand.server.requests.count
        let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: list)
        let asked = stand.server.requests[mark...]
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(fresh.delta != nil && fresh.meetings == download.meetings && fresh.formats == download.formats,
                "\(log.lines.filter { $0.contains("refresh") || !$0.hasPrefix("← 200") && !$0.hasPrefix("→ GET") })")
        #expect(fresh.delta?.changed.count ?? 0 > 300)
        let byID = asked.filter { $0.query("switcher") == "GetSearchResults" && $0.query("meeting_ids[]") != nil }
        #expect(byID.count >= 2 && asked.allSatisfy { Self.line($0) <= RequestLine.limit }, "\(asked.map(Self.line))")
    }

    @Test("a refresh against a server taking shorter lines (600 bytes): its 414 is read as too long, the list downloaded whole")
    func refreshRefusedTooLong() async throws {
        let stand = try RefreshStandIn(.v42, seed: 404)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        stand.locked { $0.lineLimit = 600 }
        for _ in 0..<45 { stand.edit(.rename) }
        let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: RefreshTesting.sizeForgotten(list))
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(fresh.delta == nil && fresh.meetings == download.meetings)
        #expect(log.contains("downloading the whole list: the server found the request for"), "\(log.lines.filter { $0.contains("refresh") })")
    }

    @Test("ids cut to fit: each run's line at most the limit, every id once, in order")
    func chunks() {
        let ids = Array(1...2_000).map { $0 * 37 }
        let runs = RequestLine.chunks(ids, base: 180)
        #expect(runs.flatMap { $0 } == ids)
        for run in runs {
            let line = 180 + run.reduce(0) { $0 + "&meeting_ids%5B%5D=".utf8.count + String($1).utf8.count }
            #expect(line <= RequestLine.limit)
        }
        for (run, next) in zip(runs.dropLast(), runs.dropFirst()) {
            let line = 180 + (run + [next[0]]).reduce(0) { $0 + 19 + String($1).utf8.count }
            #expect(line > RequestLine.limit, "a run holds as many ids as fit")
        }
        #expect(RequestLine.chunks([], base: 100).isEmpty && RequestLine.chunks([5], base: 9_000) == [[5]])
    }
}
