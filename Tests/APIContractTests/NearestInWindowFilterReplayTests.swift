import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
import BMLTKit

/// "The n nearest in the next hour" on the 4.1.0-shaped replay of `NearestInWindowReplayTests` (the sample data of
/// `rootserver/json_GetSearchResults_all.json`, validation from `rootserver-4x/`): a window within one day in every
/// zone the server's meetings are read in is filtered by the server (one weekday, `StartsAfter`/`StartsBefore`), so
/// one search is usually enough (two when the meetings' zones make the span wider than the window); the meetings are those the rounds find without the filter (the stand-in refusing
/// `GetFieldValues`), and those computed here from the sample data.
@Suite("Nearest in a time window within one day: the server's own filter, fewer searches, the same meetings",
       .needsCaptures, .serialized)
struct NearestInWindowFilterReplayTests {
    typealias Replay = NearestInWindowReplayTests
    /// Monday 2026-06-08 00:00 in New York.
    static let monday = Date(timeIntervalSince1970: 1_780_891_200)

    /// The 10 nearest of the window `[from, to)` on Monday (start times as the server stores them), computed from the
    /// sample data; meetings naming `zoneShift`'s zone are read an hour earlier (Chicago seen from New York).
    static func expected(_ meetings: [[String: Any]], from: String, to: String, chicago: Set<String> = []) -> Set<Int> {
        let found = meetings.filter { meeting in
            guard meeting["weekday_tinyint"] as? String == "2", let start = meeting["start_time"] as? String else { return false }
            let id = meeting["id_bigint"] as? String ?? ""
            let shifted = chicago.contains(id) ? Self.later(start) : start
            return from <= shifted && shifted < to
        }.sorted { Replay.kilometers($0, from: Replay.here) < Replay.kilometers($1, from: Replay.here) }.prefix(10)
        return Set(found.compactMap { Int($0["id_bigint"] as? String ?? "") })
    }

    /// A Chicago start time as New York's clock shows it (an hour later; none of the sample's is after 22:59).
    static func later(_ time: String) -> String {
        let hour = Int(time.prefix(2)) ?? 0
        return String(format: "%02d", hour + 1) + time.dropFirst(2)
    }

