import Foundation

/// When a weekly meeting happens seen from a time zone: the weekday and start time on that zone's clocks.
/// ```swift
/// if let slot = meeting.weeklySlot(in: .current, defaultTimeZone: .current) {
///     print(slot)   // Wednesday 01:00
/// }
/// ```
public struct BMLTWeeklySlot: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The weekday on the zone's clocks (a meeting late in the evening elsewhere may fall on the next day here).
    /// ```swift
    /// print(slot.weekday.name)
    /// ```
    public var weekday: BMLTWeekday
    /// The start time on the zone's clocks.
    /// ```swift
    /// print(slot.startTime)   // 01:00:00
    /// ```
    public var startTime: BMLTTimeOfDay
    /// The zone the slot is seen from.
    /// ```swift
    /// print(slot.timeZone.identifier)
    /// ```
    public var timeZone: TimeZone
    /// How many days the weekday moved from the meeting's own: `-1`, `0` or `+1` (rolled over midnight).
    /// ```swift
    /// if slot.dayShift != 0 { print("(the day differs from the meeting's own)") }
    /// ```
    public var dayShift: Int

    /// A slot.
    /// ```swift
    /// let slot = BMLTWeeklySlot(weekday: .monday, startTime: .init(hour: 19), timeZone: .current)
    /// ```
    public init(weekday: BMLTWeekday, startTime: BMLTTimeOfDay, timeZone: TimeZone, dayShift: Int = 0) {
        self.weekday = weekday
        self.startTime = startTime
        self.timeZone = timeZone
        self.dayShift = dayShift
    }

    /// "Wednesday 01:00" (seconds only when not zero).
    /// ```swift
    /// print(slot.description)
    /// ```
    public var description: String {
        let clock = startTime.description
        return weekday.name + " " + (startTime.second == 0 ? String(clock.prefix(5)) : clock)
    }
}

extension BMLTMeeting {
    /// The meeting's weekday and start time seen from `zone`, this week: as
    /// ``weeklySlot(in:defaultTimeZone:weekOf:)`` for now.
    /// ```swift
    /// let slot = meeting.weeklySlot(in: TimeZone(identifier: "Europe/London")!, defaultTimeZone: .current)
    /// ```
    public func weeklySlot(in zone: TimeZone, defaultTimeZone: TimeZone) -> BMLTWeeklySlot? {
        weeklySlot(in: zone, defaultTimeZone: defaultTimeZone, weekOf: Date())
    }

    /// The meeting's weekday and start time seen from `zone`, for the occurrence
    /// `nextOccurrence(after: date, defaultTimeZone:)` gives (the one in progress at `date`, else the next): the
    /// same reading of the meeting's own zone (else `defaultTimeZone`) and the same daylight-saving rule, then that
    /// instant on `zone`'s clocks. The weekday rolls over midnight: a Tuesday 19:00 meeting in New York is Wednesday
    /// 00:00 in London. Offsets change with daylight saving, and not on the same dates everywhere, so the answer is
    /// for one week. `nil` when the weekday or start time is missing.
    /// ```swift
    /// let london = TimeZone(identifier: "Europe/London")!
    /// let slot = meeting.weeklySlot(in: london, defaultTimeZone: .current, weekOf: .now)
    /// ```
    public func weeklySlot(in zone: TimeZone, defaultTimeZone: TimeZone, weekOf date: Date) -> BMLTWeeklySlot? {
        guard let weekday, let occurrence = nextOccurrence(after: date, defaultTimeZone: defaultTimeZone) else { return nil }
        let start = occurrence.start
        let local = start.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: start))
        let day = Int((local / 86_400).rounded(.down))
        let seconds = Int((local - Double(day) * 86_400).rounded(.down))
        guard let shown = BMLTWeekday(rawValue: WallClock.weekday(ofDay: day)) else { return nil }
        var shift = (shown.rawValue - weekday.rawValue + 7) % 7
        if shift > 3 { shift -= 7 }
        return BMLTWeeklySlot(weekday: shown, startTime: BMLTTimeOfDay(hour: 0, minute: 0, second: seconds),
                              timeZone: zone, dayShift: shift)
    }
}
