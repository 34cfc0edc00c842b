import Foundation
import Testing
@testable import BMLTKit

/// `[BMLTMeeting].deduplicated()`: the same meeting listed by several root servers of an aggregator, once.
@Suite("Aggregators: folding duplicates")
struct DeduplicationTests {
    static func meeting(_ id: Int, root: Int?, name: String = "Recovery Is The Point", day: BMLTWeekday? = .tuesday,
                        start: BMLTTimeOfDay? = BMLTTimeOfDay(hour: 19), at coordinate: BMLTCoordinate? = nil,
                        world: String? = nil, link: String? = nil) -> BMLTMeeting {
        var meeting = BMLTMeeting(id: id, serviceBodyID: 1, name: name, weekday: day, startTime: start)
        meeting.rootServerID = root
        meeting.coordinate = coordinate
        meeting.worldID = world
        meeting.virtualMeetingLink = link
        return meeting
    }

    static let church = BMLTCoordinate(latitude: 40.7200, longitude: -73.9500)
    static let fiftyMetresAway = BMLTCoordinate(latitude: 40.72045, longitude: -73.9500)
    static let oneKilometreAway = BMLTCoordinate(latitude: 40.7290, longitude: -73.9500)

    @Test("copies from other root servers fold into the first, which keeps the folded ids in order")
    func foldsCopies() {
        let list = [Self.meeting(10, root: 3, at: Self.church), Self.meeting(20, root: 2, at: Self.fiftyMetresAway),
                    Self.meeting(30, root: 1, at: Self.church)]
        let folded = list.deduplicated()
        #expect(folded.map(\.id) == [10])
        #expect(folded.first?.foldedMeetingIDs == [20, 30])
    }

    @Test("the same root server, another place, day, time or name: not the same meeting")
    func keepsDistinct() {
        let base = Self.meeting(1, root: 1, at: Self.church)
        #expect([base, Self.meeting(2, root: 1, at: Self.church)].deduplicated().count == 2)
        #expect([base, Self.meeting(2, root: 2, at: Self.oneKilometreAway)].deduplicated().count == 2)
        #expect([base, Self.meeting(2, root: 2, day: .wednesday, at: Self.church)].deduplicated().count == 2)
        #expect([base, Self.meeting(2, root: 2, start: BMLTTimeOfDay(hour: 20), at: Self.church)].deduplicated().count == 2)
        #expect([base, Self.meeting(2, root: 2, name: "Just For Today", at: Self.church)].deduplicated().count == 2)
        #expect([Self.meeting(1, root: 1, name: ""), Self.meeting(2, root: 2, name: "")].deduplicated().count == 2)
        #expect([Self.meeting(1, root: 1), Self.meeting(2, root: 2)].deduplicated().count == 2, "no place to compare")
    }

    @Test("world ids decide when both have one; name case and spacing do not matter; a virtual link is a place")
    func worldIDsAndLinks() {
        let renamed = [Self.meeting(1, root: 1, name: "A", world: "G00324490"), Self.meeting(2, root: 2, name: "B", world: " g00324490 ")]
        #expect(renamed.deduplicated().map(\.foldedMeetingIDs) == [[2]])
        let differentWorld = [Self.meeting(1, root: 1, at: Self.church, world: "G1"), Self.meeting(2, root: 2, at: Self.church, world: "G2")]
        #expect(differentWorld.deduplicated().count == 2)
        let online = [Self.meeting(1, root: 1, link: "https://zoom.us/j/1"),
                      Self.meeting(2, root: 2, name: "recovery  is the POINT", link: "https://ZOOM.us/j/1 ")]
        #expect(online.deduplicated().map(\.id) == [1])
    }

    @Test("deterministic: the same list folds the same way, and an already folded list is unchanged")
    func deterministic() {
        let list = (0..<30).map { Self.meeting($0, root: $0 % 3 + 1, name: "M\($0 / 3)", at: Self.church) }
        let once = list.deduplicated()
        #expect(once == list.deduplicated())
        #expect(once.count == 10)
        #expect(once.deduplicated() == once)
        #expect(once.map(\.foldedMeetingIDs) == (0..<10).map { [$0 * 3 + 1, $0 * 3 + 2] })
    }

    @Test("the real nearest-6 search folds to its 2 distinct meetings; one meeting from 3 root servers folds to 1",
          .needsCorpus)
    func realCaptures() throws {
        let nearest = try BMLTSearchResults(jsonData: FixtureCorpus.data("aggregator-4x", "17-GetSearchResults-geo-nearest-6.json"))
        #expect(nearest.meetings.count == 6)
        #expect(Set(nearest.meetings.compactMap(\.rootServerID)) == [1, 2, 3])
        let folded = nearest.meetings.deduplicated()
        #expect(folded.map(\.name) == ["Recovery Is The Point", "Alive in Williamsburg"])
        #expect(folded.map(\.foldedMeetingIDs) == [[2910, 1395], [2737, 1258]])

        let one = try BMLTSearchResults(jsonData: FixtureCorpus.data("aggregator-4x", "11-GetSearchResults-meeting_ids-one-meeting-3-roots.json"))
        #expect(one.meetings.count == 3)
        #expect(one.meetings.deduplicated().map(\.id) == [one.meetings[0].id])

        let area = try BMLTSearchResults(jsonData: FixtureCorpus.data("aggregator-4x", "07-GetSearchResults-services-3-roots-weekday.json"))
        #expect(area.meetings.count == 15)
        #expect(area.meetings.deduplicated().count == 5)
    }
}
