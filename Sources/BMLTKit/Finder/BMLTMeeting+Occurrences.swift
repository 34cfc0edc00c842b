import Foundation

/// The length assumed for a meeting the server gives no duration (the server's own default, 1 hour).
let defaultMeetingDuration: TimeInterval = 3600

extension BMLTMeeting {
    /// The time zone the meeting's weekday and start time are in: its own `timeZone` when it has one, else
    /// `defaultTimeZone`.
    ///
    /// Many meetings have no `time_zone` (the field is optional on every server generation), and no server
    /// generation reports a default zone (not 2.x or 3.x `GetServerInfo`, nor 4.x's `/settings`). A sensible default
    /// is the zone most of the server's other meetings name (`meetings.mostCommonTimeZone`), else the zone of the
    /// area the app serves, else the device's `TimeZone.current`.
    /// ```swift
    /// let zone = meeting.effectiveTimeZone(default: meetings.mostCommonTimeZone ?? .current)
    /// ```
    public func effectiveTimeZone(default defaultTimeZone: TimeZone) -> TimeZone {
        timeZone ?? defaultTimeZone
    }

    /// The meeting's occurrence that is in progress at `date`, or else the next one to start, in absolute
    /// time; `nil` when the weekday or the start time is missing (never a guess).
    ///
    /// The weekday and start time are read in the meeting's own time zone, else in `defaultTimeZone` (see
    /// `effectiveTimeZone(default:)`). A meeting without a duration lasts one hour (the server's default).
    /// Across daylight-saving changes the local time is kept. A start time that does not exist that day (02:30
    /// when clocks jump from 02:00 to 03:00) moves forward by the length of the gap, to 03:30 — what Foundation's
    /// `Calendar.MatchingPolicy.nextTimePreservingSmallerComponents` describes and RFC 5545 §3.3.5 prescribes (the
    /// UTC offset before the gap); a start time that happens twice (01:30 when clocks fall back) is its first
    /// instance. A meeting that passes midnight (23:30 for 90 minutes) is in
    /// progress until 01:00 the next day.
    /// ```swift
    /// if let next = meeting.nextOccurrence(after: .now, defaultTimeZone: .current) {
    ///     print(meeting.name, next.start.formatted(date: .abbreviated, time: .shortened))
    /// }
    /// ```
    public func nextOccurrence(after date: Date, defaultTimeZone: TimeZone) -> DateInterval? {
        guard let weekday, let startTime else { return nil }
        let length = occurrenceLength
        let clock = WallClock(zone: effectiveTimeZone(default: defaultTimeZone))
        // From the local day one meeting-length back (the occurrence still in progress) to eight days on.
        let first = clock.localDay(of: date.addingTimeInterval(-length)) - 1
        for day in first...(first + 9) where WallClock.weekday(ofDay: day) == weekday.rawValue {
            let start = clock.instant(day: day, secondsIntoDay: startTime.secondsSinceMidnight)
            if start.addingTimeInterval(length) > date { return DateInterval(start: start, duration: length) }
        }
        return nil
    }

    /// Whether the meeting is going on at `date` (from its start, inclusive, to its end, exclusive); `false`
    /// when the weekday or start time is missing. Time zones as in `nextOccurrence(after:defaultTimeZone:)`.
    /// ```swift
    /// let now = meetings.filter { $0.isInProgress(at: .now, defaultTimeZone: .current) }
    /// ```
    public func isInProgress(at date: Date, defaultTimeZone: TimeZone) -> Bool {
        guard let occurrence = nextOccurrence(after: date, defaultTimeZone: defaultTimeZone) else { return false }
        return occurrence.start <= date && date < occurrence.end
    }

    /// Every occurrence that overlaps `from ..< to`, in order (for a calendar or a week view); empty when the
    /// weekday or start time is missing.
    /// ```swift
    /// let week = meeting.occurrences(from: .now, to: .now.addingTimeInterval(7 * 86_400), defaultTimeZone: .current)
    /// ```
    public func occurrences(from start: Date, to end: Date, defaultTimeZone: TimeZone) -> [DateInterval] {
        var result: [DateInterval] = []
        var cursor = start
        while cursor < end, let next = nextOccurrence(after: cursor, defaultTimeZone: defaultTimeZone), next.start < end {
            result.append(next)
            // The next one starts at least six days later; stepping past this one's end finds it.
            cursor = max(next.end, next.start.addingTimeInterval(1))
        }
        return result
    }

    /// The length of one occurrence: the duration, or an hour when the server gave none (or an impossible one).
    var occurrenceLength: TimeInterval {
        guard let duration, duration > 0, duration < 24 * 3600 else { return defaultMeetingDuration }
        return duration
    }

}
