import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// Where the change log cannot answer, a refresh downloads the whole list (`delta == nil`) and says why in the log;
/// results of another server or search are refused. Each on a stand-in built from the captures (`RefreshStandIn`).
@Suite("Refresh: whole download where the change log cannot answer, never a wrong list", .serialized, .needsCorpus)
@MainActor
struct RefreshFallbackTests {
    /// A list, `change` applied to the stand-in, a refresh: it must be a whole download equal to a new one, and the log
    /// must say `reason`.
    func fallsBack(_ generation: RefreshStandIn.Generation = .v42, criteria: BMLTSearchCriteria = BMLTSearchCriteria(),
                   aggregator: Bool = false, reason: String, seed: UInt64 = 5,
                   change: (RefreshStandIn, inout BMLTSearchResults) throws -> Void) async throws {
        let stand = try RefreshStandIn(generation, aggregator: aggregator, seed: seed)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        var list = try await connection.meetings(matching: criteria)
        stand.randomEdit([.rename, .weekday, .delete, .create])
        try change(stand, &list)
        let fresh = try await connection.meetings(matching: criteria, updating: RefreshTesting.sizeForgotten(list))
        stand.changeLogReply = nil
        stand.dateHeader = { RefreshStandIn.httpDate($0) }
        let download = try await connection.meetings(matching: criteria)
        #expect(fresh.delta == nil, "a whole download: \(reason)")
        #expect(fresh.meetings == download.meetings && fresh.formats == download.formats, "the list is right: \(reason)")
        #expect(log.contains("downloading the whole list: ") && log.contains(reason), "the log says why: \(log.lines.filter { $0.contains("refresh") })")
    }

    @Test("an aggregator (its change log is emptied by every import: aggregator-4x/28-GetChanges.json)")
    func aggregator() async throws {
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [1002]
        try await fallsBack(.v41, criteria: criteria, aggregator: true, reason: "an aggregator keeps no change log") { _, _ in }
    }

    @Test("GetChanges fails (HTTP 500)")
    func changeLogFails() async throws {
        try await fallsBack(reason: "the change log could not be read") { stand, _ in
            stand.locked { $0.changeLogReply = { .respond(status: 500, headers: [:], body: Data("oops".utf8)) } }
        }
    }

    @Test("GetChanges answers something that is not a list of records ({} and an HTML page)")
    func changeLogUntrusted() async throws {
        try await fallsBack(reason: "the change log cannot be trusted") { stand, _ in
            stand.locked { $0.changeLogReply = { .respond(status: 200, headers: ["Date": RefreshStandIn.httpDate(Date())], body: Data("{}".utf8)) } }
        }
        try await fallsBack(.v2, reason: "the change log cannot be trusted") { stand, _ in
            stand.locked { $0.changeLogReply = { .respond(status: 200, headers: ["Date": RefreshStandIn.httpDate(Date())],
                                                          body: Data("<html><title>Down</title></html>".utf8)) } }
        }
    }

    @Test("a change record without json_data")
    func recordWithoutJSONData() async throws {
        try await fallsBack(.v2, reason: "has no json_data or no meeting id") { stand, list in
            stand.recordWithoutJSONData(meetingID: list.meetings[0].id)
        }
    }

    @Test("the change log's reply has no Date header; then the list it gave has no server time")
    func noDateHeader() async throws {
        try await fallsBack(reason: "the change log's reply had no readable Date header") { stand, _ in
            stand.locked { $0.dateHeader = { _ in nil } }
        }
        try await fallsBack(reason: "carry no server time") { stand, list in
            stand.locked { $0.dateHeader = { _ in "yesterday, around noon" } }
            list = try #require(try? JSONDecoder().decode(BMLTSearchResults.self, from: JSONEncoder().encode(list)))
            list.serverDate = nil
        }
    }

    @Test("a reply's Date header that is not an HTTP date gives results without a server time")
    func unparsableDate() async throws {
        let stand = try RefreshStandIn(.v3, seed: 9)
        let connection = try await RefreshTesting.connection(stand)
        stand.locked { $0.dateHeader = { _ in "Tue, 32 Foo 2026 25:61:00 GMT" } }
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(list.serverDate == nil)
        #expect(HTTPHeaders.date("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPHeaders.text(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        #expect(HTTPHeaders.date(HTTPHeaders.text(now)) == now, "the stand-ins' Date header reads back")
    }

