import Foundation

extension BMLTSearchCriteria {
    /// A time window a search keeps its meetings to: only the meetings with an occurrence that *starts* in
    /// `interval` (a meeting already in progress at `interval.start` is not in it). The server cannot filter by
    /// date: BMLTKit keeps the window's meetings of its answer, and a `.nearest(n)` search asks again, wider, until
    /// it holds the n nearest meetings *of the window* (see `BMLTSearchCriteria.window`).
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.location = .nearest(10, latitude: 40.7, longitude: -73.6)
    /// let tonight = DateInterval(start: .now, duration: 4 * 3600)
    /// criteria.window = .init(tonight, timeZone: .current)
    /// let found = try await connection.meetings(matching: criteria).meetings   // the 10 nearest starting in 4 hours
    /// ```
    public struct Window: Sendable, Hashable, Codable {
        /// From its start (included) to its end (excluded).
        public var interval: DateInterval
        /// The zone the window was measured in: the default for meetings that name no zone when
        /// `defaultTimeZone` is `nil` and the answer names none either.
        public var timeZone: TimeZone
        /// The zone of the meetings that name none (root servers do not report their own). `nil`: the zone most of
        /// the answer's meetings name, else `timeZone`.
        public var defaultTimeZone: TimeZone?

        /// A window; meetings that name no zone are taken in `defaultTimeZone` (`nil`: as described there).
        /// ```swift
        /// let window = BMLTSearchCriteria.Window(DateInterval(start: .now, duration: 3600), timeZone: .current)
        /// ```
        public init(_ interval: DateInterval, timeZone: TimeZone, defaultTimeZone: TimeZone? = nil) {
            self.interval = interval
            self.timeZone = timeZone
            self.defaultTimeZone = defaultTimeZone
        }

        /// The zone the meetings of `meetings` that name none are taken in.
        func zone(for meetings: [BMLTMeeting]) -> TimeZone {
            defaultTimeZone ?? meetings.mostCommonTimeZone ?? timeZone
        }

        /// The meetings of `meetings` with an occurrence starting in the window, in their order.
        func keep(_ meetings: [BMLTMeeting]) -> [BMLTMeeting] {
            let zone = zone(for: meetings)
            return meetings.filter { meeting in
                meeting.occurrences(from: interval.start, to: interval.end, defaultTimeZone: zone)
                    .contains { $0.start >= interval.start }
            }
        }
    }
}
