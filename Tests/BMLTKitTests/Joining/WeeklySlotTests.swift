import Foundation
import Testing
@testable import BMLTKit

/// The weekly slot seen from another zone: the weekday rolls over midnight, and the answer follows the offsets of
/// the week asked about (daylight saving starts on different dates in New York and London).
@Suite("Joining: weekly slot in another time zone")
struct WeeklySlotTests {
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

    static func meeting(_ weekday: BMLTWeekday?, _ hour: Int, _ minute: Int = 0, zone: String?) -> BMLTMeeting {
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 2, name: "Hope", weekday: weekday,
                                  startTime: BMLTTimeOfDay(hour: hour, minute: minute), duration: 3600)
        meeting.timeZone = zone.map(Self.zone)
        return meeting
    }

    @Test("Tuesday 19:00 in New York seen from London, in three weeks of 2026", arguments: [
        ("2026-01-12T12:00:00Z", "Wednesday 00:00", 1),   // EST and GMT: five hours
        ("2026-03-09T12:00:00Z", "Tuesday 23:00", 0),     // New York on EDT since 8 March, London still on GMT
        ("2026-04-06T12:00:00Z", "Wednesday 00:00", 1),   // EDT and BST
    ])
    func newYorkFromLondon(week: String, expected: String, shift: Int) throws {
        let m = Self.meeting(.tuesday, 19, zone: "America/New_York")
        let slot = try #require(m.weeklySlot(in: Self.zone("Europe/London"), defaultTimeZone: .gmt, weekOf: Self.date(week)))
        #expect(slot.description == expected)
        #expect(slot.dayShift == shift)
        #expect(slot.timeZone.identifier == "Europe/London")
    }

    @Test("rolling back a day: Sunday 01:00 in Tokyo is Saturday 08:00 in Los Angeles in January")
    func backwards() throws {
        let slot = try #require(Self.meeting(.sunday, 1, zone: "Asia/Tokyo")
            .weeklySlot(in: Self.zone("America/Los_Angeles"), defaultTimeZone: .gmt, weekOf: Self.date("2026-01-10T00:00:00Z")))
        #expect(slot.weekday == .saturday && slot.startTime == BMLTTimeOfDay(hour: 8) && slot.dayShift == -1)
    }

    @Test("a half-hour zone: Monday 20:00 in London is Tuesday 01:30 in Kolkata")
    func halfHour() throws {
        let slot = try #require(Self.meeting(.monday, 20, zone: "Europe/London")
            .weeklySlot(in: Self.zone("Asia/Kolkata"), defaultTimeZone: .gmt, weekOf: Self.date("2026-01-05T00:00:00Z")))
        #expect(slot.description == "Tuesday 01:30" && slot.dayShift == 1)
    }

    @Test("a start time in the spring-forward gap moves as nextOccurrence moves it: 02:30 on 8 March 2026 is 03:30 EDT")
    func gap() throws {
        let m = Self.meeting(.sunday, 2, 30, zone: "America/New_York")
        let week = Self.date("2026-03-07T12:00:00Z")
        let slot = try #require(m.weeklySlot(in: Self.zone("Europe/London"), defaultTimeZone: .gmt, weekOf: week))
        #expect(slot.description == "Sunday 07:30")
        let own = try #require(m.weeklySlot(in: Self.zone("America/New_York"), defaultTimeZone: .gmt, weekOf: week))
        #expect(own.description == "Sunday 03:30" && own.dayShift == 0)
        let next = try #require(m.nextOccurrence(after: week, defaultTimeZone: .gmt))
        #expect(next.start == Self.date("2026-03-08T07:30:00Z"))
    }

    @Test("a meeting without a zone is read in the default zone; without a weekday or start time there is no slot")
    func defaults() throws {
        let m = Self.meeting(.friday, 23, 30, zone: nil)
        let slot = try #require(m.weeklySlot(in: Self.zone("Europe/Paris"), defaultTimeZone: Self.zone("America/Chicago"),
                                             weekOf: Self.date("2026-06-01T00:00:00Z")))
        #expect(slot.description == "Saturday 06:30" && slot.dayShift == 1)
        #expect(Self.meeting(nil, 19, zone: "Europe/London").weeklySlot(in: .gmt, defaultTimeZone: .gmt) == nil)
        var noTime = Self.meeting(.monday, 19, zone: nil)
        noTime.startTime = nil
        #expect(noTime.weeklySlot(in: .gmt, defaultTimeZone: .gmt) == nil)
        // The form without a date answers for now: the same as weekOf: now, whichever week it is.
        let tokyo = Self.meeting(.sunday, 1, zone: "Asia/Tokyo")
        let now = tokyo.weeklySlot(in: Self.zone("Asia/Tokyo"), defaultTimeZone: .gmt)
        #expect(now?.description == "Sunday 01:00")
    }
}
