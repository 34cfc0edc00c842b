import Foundation
import Testing
import BMLTKit

/// Occurrences checked against an independent computation: Python's `zoneinfo` (the IANA database through
/// another implementation), which places a local time in a gap with the offset before the change (02:30 → 03:30
/// when clocks jump at 02:00) and a repeated time at its first instance (`fold=0`) — the rules BMLTKit documents.
@Suite("Meeting occurrences: time zones, DST, midnight")
struct OccurrenceTests {
    struct Case: Codable, CustomStringConvertible {
        var zone: String
        var weekday: Int          // 1 = Sunday
        var hour: Int
        var minute: Int
        var minutes: Int          // duration
        var at: Double            // seconds since 1970 (UTC)
        var description: String { "\(zone) day \(weekday) \(hour):\(minute) for \(minutes) min, at \(Date(timeIntervalSince1970: at))" }
    }

    /// The oracle: for each case, the start (seconds since 1970) of the occurrence in progress at `at` or next to
    /// start, computed with zoneinfo by trying each local day from the day before to eight days after.
    static let oracle = """
    import json, sys
    from datetime import datetime, timedelta, timezone
    from zoneinfo import ZoneInfo
    out = []
    for c in json.load(sys.stdin):
        tz = ZoneInfo(c["zone"]); at = datetime.fromtimestamp(c["at"], timezone.utc)
        local = at.astimezone(tz).date(); best = None
        for offset in range(-2, 10):
            day = local + timedelta(days=offset)
            if (day.weekday() + 1) % 7 + 1 != c["weekday"]: continue
            start = datetime(day.year, day.month, day.day, c["hour"], c["minute"], tzinfo=tz, fold=0).astimezone(timezone.utc)
            if start + timedelta(minutes=c["minutes"]) > at and (best is None or start < best): best = start
        out.append(best.timestamp())
    json.dump(out, sys.stdout)
    """

    static var hasPython: Bool { Python.isInstalled }

    static func expectedStarts(_ cases: [Case]) async throws -> [Double] {
        let output = try #require(await Python.run(oracle, input: try JSONEncoder().encode(cases)), "the zoneinfo oracle ran")
        return try JSONDecoder().decode([Double].self, from: output)
    }

