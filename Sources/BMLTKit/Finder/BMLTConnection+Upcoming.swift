import Foundation

extension BMLTConnection {
    /// The meetings from now until the end of the `days`th day (2: today and tomorrow, the finder apps' search),
    /// each with its occurrence, soonest first (see `BMLTSearchCriteria.fromNow(days:_:in:)`). `criteria`
    /// narrows the search (location, formats, service bodies, …; its weekdays, when set, are intersected with the
    /// window's). The window is measured in `timeZone`; meetings that name no zone are taken in
    /// `defaultTimeZone`, the server's own zone (root servers do not report it: by default the zone most of the
    /// answer's meetings name, else `timeZone`). Posts `.bmltMeetingSearchResults` like `meetings(matching:)`
    /// (with the server's whole answer).
    /// ```swift
    /// var near = BMLTSearchCriteria()
    /// near.location = .nearest(25, latitude: 40.7, longitude: -73.6)
    /// for (meeting, occurrence) in try await connection.upcomingMeetings(days: 2, matching: near, in: .current) {
    ///     print(occurrence.start, meeting.name)
    /// }
    /// ```
    public func upcomingMeetings(days: Int = 2, matching criteria: BMLTSearchCriteria = BMLTSearchCriteria(),
                                 in timeZone: TimeZone, defaultTimeZone: TimeZone? = nil,
                                 now: Date = Date()) async throws -> [(meeting: BMLTMeeting, occurrence: DateInterval)] {
        let window = BMLTSearchCriteria.upcomingWindow(days: days, now, in: timeZone)
        let span = BMLTSearchCriteria.fromNow(days: days, now, in: timeZone)
        var narrowed = criteria
        if !span.weekdays.isEmpty {
            narrowed.weekdays = criteria.weekdays.isEmpty ? span.weekdays : criteria.weekdays.intersection(span.weekdays)
            if narrowed.weekdays.isEmpty { return [] }
        }
        if days <= 1, criteria.startsAfter == nil { narrowed.startsAfter = span.startsAfter }
        let meetings = try await self.meetings(matching: narrowed, extent: .meetingsOnly).meetings
        let zone = defaultTimeZone ?? meetings.mostCommonTimeZone ?? timeZone
        return meetings.occurring(from: window.start, to: window.end, defaultTimeZone: zone)
    }
}