    @Test("the nearest meetings and pages: only the server can rank them")
    func serverRanked() async throws {
        var nearest = BMLTSearchCriteria()
        nearest.location = .nearest(5, latitude: RefreshStandIn.center.latitude, longitude: RefreshStandIn.center.longitude)
        let stand = try RefreshStandIn(.v42, seed: 3)
        let log = RefreshLogLines()
        let connection = try await RefreshTesting.connection(stand, log: log)
        // The stand-in knows no `geo_width` below 0 nor pages: the refresh must not ask it for what changed either.
        let previous = BMLTSearchResults(meetings: [], formats: [])
        var withOrigin = previous
        withOrigin.serverDate = Date()
        for criteria in [nearest, { var page = BMLTSearchCriteria(); page.page = .init(size: 5); return page }()] {
            withOrigin.origin = RefreshOrigin.of(criteria, extent: .meetingsAndFormats, root: stand.rootURL)
            _ = try? await connection.meetings(matching: criteria, updating: withOrigin)
            #expect(log.contains("only the server can make this list"), "\(criteria)")
            #expect(!stand.server.requests.contains { $0.query("switcher") == "GetChanges" }, "the log was not read")
        }
    }

    @Test("a previous list older than 30 days (server time)")
    func tooOld() async throws {
        try await fallsBack(reason: "days old") { stand, _ in
            stand.locked { $0.clock.addTimeInterval(31 * 86_400) }
        }
    }

    @Test("a change log of ten thousand records, and more meetings changed than a fifth of the list")
    func tooManyChanges() async throws {
        try await fallsBack(reason: "too many for a refresh") { stand, list in
            let record = stand.locked { $0.record("comdef_change_type_change", id: list.meetings[0].id,
                                                  before: ["id_bigint": "1"], after: ["id_bigint": "1"]) }
            let data = try JSONSerialization.data(withJSONObject: Array(repeating: record, count: 10_000))
            stand.locked { $0.changeLogReply = { .respond(status: 200, headers: ["Date": RefreshStandIn.httpDate(Date())], body: data) } }
        }
        try await fallsBack(.v2, reason: "too many for a refresh") { stand, _ in
            for _ in 0..<60 { stand.edit(.rename) }
            for _ in 0..<40 { stand.edit(.create) }
        }
    }

    @Test("the server's clock went back minutes since the previous list")
    func clockWentBack() async throws {
        try await fallsBack(.v3, reason: "the server's clock is") { stand, _ in
            stand.locked { $0.clock.addTimeInterval(-20 * 60) }
        }
    }

    @Test("results decoded from an old cache file (no server time, no origin): a whole download")
    func oldEncoding() async throws {
        try await fallsBack(.v41, reason: "carry no server time") { _, list in
            var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(list)) as? [String: Any])
            object["serverDate"] = nil
            object["origin"] = nil
            list = try JSONDecoder().decode(BMLTSearchResults.self, from: JSONSerialization.data(withJSONObject: object))
            #expect(list.serverDate == nil && list.origin == nil)
        }
    }

    @Test("a record dated in the future and a record of a meeting no list has: the refresh is right all the same")
    func oddRecords() async throws {
        let stand = try RefreshStandIn(.v2, seed: 11)
        let connection = try await RefreshTesting.connection(stand)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        stand.edit(.rename)
        stand.locked { stand in
            var future = stand.record("comdef_change_type_change", id: 999_999, before: ["id_bigint": "999999"], after: ["id_bigint": "999999"])
            future["date_int"] = String(Int(stand.clock.timeIntervalSince1970) + 86_400)
            stand.changes.insert(future, at: 0)
        }
        let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: list)
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(fresh.delta != nil && fresh.meetings == download.meetings && fresh.formats == download.formats)
        #expect(fresh.delta == RefreshTesting.expectedDelta(from: list, to: download))
    }

    @Test("results of another server or other criteria are refused with a reason and a sentence in 12 languages")
    func refused() async throws {
        let one = try RefreshStandIn(.v42, seed: 1), other = try RefreshStandIn(.v42, seed: 2)
        let connection = try await RefreshTesting.connection(one)
        let otherConnection = try await RefreshTesting.connection(other)
        let list = try await otherConnection.meetings(matching: BMLTSearchCriteria())
        let mark = one.server.requests.count
        await #expect(throws: BMLTError.invalidArgument(.previousResults(.otherServer))) {
            try await connection.meetings(matching: BMLTSearchCriteria(), updating: list)
        }
        let mine = try await connection.meetings(matching: BMLTSearchCriteria())
        await #expect(throws: BMLTError.invalidArgument(.previousResults(.otherSearch))) {
            try await connection.meetings(matching: RefreshTesting.weekdays, updating: mine)
        }
        await #expect(throws: BMLTError.invalidArgument(.previousResults(.otherSearch))) {
            try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly, updating: mine)
        }
        #expect(one.server.requests[mark...].filter { $0.query("switcher") != "GetSearchResults" }.isEmpty, "nothing sent for them")
        for mismatch in [BMLTError.PreviousResultsMismatch.otherServer, .otherSearch] {
            let sentences = ["da", "de", "el", "en", "es", "fa", "fr", "it", "pl", "pt", "ru", "sv"].map {
                BMLTError.Argument.previousResults(mismatch).phrase(in: $0)
            }
            #expect(Set(sentences).count == 12 && sentences.allSatisfy { !$0.hasPrefix("argument.") }, "\(sentences)")
        }
    }
}
