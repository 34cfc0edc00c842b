import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// The helpers BMLTiOSLib finders needed: "today and tomorrow from now", `.nearest(n)` giving exactly n, and a copy of a
/// meeting as a new draft.
@Suite("Helpers for ported apps")
@MainActor
struct PortedFinderHelpersTests {
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// A semantic meeting object (2.x's strings).
    nonisolated static func meeting(_ id: Int, weekday: Int, start: String, zone: String = "", distanceKm: Double? = nil) -> String {
        #"{"id_bigint":"\#(id)","service_body_bigint":"1","weekday_tinyint":"\#(weekday)","start_time":"\#(start)","#
            + #""duration_time":"01:00:00","time_zone":"\#(zone)","meeting_name":"M\#(id)","latitude":"40.7","longitude":"-73.6","#
            + #""distance_in_km":"\#(distanceKm.map { String($0) } ?? "")","formats":"","published":"1"}"#
    }

    @Test("fromNow(days:): the window's weekdays and one day each side (other zones), no start; days 1 is todayFromNow")
    func criteria() {
        // Wednesday 2026-06-03 19:30 in New York.
        let now = Self.utc("2026-06-03T23:30:00Z")
        let two = BMLTSearchCriteria.fromNowUntilEndOfTomorrow(now, in: Self.newYork)
        #expect(two == BMLTSearchCriteria.fromNow(days: 2, now, in: Self.newYork))
        #expect(two.weekdays == [.tuesday, .wednesday, .thursday, .friday] && two.startsAfter == nil)
        var one = BMLTSearchCriteria.fromNow(days: 1, now, in: Self.newYork)
        #expect(one.window == .init(BMLTSearchCriteria.upcomingWindow(days: 1, now, in: Self.newYork), timeZone: Self.newYork))
        one.window = nil
        #expect(one == BMLTSearchCriteria.todayFromNow(now, in: Self.newYork))
        #expect(BMLTSearchCriteria.fromNow(days: 5, now, in: Self.newYork).weekdays.isEmpty, "a window of a week or more: every day")
        // Saturday 2026-06-06 in New York: tomorrow is Sunday (weekday 1), the day after Monday.
        let saturday = BMLTSearchCriteria.fromNow(days: 2, Self.utc("2026-06-06T16:00:00Z"), in: Self.newYork)
        #expect(saturday.weekdays == [.friday, .saturday, .sunday, .monday])
        let window = BMLTSearchCriteria.upcomingWindow(days: 2, now, in: Self.newYork)
        #expect(window.start == now && window.end == Self.utc("2026-06-05T04:00:00Z"), "until Thursday 24:00 in New York")
    }

    @Test("upcomingMeetings(days: 2): from now to the end of tomorrow, soonest first, meetings with no zone in the default zone")
    func upcoming() async throws {
        // Wednesday 2026-06-03 19:30 in New York (= Thursday 01:30 in Berlin).
        let now = Self.utc("2026-06-03T23:30:00Z")
        let meetings = [
            Self.meeting(1, weekday: 4, start: "19:00:00"),                        // Wed 19:00: already started → out
            Self.meeting(2, weekday: 4, start: "20:00:00"),                        // Wed 20:00 → in
            Self.meeting(3, weekday: 5, start: "23:30:00"),                        // Thu 23:30 → in
            Self.meeting(4, weekday: 6, start: "00:30:00"),                        // Fri 00:30 → after the window
            Self.meeting(5, weekday: 5, start: "07:00:00", zone: "Europe/Berlin"), // Thu 07:00 Berlin = Thu 01:00 NY → in
            Self.meeting(6, weekday: 3, start: "20:00:00"),                        // Tue: next week → out
        ]
        let stub = StubServer { request in
            request.query("switcher") == "GetSearchResults" ? .json("[" + meetings.joined(separator: ",") + "]") : .json("[]")
        }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let found = try await connection.upcomingMeetings(days: 2, in: Self.newYork, defaultTimeZone: Self.newYork, now: now)
        #expect(found.map(\.meeting.id) == [2, 5, 3])
        #expect(found.first?.occurrence.start == Self.utc("2026-06-04T00:00:00Z"))
        let sent = try #require(stub.requests.last)
        #expect(Set(sent.queryItems.filter { $0.name == "weekdays[]" }.compactMap(\.value)) == ["3", "4", "5", "6"])
    }

    @Test(".nearest(n) gives exactly n: the server's answer (all inside the circle that holds n) cut to the n nearest, in its order")
    func nearestIsExact() async throws {
        // 11 meetings for "-10", as 2.16.6 answers; sent in an order that is not by distance.
        let distances = [3.0, 0.5, 2.0, 9.0, 1.0, 4.0, 7.0, 5.0, 8.0, 6.0, 2.5]
        let stub = StubServer { request in
            guard request.query("switcher") == "GetSearchResults" else { return .json(SampleReplies.serverInfo2x) }
            return .json("[" + distances.enumerated().map { Self.meeting($0.offset + 1, weekday: 2, start: "19:00:00", distanceKm: $0.element) }
                .joined(separator: ",") + "]")
        }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        var criteria = BMLTSearchCriteria()
        criteria.location = .nearest(10, latitude: 40.7, longitude: -73.6)
        let results = try await connection.meetings(matching: criteria, extent: .meetingsOnly)
        #expect(results.meetings.count == 10)
        #expect(results.meetings.map(\.id) == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11], "the farthest (9 km, #4) left out; the server's order kept")
        #expect(connection.search.meetings == results.meetings)
        criteria.location = .init(latitude: 40.7, longitude: -73.6, radius: .kilometers(50))
        #expect(try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.count == 11, "a radius is not cut")
    }

    @Test("editableCopy(): a new, unpublished meeting with everything else kept and nothing the server computes")
    func copy() throws {
        var meeting = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work")
        meeting.weekday = .thursday
        meeting.startTime = BMLTTimeOfDay(hour: 19, minute: 30)
        meeting.venueType = .hybrid
        meeting.formatKeys = ["O", "HY"]
        meeting.formatIDs = [17, 56]
        meeting.isPublished = true
        meeting.distanceInKilometers = 1.5
        meeting.distanceInMiles = 0.9
        meeting.rootServerURI = "https://example.org/main_server"
        meeting.rootServerID = 3
        meeting.serviceBodyName = "Nassau"
        meeting.virtualMeetingLink = "https://zoom.us/j/1"
        meeting.extraFields = ["custom_field": "kept"]
        var draft = meeting.editableCopy()
        #expect(draft.isNew && draft.original == nil && draft.copiedFrom == meeting)
        #expect(draft.id == 0 && draft.isPublished == false)
        #expect(draft.distanceInKilometers == nil && draft.distanceInMiles == nil && draft.rootServerURI == nil
                && draft.rootServerID == nil && draft.serviceBodyName == nil)
        #expect(draft.name == meeting.name && draft.weekday == .thursday && draft.startTime == meeting.startTime
                && draft.venueType == .hybrid && draft.formatKeys == ["O", "HY"] && draft.formatIDs == [17, 56]
                && draft.virtualMeetingLink == meeting.virtualMeetingLink && draft.extraFields == ["custom_field": "kept"])
        #expect(!draft.changes.contains { WireMeetingFieldTable.computedKeys.contains($0.key) })
        draft.name = "Changed"
        draft.revertToServerState()
        #expect(draft.name == meeting.name && draft.id == 0 && draft.isPublished == false, "back to the copy as made")
        let decoded = try JSONDecoder().decode(BMLTMeetingDraft.self, from: JSONEncoder().encode(draft))
        #expect(decoded == draft)
    }
}
