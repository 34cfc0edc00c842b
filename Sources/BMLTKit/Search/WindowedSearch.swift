import Foundation

/// A search whose criteria carry a `window` (`upcomingMeetings`, `fromNow(days:_:in:)`, `criteria.window`).
///
/// The server cannot be asked by date: it answers the criteria's weekdays (the window's and one day each side, for
/// meetings in other zones), and BMLTKit keeps the meetings with an occurrence starting in the window. With
/// `.nearest(n)` the server picks its n nearest on those weekdays, and the window may drop many of them (on the
/// sample data, 5 of the 10 nearest for "today and tomorrow" on a Sunday evening). So a nearest search asks again
/// with a larger count until the window holds n, inside the one search operation (so `meetings(matching:)`,
/// `meetingBatches(matching:)`, `searchMeetings(_:extent:)` and anything built on them get it):
/// - round 1 asks the n nearest; a round that keeps k of the r meetings it got asks next for about
///   `n × r / k × 1.5` (the window's share seen so far, with room to spare), at least twice the last count, at most
///   `maximumCount` (8 × the last count when the window kept none). On the sample data "the 10 nearest, today and
///   tomorrow" takes 2 requests (10, of which 5 kept; then 30: 2 requests is the least a window that drops half
///   the server's answer allows, and 1.5 × the estimate makes a third rare);
/// - it stops when the window holds n (the n nearest of those are returned), when the server answered fewer than
///   asked (it has no more: fewer than n, every one of the window), or after `maximumRounds` requests or at
///   `maximumCount` (fewer than n; the log says why at `.errors`). Never a loop.
/// Each round's answer is complete up to its farthest meeting, so the n nearest of the window in a round's answer are
/// the n nearest of the window on the server.
///
/// A window that lies within one day in every zone the server's meetings are read in is first narrowed by the server
/// itself (`WindowFilter`: that weekday and a start-time range, after one `GetFieldValues` of `time_zone`): the
/// rounds then ask among (about) the window's meetings only, and one search is usually enough — "the 10 nearest in
/// the next hour" at 3 a.m. is one search of nothing instead of rounds of 10, 80, 640 and 2,000 meetings. Windows
/// that cross midnight in one of those zones, or whose meetings' zones are not known for sure, search as above.
enum WindowedSearch {
    /// The most requests one windowed nearest search sends.
    static let maximumRounds = 4
    /// The largest count a round asks for (a nearest search of thousands is a full download).
    static let maximumCount = 2_000

    /// `timeZones` asks the server which zones its meetings name (`GetFieldValues` of `time_zone`), for the server's
    /// own filter (`WindowFilter`); `serverInfo` says which server it is (`nil`: not known).
    static func run(_ criteria: BMLTSearchCriteria, window: BMLTSearchCriteria.Window, log: RequestLog,
                    serverInfo: BMLTServerInfo? = nil,
                    timeZones: (@Sendable () async throws(BMLTError) -> [BMLTFieldValue])? = nil,
                    round: @Sendable (BMLTSearchCriteria) async throws(BMLTError) -> BMLTSearchResults) async throws(BMLTError) -> BMLTSearchResults {
        guard let location = criteria.location, case .nearest(let wanted) = location.radius else {
            let results = try await round(criteria)
            return NearestTrim.restrict(results, to: window.keep(results.meetings))
        }
        guard wanted > 0 else {
            throw .invalidArgument(.nearestNoneInWindow(wanted))
        }
        var base = criteria
        if let timeZones, let narrowed = try await filtered(criteria, window, log: log, serverInfo: serverInfo, timeZones: timeZones) {
            base = narrowed
        }
        var count = wanted
        var attempt = 0
        while true {
            attempt += 1
            var asked = base
            asked.location?.radius = .nearest(count)
            let answer = try await round(asked)
            let kept = NearestTrim.restrict(answer, to: window.keep(answer.meetings))
            if kept.meetings.count >= wanted { return NearestTrim.apply(kept, criteria) }
            let why: String
            if answer.meetings.count < count {
                why = "the server has no more meetings for these criteria (\(answer.meetings.count) for \(count) asked)"
            } else if attempt == maximumRounds || count >= maximumCount {
                why = "stopped after \(attempt) requests (the \(count) nearest held \(kept.meetings.count) of the window)"
            } else {
                if Task.isCancelled { throw .cancelled }
                let share = Double(kept.meetings.count) / Double(max(1, answer.meetings.count))
                let estimate = share > 0 ? Int((Double(wanted) / share * 1.5).rounded(.up)) : count * 8
                count = min(maximumCount, max(count * 2, estimate))
                continue
            }
            log.warning("the \(wanted) nearest meetings in the time window: found \(kept.meetings.count); \(why)")
            return kept
        }
    }

    /// `criteria` with the server's own filter for `window` (see `WindowFilter`), or `nil` when it may not keep every
    /// meeting of the window (the rounds then ask as before). The zones are asked only for a window that lies within
    /// one day in its own zone; a failure to get them (other than a cancellation) falls back to the rounds.
    private static func filtered(_ criteria: BMLTSearchCriteria, _ window: BMLTSearchCriteria.Window, log: RequestLog,
                                 serverInfo: BMLTServerInfo?,
                                 timeZones: @Sendable () async throws(BMLTError) -> [BMLTFieldValue]) async throws(BMLTError) -> BMLTSearchCriteria? {
        let strict = (serverInfo?.versionInt ?? 0) < 3_000_000
        guard WindowFilter.applies(to: criteria, serverInfo: serverInfo),
              let own = WindowFilter.make(window, zones: [window.defaultTimeZone ?? window.timeZone], strictServer: strict),
              own.narrowing(criteria) != nil else { return nil }
        let values: [BMLTFieldValue]
        do {
            values = try await timeZones()
        } catch .cancelled {
            throw .cancelled
        } catch {
            log.warning("the meetings' time zones could not be read (\(error)); the time window is searched without the server's filter")
            return nil
        }
        guard let zones = WindowFilter.zones(values, window: window) else { return nil }
        return WindowFilter.make(window, zones: zones, strictServer: strict)?.narrowing(criteria)
    }
}