    static func meeting(_ c: Case, ownZone: Bool = true) -> BMLTMeeting {
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 1, name: "m", weekday: BMLTWeekday(rawValue: c.weekday),
                                  startTime: BMLTTimeOfDay(hour: c.hour, minute: c.minute), duration: TimeInterval(c.minutes * 60))
        if ownZone { meeting.timeZone = TimeZone(identifier: c.zone) }
        return meeting
    }

    static func utc(_ text: String) -> Double { ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 }

    /// The hand-picked cases: each DST edge, midnight, and zones with half-hour offsets.
    static let edges: [Case] = [
        // New York springs forward on Sunday 2026-03-08 at 02:00: 02:30 does not exist and is 03:30 EDT (07:30Z).
        Case(zone: "America/New_York", weekday: 1, hour: 2, minute: 30, minutes: 60, at: utc("2026-03-07T12:00:00Z")),
        // ...and falls back on Sunday 2026-11-01: 01:30 happens twice; the first is EDT (05:30Z).
        Case(zone: "America/New_York", weekday: 1, hour: 1, minute: 30, minutes: 60, at: utc("2026-10-31T12:00:00Z")),
        // A Sunday evening meeting right after the change: 19:00 EDT = 23:00Z.
        Case(zone: "America/New_York", weekday: 1, hour: 19, minute: 0, minutes: 60, at: utc("2026-03-08T06:00:00Z")),
        // London springs forward on 2026-03-29 at 01:00: 01:30 is 02:30 BST (01:30Z).
        Case(zone: "Europe/London", weekday: 1, hour: 1, minute: 30, minutes: 60, at: utc("2026-03-28T00:00:00Z")),
        // London falls back on 2026-10-25: 01:15 happens twice; the first is BST (00:15Z).
        Case(zone: "Europe/London", weekday: 1, hour: 1, minute: 15, minutes: 30, at: utc("2026-10-24T22:00:00Z")),
        // Monday 23:30 for 90 minutes is still in progress at 00:30 on Tuesday (New York, EST: 05:30Z).
        Case(zone: "America/New_York", weekday: 2, hour: 23, minute: 30, minutes: 90, at: utc("2026-01-06T05:30:00Z")),
        // Lord Howe moves its clocks by half an hour (2026-10-04 02:00 → 02:30): 02:15 is 02:45.
        Case(zone: "Australia/Lord_Howe", weekday: 1, hour: 2, minute: 15, minutes: 60, at: utc("2026-10-02T00:00:00Z")),
        Case(zone: "Asia/Kolkata", weekday: 7, hour: 18, minute: 45, minutes: 60, at: utc("2026-05-16T12:00:00Z")),
        Case(zone: "Pacific/Auckland", weekday: 4, hour: 7, minute: 0, minutes: 60, at: utc("2026-09-26T20:00:00Z")),
        Case(zone: "Pacific/Kiritimati", weekday: 6, hour: 0, minute: 0, minutes: 60, at: utc("2026-02-19T09:59:00Z")),
    ]

    /// Random cases (fixed seed) over zones with and without DST, around their changes.
    static let random: [Case] = {
        var generator = SplitMix(seed: 0x5EED)
        let zones = ["America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Australia/Sydney",
                     "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Auckland", "America/St_Johns", "UTC"]
        let start = utc("2026-01-01T00:00:00Z")
        return (0..<1_000).map { _ in
            Case(zone: zones[Int(generator.next() % UInt64(zones.count))], weekday: Int(generator.next() % 7) + 1,
                 hour: Int(generator.next() % 24), minute: [0, 15, 30, 45][Int(generator.next() % 4)],
                 minutes: [30, 60, 90, 120, 180][Int(generator.next() % 5)],
                 at: start + Double(generator.next() % (366 * 86_400)))
        }
    }()

    @Test("nextOccurrence matches zoneinfo on DST gaps and repeats, midnight, half-hour zones and 1,000 random cases",
          .enabled(if: hasPython, "python3 is not installed (the independent oracle)"))
    func matchesTheOracle() async throws {
        let cases = Self.edges + Self.random
        let expected = try await Self.expectedStarts(cases)
        #expect(expected.count == cases.count)
        for (c, start) in zip(cases, expected) {
            let occurrence = Self.meeting(c).nextOccurrence(after: Date(timeIntervalSince1970: c.at), defaultTimeZone: .gmt)
            #expect(occurrence?.start.timeIntervalSince1970 == start, "\(c)")
            #expect(occurrence?.duration == TimeInterval(c.minutes * 60))
        }
        // The hand-derived instants of the first cases, so a reader can check the rules without Python.
        #expect(expected[0] == Self.utc("2026-03-08T07:30:00Z"))
        #expect(expected[1] == Self.utc("2026-11-01T05:30:00Z"))
        #expect(expected[3] == Self.utc("2026-03-29T01:30:00Z"))
        #expect(expected[5] == Self.utc("2026-01-06T04:30:00Z"))
        #expect(expected[6] == Self.utc("2026-10-03T15:45:00Z"), "Lord Howe: 02:15 in the half-hour gap is 02:45 (+11:00)")
    }

    @Test("a 23:30 meeting of 90 minutes is in progress at 00:30 the next day and not at 01:00")
    func passesMidnight() {
        let newYork = TimeZone(identifier: "America/New_York")!
        let meeting = BMLTMeeting(id: 1, serviceBodyID: 1, weekday: .monday, startTime: BMLTTimeOfDay(hour: 23, minute: 30), duration: 5400)
        #expect(meeting.isInProgress(at: Date(timeIntervalSince1970: Self.utc("2026-01-06T05:30:00Z")), defaultTimeZone: newYork))
        #expect(!meeting.isInProgress(at: Date(timeIntervalSince1970: Self.utc("2026-01-06T06:00:00Z")), defaultTimeZone: newYork))
        #expect(meeting.isInProgress(at: Date(timeIntervalSince1970: Self.utc("2026-01-06T04:30:00Z")), defaultTimeZone: newYork))
    }

    @Test("the meeting's own zone wins over the default; without one the default is used")
    func ownZoneWins() {
        let c = Case(zone: "Asia/Kolkata", weekday: 2, hour: 19, minute: 0, minutes: 60, at: Self.utc("2026-06-01T00:00:00Z"))
        let at = Date(timeIntervalSince1970: c.at)
        let own = Self.meeting(c).nextOccurrence(after: at, defaultTimeZone: TimeZone(identifier: "America/Chicago")!)
        #expect(own?.start == Date(timeIntervalSince1970: Self.utc("2026-06-01T13:30:00Z")))
        let fallback = Self.meeting(c, ownZone: false).nextOccurrence(after: at, defaultTimeZone: TimeZone(identifier: "America/Chicago")!)
        #expect(fallback?.start == Date(timeIntervalSince1970: Self.utc("2026-06-02T00:00:00Z")))
    }

    @Test("no weekday or no start time: nil, never a guess; no duration: one hour")
    func missingValues() {
        let at = Date(timeIntervalSince1970: Self.utc("2026-06-01T00:00:00Z"))
        #expect(BMLTMeeting(id: 1, serviceBodyID: 1, startTime: BMLTTimeOfDay(hour: 19)).nextOccurrence(after: at, defaultTimeZone: .gmt) == nil)
        #expect(BMLTMeeting(id: 1, serviceBodyID: 1, weekday: .monday).nextOccurrence(after: at, defaultTimeZone: .gmt) == nil)
        #expect(!BMLTMeeting(id: 1, serviceBodyID: 1, weekday: .monday).isInProgress(at: at, defaultTimeZone: .gmt))
        let hour = BMLTMeeting(id: 1, serviceBodyID: 1, weekday: .monday, startTime: BMLTTimeOfDay(hour: 19))
        #expect(hour.nextOccurrence(after: at, defaultTimeZone: .gmt)?.duration == 3600)
    }

    @Test("list helpers: sorted by next occurrence (in progress first), starting within N minutes, in progress, the common zone")
    func listHelpers() {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        // Wednesday 2026-06-03 18:50 in Berlin (16:50Z).
        let now = Date(timeIntervalSince1970: Self.utc("2026-06-03T16:50:00Z"))
        var running = BMLTMeeting(id: 1, serviceBodyID: 1, name: "running", weekday: .wednesday, startTime: BMLTTimeOfDay(hour: 18), duration: 5400)
        running.timeZone = zone
        let soon = BMLTMeeting(id: 2, serviceBodyID: 1, name: "soon", weekday: .wednesday, startTime: BMLTTimeOfDay(hour: 19, minute: 15))
        let tomorrow = BMLTMeeting(id: 3, serviceBodyID: 1, name: "tomorrow", weekday: .thursday, startTime: BMLTTimeOfDay(hour: 7))
        let untimed = BMLTMeeting(id: 4, serviceBodyID: 1, name: "untimed")
        let list = [untimed, tomorrow, soon, running]
        #expect(list.sortedByNextOccurrence(after: now, defaultTimeZone: zone).map(\.id) == [1, 2, 3, 4])
        #expect(list.inProgress(at: now, defaultTimeZone: zone).map(\.id) == [1])
        #expect(list.startingWithin(30 * 60, of: now, defaultTimeZone: zone).map(\.id) == [2])
        #expect(list.startingWithin(20 * 60, of: now, defaultTimeZone: zone).isEmpty)
        #expect(list.mostCommonTimeZone == zone)
        #expect([untimed].mostCommonTimeZone == nil)
        let week = running.occurrences(from: now, to: now.addingTimeInterval(15 * 86_400), defaultTimeZone: zone)
        #expect(week.count == 3 && week[0].start < now && week[1].start.timeIntervalSince(week[0].start) == 7 * 86_400)
    }

    @Test("todayFromNow: today's weekday and the present time in the zone given")
    func todayFromNow() {
        // 2026-06-03T23:30Z is Wednesday 19:30 in New York and Thursday 01:30 in Berlin.
        let now = Date(timeIntervalSince1970: Self.utc("2026-06-03T23:30:00Z"))
        let newYork = BMLTSearchCriteria.todayFromNow(now, in: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.weekdays == [.wednesday] && newYork.startsAfter == BMLTTimeOfDay(hour: 19, minute: 30))
        let berlin = BMLTSearchCriteria.todayFromNow(now, in: TimeZone(identifier: "Europe/Berlin")!)
        #expect(berlin.weekdays == [.thursday] && berlin.startsAfter == BMLTTimeOfDay(hour: 1, minute: 30))
    }
}
