import Foundation

extension BMLTMeeting {
    /// When the meeting ends (start + duration) on a 24-hour clock, if both are known. A meeting that runs past
    /// midnight ends the next day: 23:55 for 1 h 35 min gives `01:30:00` with `endsNextDay` `true` (and
    /// `endDayOffset` 1); one that ends exactly at midnight gives `00:00:00` the next day. The time is never
    /// clamped to 24:00.
    /// ```swift
    /// if let end = meeting.endTime {
    ///     print("until \(end)" + (meeting.endsNextDay ? " (next day)" : ""))
    /// }
    /// ```
    public var endTime: BMLTTimeOfDay? {
        guard let end = endSeconds else { return nil }
        return BMLTTimeOfDay(hour: 0, minute: 0, second: end % 86_400)
    }

    /// How many days after the meeting's `weekday` it ends: 0 the same day, 1 when it runs past midnight (more
    /// only for a duration over a day); `nil` without a start time or a duration.
    /// ```swift
    /// let endDay = meeting.weekday.map { ($0.rawValue - 1 + (meeting.endDayOffset ?? 0)) % 7 + 1 }
    /// ```
    public var endDayOffset: Int? {
        endSeconds.map { $0 / 86_400 }
    }

    /// Whether the meeting ends on a later day than it starts (`endTime` is then on that day); `false` when it
    /// ends the same day or the start or duration is unknown.
    /// ```swift
    /// let label = meeting.endsNextDay ? "ends tomorrow at \(meeting.endTime!)" : "ends at \(meeting.endTime!)"
    /// ```
    public var endsNextDay: Bool { (endDayOffset ?? 0) > 0 }

    /// Seconds from the start day's midnight to the end.
    private var endSeconds: Int? {
        guard let startTime, let duration, duration.isFinite else { return nil }
        return startTime.secondsSinceMidnight + Int(max(0, min(duration, 366 * 86_400)).rounded(.down))
    }
}
