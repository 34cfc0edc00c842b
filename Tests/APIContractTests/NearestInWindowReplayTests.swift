import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
import BMLTKit

/// "The 10 nearest meetings today and tomorrow" on a live-shaped 4.1.0 replay: validation from the 4.1.0 captures, and
/// `GetSearchResults` answered from the sample data set every captured server was loaded with (the 2.16.6 capture of
/// all 1,512 meetings) the way 4.1.0 answers a negative `geo_width`: the meetings of the asked weekdays nearest the
/// centre, a couple more than asked (4.1.0 answered 7 for `-5`), with their distances. The stand-in also filters by
/// start time as 4.1.0 does (`StartsAfterH/M` and `StartsBeforeH/M`, both strict, on `HH:MM:00`: `MeetingRepository`),
/// and answers `GetFieldValues` of `time_zone` in the shape of `rootserver-4x/018-GetFieldValues-weekday.json` (one
/// entry per value, `"NULL"` for none, the ids as a comma list) — or, with `zones: false`, refuses it (400, as 4.1.0
/// answers a key it does not know), which leaves BMLTKit's rounds as they were before the server's own filter.
@Suite("Nearest in a time window: exactly n when the server has n, bounded widening", .needsCaptures, .serialized)
struct NearestInWindowReplayTests {
    static let here = BMLTCoordinate(latitude: 40.7070026, longitude: -73.6233694)
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// Sunday 2026-06-07 18:00 in New York: the window is Sunday evening and Monday.
    static let now = Date(timeIntervalSince1970: 1_780_869_600)

    /// The sample data's meetings (JSON objects), those of `weekdays` only when given.
    static func sampleMeetings(weekdays: Set<String>? = nil) throws -> [[String: Any]] {
        let data = FixtureCaptures.body("rootserver", "json_GetSearchResults_all.json")
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return all.filter { weekdays?.contains($0["weekday_tinyint"] as? String ?? "") ?? true }
    }