    static func criteria(hour: Double, defaultTimeZone: TimeZone? = nil) -> BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.location = .nearest(10, latitude: Replay.here.latitude, longitude: Replay.here.longitude)
        let window = DateInterval(start: monday.addingTimeInterval(hour * 3600), duration: 3600)
        criteria.window = .init(window, timeZone: Replay.newYork, defaultTimeZone: defaultTimeZone)
        return criteria
    }

    static func found(_ meetings: [[String: Any]], _ criteria: BMLTSearchCriteria, zones: Bool) async throws
        -> (ids: [Int], searches: [LoopbackHTTPServer.Request], probes: Int) {
        let http = try Replay.server(meetings, zones: zones)
        defer { http.stop() }
        let connection = await BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
                                              configuration: BMLTConfiguration(timeout: hangGuardTimeout))   // a hang guard (issue 50)
        _ = try await connection.validate()
        let ids = try await connection.meetings(matching: criteria).meetings.map(\.id)
        let searches = http.requests.filter { $0.query("switcher") == "GetSearchResults" }
        return (ids, searches, http.requests.filter { $0.query("switcher") == "GetFieldValues" }.count)
    }

    @Test("the 10 nearest in the next hour (Monday 18:30): one filtered search; the rounds' meetings, those computed")
    func nextHourEvening() async throws {
        let sample = try Replay.sampleMeetings()
        let criteria = Self.criteria(hour: 18.5)
        let filtered = try await Self.found(sample, criteria, zones: true)
        let rounds = try await Self.found(sample, criteria, zones: false)
        let expected = Self.expected(sample, from: "18:30:00", to: "19:30:00")
        #expect(expected.count == 10)
        #expect(Set(filtered.ids) == expected && Set(rounds.ids) == expected)
        #expect(filtered.ids == rounds.ids, "another order than the rounds'")
        // One search, asking the server for Monday between 18:29 and 19:30 (both strict), after one look at the zones.
        #expect(filtered.probes == 1 && filtered.searches.count == 1)
        let asked = try #require(filtered.searches.first)
        #expect(asked.queryItems.filter { $0.name == "weekdays[]" }.compactMap(\.value) == ["2"])
        #expect(asked.query("StartsAfterH") == "18" && asked.query("StartsAfterM") == "29")
        #expect(asked.query("StartsBeforeH") == "19" && asked.query("StartsBeforeM") == "30")
        #expect(rounds.searches.count >= 2, "the rounds needed \(rounds.searches.count)")
    }

    @Test("the 10 nearest in the next hour at 3 a.m.: one search of nothing instead of rounds of 10, 80, 640 and 2,000")
    func nextHourAtThree() async throws {
        let sample = try Replay.sampleMeetings()
        let criteria = Self.criteria(hour: 3)
        let filtered = try await Self.found(sample, criteria, zones: true)
        let rounds = try await Self.found(sample, criteria, zones: false)
        #expect(Self.expected(sample, from: "03:00:00", to: "04:00:00").isEmpty)
        #expect(filtered.ids.isEmpty && rounds.ids.isEmpty)
        #expect(rounds.searches.compactMap { $0.query("geo_width") } == ["-10", "-80", "-640", "-2000"])
        #expect(filtered.searches.compactMap { $0.query("geo_width") } == ["-10"])
    }

    @Test("meetings naming another zone: the filter spans both zones' clocks; mixed zones with no default: the rounds")
    func otherZones() async throws {
        // Half of Monday's meetings name Chicago (an hour behind New York), the others none (the server's zone).
        var chicago: Set<String> = []
        let sample = try Replay.sampleMeetings().map { meeting -> [String: Any] in
            var meeting = meeting
            let id = meeting["id_bigint"] as? String ?? ""
            if meeting["weekday_tinyint"] as? String == "2", (Int(id) ?? 0) % 2 == 1 {
                meeting["time_zone"] = "America/Chicago"
                chicago.insert(id)
            }
            return meeting
        }
        let criteria = Self.criteria(hour: 19, defaultTimeZone: Replay.newYork)
        let filtered = try await Self.found(sample, criteria, zones: true)
        let rounds = try await Self.found(sample, criteria, zones: false)
        let expected = Self.expected(sample, from: "19:00:00", to: "20:00:00", chicago: chicago)
        #expect(expected.count == 10 && expected.contains { chicago.contains(String($0)) })
        #expect(Set(filtered.ids) == expected && Set(rounds.ids) == expected)
        // Chicago's 18:00–19:00 and New York's 19:00–20:00: the server is asked for 17:59–20:00 in every round.
        #expect(filtered.searches.allSatisfy { $0.query("StartsAfterH") == "17" && $0.query("StartsBeforeH") == "20" })
        let asked = try #require(filtered.searches.first)
        // Measured: the span of both clocks holds the window's meetings and about as many others, so the filtered
        // search takes 2 rounds (10, then 30) where the unfiltered one took 3 (10, 80, 240).
        #expect(filtered.searches.compactMap { $0.query("geo_width") } == ["-10", "-30"])
        #expect(rounds.searches.compactMap { $0.query("geo_width") } == ["-10", "-80", "-240"])
        #expect(asked.query("StartsAfterH") == "17" && asked.query("StartsAfterM") == "59")
        #expect(asked.query("StartsBeforeH") == "20" && asked.query("StartsBeforeM") == "0")

        // No default zone: the meetings naming none are read in the zone most of an answer's meetings name, which the
        // filter would change. The rounds ask as before, without a time filter.
        let mixed = try await Self.found(sample, Self.criteria(hour: 19), zones: true)
        let unfiltered = try await Self.found(sample, Self.criteria(hour: 19), zones: false)
        #expect(mixed.ids == unfiltered.ids)
        #expect(mixed.searches.allSatisfy { $0.query("StartsAfterH") == nil && $0.query("StartsBeforeH") == nil })
        #expect(mixed.searches.map(\.queryItems) == unfiltered.searches.map(\.queryItems))
    }
}
