import Foundation
import Testing
@testable import BMLTKit

/// Latitude and longitude 0,0 — the servers' "not geocoded" — are no place wherever BMLTKit uses a coordinate,
/// also when a host builds such a meeting itself.
@Suite("0,0 is no coordinate: distances, sorts, duplicates, exports")
struct NotGeocodedTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    static func meeting(_ id: Int, _ coordinate: BMLTCoordinate?) -> BMLTMeeting {
        var meeting = BMLTMeeting(id: id, serviceBodyID: 7, name: "Gruppe \(id)", weekday: .monday,
                                  startTime: BMLTTimeOfDay(hour: 19), duration: 3600)
        meeting.coordinate = coordinate
        meeting.timeZone = zone
        return meeting
    }

    @Test("no distance to a 0,0 meeting; a distance sort puts it with the meetings without coordinates, last")
    func distances() {
        let here = BMLTCoordinate(latitude: 0.5, longitude: 0.5)      // near 0,0 on purpose
        let zero = Self.meeting(1, BMLTCoordinate(latitude: 0, longitude: 0))
        let far = Self.meeting(2, BMLTCoordinate(latitude: 52.5, longitude: 13.4))
        let none = Self.meeting(3, nil)
        #expect(zero.distance(from: here) == nil && far.distance(from: here) != nil)
        #expect([zero, none, far].sortedByDistance(from: here).map(\.id) == [2, 1, 3])
        #expect(BMLTCoordinate(latitude: 0, longitude: 0).isNotGeocoded && !BMLTCoordinate(latitude: 0, longitude: 9).isNotGeocoded)
    }

    @Test("a draft given 0,0 where the server had none shows no change")
    func draftZero() throws {
        var draft = Self.meeting(5, nil).editable()
        draft.coordinate = BMLTCoordinate(latitude: 0, longitude: 0)
        #expect(!draft.hasChanges)
        draft.coordinate = BMLTCoordinate(latitude: 52.5, longitude: 13.4)
        #expect(draft.changes.map(\.key) == ["longitude", "latitude"])
    }

    @Test("two copies at 0,0 are not the same place; they still fold by world id")
    func duplicates() {
        var one = Self.meeting(1, BMLTCoordinate(latitude: 0, longitude: 0)), two = Self.meeting(2, BMLTCoordinate(latitude: 0, longitude: 0))
        one.rootServerID = 1; two.rootServerID = 2
        #expect([one, two].deduplicated().count == 2)
        one.worldID = "G00001"; two.worldID = "G00001"
        #expect([one, two].deduplicated().count == 1)
    }

    @Test("TSML has no latitude/longitude and skips a meeting with no other place; iCalendar writes no GEO")
    func exports() throws {
        let zero = Self.meeting(1, BMLTCoordinate(latitude: 0, longitude: 0))
        var addressed = Self.meeting(2, BMLTCoordinate(latitude: 0, longitude: 0))
        addressed.street = "Oranienstraße 12"; addressed.municipality = "Berlin"
        let placed = Self.meeting(3, BMLTCoordinate(latitude: 52.5, longitude: 13.4))
        let tsml = try BMLTExport.tsmlReport([zero, addressed, placed], defaultTimeZone: Self.zone)
        #expect(tsml.exportedIDs == [2, 3] && tsml.skipped.map(\.meetingID) == [1])
        let records = try #require(try JSONSerialization.jsonObject(with: tsml.output) as? [[String: Any]])
        #expect(records[0]["latitude"] == nil && records[1]["latitude"] as? Double == 52.5)
        let start = Date(timeIntervalSince1970: 1_767_225_600)          // 2026-01-01
        let ics = BMLTExport.iCalendarReport([zero, placed], defaultTimeZone: Self.zone, from: start,
                                             to: start.addingTimeInterval(14 * 86_400))
        #expect(ics.output.components(separatedBy: "\r\n").filter { $0.hasPrefix("GEO:") } == ["GEO:52.500000;13.400000"])
    }

    @Test("TSML end_time and iCalendar DTEND of a meeting past midnight agree with endTime")
    func pastMidnightExports() throws {
        var late = Self.meeting(4, BMLTCoordinate(latitude: 52.5, longitude: 13.4))
        late.startTime = BMLTTimeOfDay(hour: 23, minute: 55)
        late.duration = 95 * 60
        #expect(late.endTime == BMLTTimeOfDay(hour: 1, minute: 30) && late.endsNextDay)
        let tsml = try BMLTExport.tsmlReport([late], defaultTimeZone: Self.zone)
        let record = try #require((try JSONSerialization.jsonObject(with: tsml.output) as? [[String: Any]])?.first)
        #expect(record["end_time"] as? String == "01:30" && record["time"] as? String == "23:55")
    }
}