    static func kilometers(_ meeting: [String: Any], from point: BMLTCoordinate) -> Double {
        let latitude = Double(meeting["latitude"] as? String ?? "") ?? 0, longitude = Double(meeting["longitude"] as? String ?? "") ?? 0
        let radians = Double.pi / 180
        let a = pow(sin((latitude - point.latitude) * radians / 2), 2)
            + cos(point.latitude * radians) * cos(latitude * radians) * pow(sin((longitude - point.longitude) * radians / 2), 2)
        return 6_371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    static func server(_ meetings: [[String: Any]], zones: Bool = true) throws -> LoopbackHTTPServer {
        let body = { @Sendable (file: String) in
            LoopbackHTTPServer.Behavior.respond(status: 200, headers: ["Content-Type": "application/json"],
                                                body: FixtureCaptures.body("rootserver-4x", file))
        }
        let data = try JSONSerialization.data(withJSONObject: meetings)
        return try LoopbackHTTPServer { request in
            switch request.query("switcher") {
            case "GetServerInfo": return body("001-GetServerInfo.json")
            case "GetServiceBodies": return body("004-GetServiceBodies.json")
            case "GetFormats": return body("003-GetFormats-show_all.json")
            case "GetFieldValues" where request.query("meeting_key") == "time_zone" && zones:
                let all = (try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
                var ids: [String: [String]] = [:]
                for meeting in all {
                    let zone = meeting["time_zone"] as? String ?? ""
                    ids[zone.isEmpty ? "NULL" : zone, default: []].append(meeting["id_bigint"] as? String ?? "")
                }
                let entries = ids.keys.sorted().map { ["time_zone": $0, "ids": ids[$0]!.joined(separator: ",")] }
                let reply = (try? JSONSerialization.data(withJSONObject: entries)) ?? Data("[]".utf8)
                return .respond(status: 200, headers: ["Content-Type": "application/json"], body: reply)
            case "GetFieldValues":
                return .respond(status: 400, headers: [:], body: Data())
            case "GetSearchResults":
                let all = (try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
                let weekdays = Set(request.queryItems.filter { $0.name == "weekdays[]" }.compactMap(\.value))
                let after = time(request, "StartsAfter"), before = time(request, "StartsBefore")
                let latitude = Double(request.query("lat_val") ?? "") ?? 0, longitude = Double(request.query("long_val") ?? "") ?? 0
                let count = -(Int(request.query("geo_width") ?? request.query("geo_width_km") ?? "") ?? -1_000_000)
                let point = BMLTCoordinate(latitude: latitude, longitude: longitude)
                let found = all.filter { weekdays.isEmpty || weekdays.contains($0["weekday_tinyint"] as? String ?? "") }
                    .filter { meeting in
                        let start = meeting["start_time"] as? String ?? ""
                        return (after.map { start > $0 } ?? true) && (before.map { start < $0 } ?? true)
                    }
                    .map { meeting -> [String: Any] in
                        var meeting = meeting
                        let km = kilometers(meeting, from: point)
                        meeting["distance_in_km"] = String(km)
                        meeting["distance_in_miles"] = String(km / 1.609344)
                        return meeting
                    }
                    .sorted { Double($0["distance_in_km"] as? String ?? "")! < Double($1["distance_in_km"] as? String ?? "")! }
                    .prefix(count + 2)
                let reply = (try? JSONSerialization.data(withJSONObject: Array(found))) ?? Data("[]".utf8)
                return .respond(status: 200, headers: ["Content-Type": "application/json"], body: reply)
            default: return .json("[]")
            }
        }
    }

    /// 4.1.0's `build_time_string`: `HH:MM:00` from `<name>H` and `<name>M`, each clamped; `nil` when neither is numeric.
    static func time(_ request: LoopbackHTTPServer.Request, _ name: String) -> String? {
        let hour = request.query(name + "H").flatMap { Int($0) }, minute = request.query(name + "M").flatMap { Int($0) }
        guard hour != nil || minute != nil else { return nil }
        return String(format: "%02d:%02d:00", min(23, max(0, hour ?? 0)), min(59, max(0, minute ?? 0)))
    }

    static func searches(_ http: LoopbackHTTPServer) -> [String] {
        http.requests.filter { $0.query("switcher") == "GetSearchResults" }.compactMap { $0.query("geo_width") }
    }

    @Test("upcomingMeetings(days: 2) with .nearest(10): the 10 nearest of the window, in 2 requests (the first keeps 5)")
    func tenNearestTodayAndTomorrow() async throws {
        let http = try Self.server(try Self.sampleMeetings())
        defer { http.stop() }
        let connection = await BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        _ = try await connection.validate()
        var near = BMLTSearchCriteria()
        near.location = .nearest(10, latitude: Self.here.latitude, longitude: Self.here.longitude)
        let upcoming = try await connection.upcomingMeetings(days: 2, matching: near, in: Self.newYork, now: Self.now)
        let window = BMLTSearchCriteria.upcomingWindow(days: 2, Self.now, in: Self.newYork)
        #expect(upcoming.count == 10)
        #expect(upcoming.allSatisfy { window.start <= $0.occurrence.start && $0.occurrence.start < window.end })
        // They are the 10 nearest of the window among all the sample data's meetings, computed here independently.
        let expected = try Self.sampleMeetings(weekdays: ["1", "2"]).filter { meeting in
            meeting["weekday_tinyint"] as? String == "2" || (meeting["start_time"] as? String ?? "") > "18:00:00"
        }.sorted { Self.kilometers($0, from: Self.here) < Self.kilometers($1, from: Self.here) }.prefix(10)
        #expect(Set(upcoming.map(\.meeting.id)) == Set(expected.compactMap { Int($0["id_bigint"] as? String ?? "") }))
        // Measured: the 10 nearest on Saturday to Tuesday hold 5 of the window; the second request asks 30.
        #expect(Self.searches(http) == ["-10", "-30"])

        // The same criteria as a plain search (the path meetingBatches and a query use): the same 10.
        var criteria = BMLTSearchCriteria.fromNow(days: 2, Self.now, in: Self.newYork)
        criteria.location = near.location
        let found = try await connection.meetings(matching: criteria).meetings
        #expect(Set(found.map(\.id)) == Set(upcoming.map(\.meeting.id)))
        var batched: [BMLTMeeting] = []
        for try await batch in await connection.meetingBatches(matching: criteria) { batched += batch }
        #expect(batched.map(\.id) == found.map(\.id))

        // A query object (one per view) searches the same way: the same 10.
        let query = await BMLTMeetingQuery(connection, criteria: criteria)
        await query.refresh()
        let held = await query.meetings.map(\.id)
        #expect(held == found.map(\.id))
    }

    @Test(".nearest(0) with a window: invalidArgument at once, nothing sent")
    func nearestZero() async throws {
        let http = try Self.server([])
        defer { http.stop() }
        let connection = await BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        var near = BMLTSearchCriteria()
        near.location = .nearest(0, latitude: Self.here.latitude, longitude: Self.here.longitude)
        do {
            _ = try await connection.upcomingMeetings(days: 2, matching: near, in: Self.newYork, now: Self.now)
            Issue.record("expected invalidArgument")
        } catch let error as BMLTError {
            guard case .invalidArgument(let argument) = error else { Issue.record("got \(error)"); return }
            #expect(argument == .nearestNoneInWindow(0))
            #expect(error.description.contains(".nearest(0)"))
        }
        #expect(Self.searches(http).isEmpty)
    }

    @Test("a window the server has no meetings in: empty after a bounded number of requests; fewer than n: all of them in 1")
    func fewerThanAsked() async throws {
        // Saturday's and Tuesday's meetings only: the server answers plenty, none of them in Sunday evening–Monday.
        let sides = try Self.server(try Self.sampleMeetings(weekdays: ["7", "3"]))
        defer { sides.stop() }
        let connection = await BMLTConnection(rootServerURL: sides.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        var near = BMLTSearchCriteria()
        near.location = .nearest(10, latitude: Self.here.latitude, longitude: Self.here.longitude)
        let none = try await connection.upcomingMeetings(days: 2, matching: near, in: Self.newYork, now: Self.now)
        #expect(none.isEmpty)
        let asked = Self.searches(sides)
        #expect(asked.count <= 4 && asked.count >= 2, "bounded: \(asked)")

        // Six Monday meetings on the whole server: all six, after one request (the server answered fewer than asked).
        let monday = try Array(Self.sampleMeetings(weekdays: ["2"]).prefix(6))
        let few = try Self.server(monday)
        defer { few.stop() }
        let other = await BMLTConnection(rootServerURL: few.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let six = try await other.upcomingMeetings(days: 2, matching: near, in: Self.newYork, now: Self.now)
        #expect(six.count == 6)
        #expect(Self.searches(few) == ["-10"])
    }
}
