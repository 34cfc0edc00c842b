import Foundation
import Testing
@testable import BMLTKit

/// The server's own filter for a time window (`WindowFilter`): only for a window within one day of one weekday, with
/// no daylight-saving change, in every zone its meetings are read in; a minute wider at its start (`StartsAfter` is
/// strict on every server version), no bound at midnight, no early `StartsAfter` for 2.16.6's `mktime`.
@Suite("The server's own filter for a time window")
struct WindowFilterTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let chicago = TimeZone(identifier: "America/Chicago")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// Monday 2026-06-08 00:00 in New York.
    static let monday = Date(timeIntervalSince1970: 1_780_891_200)

    static func window(from hours: Double, to end: Double, zone: TimeZone = newYork, defaultTimeZone: TimeZone? = nil) -> BMLTSearchCriteria.Window {
        .init(DateInterval(start: monday.addingTimeInterval(hours * 3600), end: monday.addingTimeInterval(end * 3600)),
              timeZone: zone, defaultTimeZone: defaultTimeZone)
    }

    @Test("within one day: the weekday, a minute before the start, the end; none at midnight or before 00:01")
    func withinOneDay() throws {
        let evening = try #require(WindowFilter.make(Self.window(from: 18.5, to: 19.5), zones: [Self.newYork], strictServer: false))
        #expect(evening == WindowFilter(weekday: .monday, startsAfter: .init(hour: 18, minute: 29), startsBefore: .init(hour: 19, minute: 30)))
        let late = try #require(WindowFilter.make(Self.window(from: 22, to: 24), zones: [Self.newYork], strictServer: false))
        #expect(late.startsAfter == .init(hour: 21, minute: 59) && late.startsBefore == nil)
        let early = try #require(WindowFilter.make(Self.window(from: 0, to: 1), zones: [Self.newYork], strictServer: false))
        #expect(early.startsAfter == nil && early.startsBefore == .init(hour: 1))
        // Seconds: the start rounded down, the end up.
        let odd = try #require(WindowFilter.make(Self.window(from: 3 + 30.0 / 3600, to: 4 + 30.0 / 3600), zones: [Self.newYork], strictServer: false))
        #expect(odd.startsAfter == .init(hour: 2, minute: 59) && odd.startsBefore == .init(hour: 4, minute: 1))
    }

    @Test("2.16.6 (or an unknown version): no StartsAfter before 04:00, where mktime could move it through a DST gap")
    func strictServer() throws {
        let three = try #require(WindowFilter.make(Self.window(from: 3, to: 4), zones: [Self.newYork], strictServer: true))
        #expect(three.startsAfter == nil && three.startsBefore == .init(hour: 4))
        let evening = try #require(WindowFilter.make(Self.window(from: 18.5, to: 19.5), zones: [Self.newYork], strictServer: true))
        #expect(evening.startsAfter == .init(hour: 18, minute: 29))
    }

    @Test("none across midnight, across a daylight-saving change, or when the zones see other weekdays")
    func noFilter() {
        #expect(WindowFilter.make(Self.window(from: 23, to: 25), zones: [Self.newYork], strictServer: false) == nil)
        // New York's evening is Tokyo's next morning: another weekday.
        #expect(WindowFilter.make(Self.window(from: 18, to: 19), zones: [Self.newYork, Self.tokyo], strictServer: false) == nil)
        // 2026-11-01, New York's clocks go back: no filter that day.
        let fallBack = Date(timeIntervalSince1970: 1_793_505_600)   // 2026-11-01 00:00 EDT
        let window = BMLTSearchCriteria.Window(DateInterval(start: fallBack.addingTimeInterval(18 * 3600), duration: 3600), timeZone: Self.newYork)
        #expect(WindowFilter.make(window, zones: [Self.newYork], strictServer: false) == nil)
        // Two zones on the same day: the span of both clocks.
        let both = WindowFilter.make(Self.window(from: 19, to: 20), zones: [Self.newYork, Self.chicago], strictServer: false)
        #expect(both == WindowFilter(weekday: .monday, startsAfter: .init(hour: 17, minute: 59), startsBefore: .init(hour: 20)))
    }

    @Test("the zones: named ones, the default for unnamed; mixed with no default: none (the answer would pick it)")
    func zones() {
        let unnamed = BMLTFieldValue(value: nil, meetingIDs: [1, 2])
        let named = BMLTFieldValue(value: "America/Chicago", meetingIDs: [3])
        let bogus = BMLTFieldValue(value: "Mars/Olympus", meetingIDs: [4])
        #expect(WindowFilter.zones([unnamed], window: Self.window(from: 1, to: 2)) == [Self.newYork])
        #expect(WindowFilter.zones([named], window: Self.window(from: 1, to: 2)) == [Self.chicago])
        #expect(WindowFilter.zones([named, unnamed], window: Self.window(from: 1, to: 2)) == nil)
        #expect(WindowFilter.zones([named, bogus], window: Self.window(from: 1, to: 2)) == nil)
        #expect(WindowFilter.zones([named, unnamed], window: Self.window(from: 1, to: 2, defaultTimeZone: Self.newYork)) == [Self.chicago, Self.newYork])
    }

    @Test("narrowing keeps the app's own bounds and weekdays; a weekday the app leaves out: no filter")
    func narrowing() {
        let filter = WindowFilter(weekday: .monday, startsAfter: .init(hour: 18, minute: 29), startsBefore: .init(hour: 19, minute: 30))
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.sunday, .monday, .tuesday]
        criteria.startsAfter = .init(hour: 19)
        let narrowed = filter.narrowing(criteria)
        #expect(narrowed?.weekdays == [.monday] && narrowed?.startsAfter == .init(hour: 19) && narrowed?.startsBefore == .init(hour: 19, minute: 30))
        criteria.weekdays = [.tuesday]
        #expect(filter.narrowing(criteria) == nil)
        criteria.weekdays = []
        criteria.excludedWeekdays = [.monday]
        #expect(filter.narrowing(criteria) == nil)
    }
}
