import Foundation

extension BMLTConnection {
    /// The meetings that start from now until the end of the `days`th calendar day, each with that occurrence, soonest
    /// first. The full signature: `upcomingMeetings(days: Int = 2, matching: BMLTSearchCriteria = .init(), in:
    /// TimeZone, defaultTimeZone: TimeZone? = nil, now: Date = Date()) async throws -> [(meeting: BMLTMeeting,
    /// occurrence: DateInterval)]`.
    ///
    /// - `days` counts calendar days in `timeZone`, today first (not rolling 24-hour periods): `days: 1` is the rest
    ///   of today, `days: 2` today and tomorrow until midnight (the finder apps' search). A meeting already in progress
    ///   at `now` is not included (its occurrence started before the window); see `inProgress(at:defaultTimeZone:)`.
    /// - `criteria` narrows the search (location, formats, service bodies, …; its weekdays, when set, are intersected
    ///   with the window's). With `.nearest(n)` the result is the n nearest meetings *in the window* whenever the
    ///   server has that many (BMLTKit asks again with a larger count when the first answer held fewer: usually 1 or
    ///   2 searches, never more than 4; for `days: 1`, usually one, filtered by the server: see `criteria.window`);
    ///   fewer only when the server has fewer (the log says why).
    /// - Meetings that name no zone are taken in `defaultTimeZone`, the server's own zone (root servers do not report
    ///   it: by default the zone most of the answer's meetings name, else `timeZone`).
    /// - Posts `.bmltMeetingSearchResults` like `meetings(matching:)`, with the window's meetings.
    /// ```swift
    /// var near = BMLTSearchCriteria()
    /// near.location = .nearest(25, latitude: 40.7, longitude: -73.6)
    /// let zone = TimeZone(identifier: "America/New_York")!
    /// for (meeting, occurrence) in try await connection.upcomingMeetings(days: 2, matching: near, in: zone) {
    ///     print(occurrence.start, meeting.name)                      // exactly 25 when the server has 25
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
        narrowed.window = .init(window, timeZone: timeZone, defaultTimeZone: defaultTimeZone)
        let meetings = try await self.meetings(matching: narrowed, extent: .meetingsOnly).meetings
        let zone = narrowed.window?.zone(for: meetings) ?? timeZone
        return meetings.occurring(from: window.start, to: window.end, defaultTimeZone: zone)
    }
}
