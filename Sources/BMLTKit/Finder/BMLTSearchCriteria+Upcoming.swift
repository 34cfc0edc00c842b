import Foundation

extension BMLTSearchCriteria {
    /// Criteria for the meetings that start from now until the end of the `days`th calendar day in `timeZone`:
    /// `fromNow(days: Int, _ now: Date = Date(), in timeZone: TimeZone) -> BMLTSearchCriteria` (the date is the
    /// second, unlabelled parameter: `fromNow(days: 2, in: .current)`, or `fromNow(days: 2, someDate, in: zone)`).
    ///
    /// `days` counts calendar days, today first, not rolling 24-hour periods: `days: 1` is the rest of today,
    /// `days: 2` today and tomorrow until midnight. A meeting already in progress at `now` is not included.
    ///
    /// One query cannot say "after now today, any time on the following days", and the server matches each
    /// meeting's weekday in the meeting's own zone: so the criteria ask the server for the weekdays of the window and
    /// one day on each side (all seven days once the window spans a week) and no start time, and carry the window
    /// itself (`window`, from `upcomingWindow(days:_:in:)`): a search with them keeps only the meetings starting in
    /// it, and with `.nearest(n)` gives the n nearest of the window (asking again, wider, when needed).
    /// `connection.upcomingMeetings(days:matching:in:defaultTimeZone:now:)` also pairs each meeting with its
    /// occurrence, soonest first.
    /// ```swift
    /// var criteria = BMLTSearchCriteria.fromNow(days: 2, in: .current)
    /// criteria.location = .nearest(25, latitude: 40.7, longitude: -73.6)
    /// let found = try await connection.meetings(matching: criteria).meetings   // the 25 nearest starting by tomorrow night
    /// ```
    public static func fromNow(days: Int, _ now: Date = Date(), in timeZone: TimeZone) -> BMLTSearchCriteria {
        let window = Window(upcomingWindow(days: days, now, in: timeZone), timeZone: timeZone)
        guard days > 1 else {
            var today = todayFromNow(now, in: timeZone)
            today.window = window
            return today
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var criteria = BMLTSearchCriteria()
        criteria.window = window
        guard days + 2 < 7, let today = calendar.dateComponents([.weekday], from: now).weekday else { return criteria }
        criteria.weekdays = Set((-1...days).compactMap { BMLTWeekday(rawValue: (today - 1 + $0 + 7) % 7 + 1) })
        return criteria
    }

    /// `fromNow(days: 2, …)`: from now until the end of tomorrow in `timeZone`.
    /// ```swift
    /// let criteria = BMLTSearchCriteria.fromNowUntilEndOfTomorrow(in: .current)
    /// ```
    public static func fromNowUntilEndOfTomorrow(_ now: Date = Date(), in timeZone: TimeZone) -> BMLTSearchCriteria {
        fromNow(days: 2, now, in: timeZone)
    }

    /// The window `fromNow(days:_:in:)` asks for: from `now` to the end of the `days`th day (today counts as the
    /// first) in `timeZone`, midnight at its end excluded.
    /// ```swift
    /// let window = BMLTSearchCriteria.upcomingWindow(days: 2, in: TimeZone(identifier: "America/New_York")!)
    /// print(window.start, window.end)             // now … tomorrow 24:00 in New York
    /// ```
    public static func upcomingWindow(days: Int, _ now: Date = Date(), in timeZone: TimeZone) -> DateInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfToday = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: max(1, days), to: startOfToday) ?? now.addingTimeInterval(Double(max(1, days)) * 86_400)
        return DateInterval(start: now, end: max(now, end))
    }
}

extension Sequence where Element == BMLTMeeting {
    /// The meetings with an occurrence that starts in `[start, end)`, each with its first such occurrence,
    /// soonest first (equal starts: original order). Meetings without a time zone are taken in `defaultTimeZone`
    /// (the server's own zone: root servers do not report it, so the caller names it).
    /// ```swift
    /// let window = BMLTSearchCriteria.upcomingWindow(days: 2, in: .current)
    /// for (meeting, occurrence) in found.occurring(from: window.start, to: window.end, defaultTimeZone: .current) {
    ///     print(occurrence.start, meeting.name)
    /// }
    /// ```
    public func occurring(from start: Date, to end: Date, defaultTimeZone: TimeZone) -> [(meeting: BMLTMeeting, occurrence: DateInterval)] {
        let found = enumerated().compactMap { entry -> (offset: Int, meeting: BMLTMeeting, occurrence: DateInterval)? in
            guard let first = entry.element.occurrences(from: start, to: end, defaultTimeZone: defaultTimeZone)
                .first(where: { $0.start >= start }) else { return nil }
            return (entry.offset, entry.element, first)
        }
        return found.sorted { $0.occurrence.start != $1.occurrence.start ? $0.occurrence.start < $1.occurrence.start : $0.offset < $1.offset }
            .map { (meeting: $0.meeting, occurrence: $0.occurrence) }
    }
}
