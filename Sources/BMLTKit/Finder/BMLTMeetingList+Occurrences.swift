import Foundation

extension Sequence where Element == BMLTMeeting {
    /// The meetings in the order they next take place (one in progress first, by its start), each with that
    /// occurrence; meetings without a weekday or start time come last, in their original order.
    /// ```swift
    /// for (meeting, occurrence) in results.meetings.byNextOccurrence(after: .now, defaultTimeZone: .current) {
    ///     print(occurrence?.start ?? "no time", meeting.name)
    /// }
    /// ```
    public func byNextOccurrence(after date: Date, defaultTimeZone: TimeZone) -> [(meeting: BMLTMeeting, occurrence: DateInterval?)] {
        let timed = enumerated().map { (offset: $0.offset, meeting: $0.element,
                                        occurrence: $0.element.nextOccurrence(after: date, defaultTimeZone: defaultTimeZone)) }
        return timed.sorted { lhs, rhs in
            switch (lhs.occurrence, rhs.occurrence) {
            case let (left?, right?): return left.start != right.start ? left.start < right.start : lhs.offset < rhs.offset
            case (.some, .none): return true
            case (.none, .some): return false
            case (.none, .none): return lhs.offset < rhs.offset
            }
        }.map { (meeting: $0.meeting, occurrence: $0.occurrence) }
    }

    /// The meetings sorted by their next occurrence (see `byNextOccurrence(after:defaultTimeZone:)`).
    /// ```swift
    /// let upcoming = results.meetings.sortedByNextOccurrence(after: .now, defaultTimeZone: .current)
    /// ```
    public func sortedByNextOccurrence(after date: Date, defaultTimeZone: TimeZone) -> [BMLTMeeting] {
        byNextOccurrence(after: date, defaultTimeZone: defaultTimeZone).map(\.meeting)
    }

    /// The meetings going on at `date`.
    /// ```swift
    /// let now = results.meetings.inProgress(at: .now, defaultTimeZone: .current)
    /// ```
    public func inProgress(at date: Date, defaultTimeZone: TimeZone) -> [BMLTMeeting] {
        filter { $0.isInProgress(at: date, defaultTimeZone: defaultTimeZone) }
    }

    /// The meetings that start within `interval` seconds after `date` (from `date` inclusive), soonest first;
    /// meetings already in progress are not among them.
    /// ```swift
    /// let soon = results.meetings.startingWithin(30 * 60, of: .now, defaultTimeZone: .current)
    /// ```
    public func startingWithin(_ interval: TimeInterval, of date: Date, defaultTimeZone: TimeZone) -> [BMLTMeeting] {
        byNextOccurrence(after: date, defaultTimeZone: defaultTimeZone).filter { entry in
            guard let start = entry.occurrence?.start else { return false }
            return start >= date && start <= date.addingTimeInterval(interval)
        }.map(\.meeting)
    }

    /// The time zone named by most of these meetings (ties: the name first in alphabetical order), or `nil` when
    /// none names one: a default for the meetings that have none.
    /// ```swift
    /// let zone = results.meetings.mostCommonTimeZone ?? .current
    /// ```
    public var mostCommonTimeZone: TimeZone? {
        var counts: [String: (zone: TimeZone, count: Int)] = [:]
        for meeting in self {
            guard let zone = meeting.timeZone else { continue }
            counts[zone.identifier, default: (zone, 0)].count += 1
        }
        return counts.max { lhs, rhs in
            lhs.value.count != rhs.value.count ? lhs.value.count < rhs.value.count : lhs.key > rhs.key
        }?.value.zone
    }
}

extension BMLTSearchCriteria {
    /// Criteria for the meetings still to start today: today's weekday and a start after the present time, both in
    /// `timeZone` (the zone the meetings' times are written in: the server matches its meetings' own local weekday
    /// and time). Narrow it further like any criteria.
    /// ```swift
    /// var criteria = BMLTSearchCriteria.todayFromNow(in: .current)
    /// criteria.serviceBodyIDs = [1002]
    /// let later = try await connection.meetings(matching: criteria)
    /// ```
    public static func todayFromNow(_ now: Date = Date(), in timeZone: TimeZone) -> BMLTSearchCriteria {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: now)
        var criteria = BMLTSearchCriteria()
        if let weekday = parts.weekday.flatMap(BMLTWeekday.init(rawValue:)) { criteria.weekdays = [weekday] }
        criteria.startsAfter = BMLTTimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
        return criteria
    }
}
