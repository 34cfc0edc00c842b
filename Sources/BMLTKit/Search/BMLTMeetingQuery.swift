import Foundation
import Observation

/// One view's meeting search: its own meetings, loading state and error, beside any number of other queries on the
/// same connection.
///
/// A map and a list, a widget, a detail screen: each makes its own query from the one connection. A query holds the
/// meetings of its own refreshes, and nothing else changes them:
/// - **A failed refresh never leaves a half list.** `meetings` is what to show. The first time, it fills while the
///   meetings arrive (as `meetingBatches(matching:)` gives them), then holds all of them. Once a refresh has
///   succeeded (or, under `.cacheThenNetwork`, the cache has given its list), `meetings` stays as it is while the
///   next refresh runs and is replaced whole only when that refresh succeeds: a pull-to-refresh that fails or is
///   cancelled leaves the previous list, with `lastError` saying why. The running refresh's own meetings, as they
///   arrive, are in ``meetingsSoFar``.
/// - **The cached list first.** Under `.cacheThenNetwork` the cache's answer for the criteria is in `meetings` at
///   once (``isFromCache`` is `true`), then the server's list replaces it whole when it has arrived; offline, the
///   cached list stays, with the network's error in `lastError`.
/// - **Shared connection, separate results.** Every query's search is a request of the connection like any other:
///   it is in `inFlightRequests`, counts in the one progress pair (`.bmltProgressDidStart`/`DidStop`), and posts the
///   same notifications with its request (`.bmltMeetingsArrived`, `.bmltMeetingSearchResults`, or `.bmltError` /
///   `.bmltRequestCancelled`; compare with ``request``). No query cancels, overwrites or waits for another, and none
///   touches the connection's stores: `connection.search` stays the classic pattern's (`searchMeetings`,
///   `meetings(matching:)`), untouched by queries.
/// - **The newest refresh wins.** A refresh cancels this query's older refresh still running: the older one's
///   meetings never appear after the newer one's (criteria changed mid-refresh), and the older `refresh()` changes
///   nothing and returns when the newer one has ended (a `.refreshable` spinner stays until the data is there).
/// - **Nearby.** `.nearest(n)` in the criteria works as in `meetings(matching:)` (the n nearest, as one batch at the
///   end); set ``nearby`` for the widening search of `meetings(near:atLeast:…)` instead (its meetings nearest first,
///   at the end). Neither cancels any other nearby search.
/// - **The connection is held weakly.** A query does not keep its connection alive: a refresh running when the app
///   drops the connection ends as its request does, and a refresh after the connection has gone ends at once, with
///   `lastError == .cancelled` and the meetings kept.
/// - **A refresh lasts as long as its task.** Cancelling the task that awaits `refresh()` (SwiftUI's `.task` does when
///   the view goes away) or calling `cancel()` cancels the search.
///
/// Nothing is sent until `refresh()`. The search is the one `meetings(matching:)` makes (meetings and the formats
/// they use, the same cache entries, the aggregator filter rule), so whatever that search guarantees holds here.
/// ```swift
/// var tonight = BMLTSearchCriteria()
/// tonight.weekdays = [.monday]
/// let list = BMLTMeetingQuery(connection, criteria: tonight)
/// var near = BMLTSearchCriteria()
/// near.location = .nearest(10, latitude: 40.7, longitude: -73.6)
/// let map = BMLTMeetingQuery(connection, criteria: near)
/// async let first: Void = list.refresh()
/// async let second: Void = map.refresh()
/// _ = await (first, second)
/// print(list.meetings.count, map.meetings.count, list.lastError?.localizedDescription ?? "ok")
/// ```
@MainActor
@Observable
public final class BMLTMeetingQuery {
    /// What the next `refresh()` searches for (a change sends nothing by itself).
    /// ```swift
    /// query.criteria.weekdays = [.tuesday]
    /// await query.refresh()
    /// ```
    public var criteria: BMLTSearchCriteria
    /// When set, `refresh()` runs the widening nearby search (`meetings(near:atLeast:…)`) with `criteria` narrowing
    /// every step (its `location` replaced); `nil` (the default): the search of `criteria` as it is.
    /// ```swift
    /// query.nearby = .init(BMLTCoordinate(latitude: 44.9, longitude: -93.2), atLeast: 10,
    ///                      maximumRadius: Measurement(value: 50, unit: .kilometers))
    /// ```
    public var nearby: Nearby?
    /// The meetings to show. Until a refresh has succeeded: the running refresh's meetings so far (its first batch
    /// replaces what was there), then all of them; a first refresh that fails or is cancelled leaves those that
    /// arrived. Once a refresh has succeeded (or the cache has given its list under `.cacheThenNetwork`): that whole
    /// list, left as it is while a later refresh runs, and replaced whole only when one succeeds. A refresh that fails
    /// or is cancelled then keeps it (`isComplete` is `false`, `lastError` says why). The running refresh's own
    /// meetings as they arrive: ``meetingsSoFar``.
    /// ```swift
    /// for meeting in query.meetings { print(meeting.name) }
    /// ```
    public private(set) var meetings: [BMLTMeeting] = []
    /// The meetings of the running (else the last) refresh: those that arrived so far while it runs (empty before
    /// its first batch), all of them once it succeeded, those that arrived before it failed or was cancelled. The
    /// cache's list under `.cacheThenNetwork` is not among them (it is in `meetings`). Show it for a progress count,
    /// or to fill a list as it arrives when a previous list need not stay on screen.
    /// ```swift
    /// if query.isLoading { print(query.meetingsSoFar.count, "of the new list so far") }
    /// ```
    public private(set) var meetingsSoFar: [BMLTMeeting] = []
    /// Whether `meetings` is the response cache's answer, not the server's: under `.cacheThenNetwork` from the cached
    /// delivery until the server's list replaces it (also after the network failed); otherwise when the last
    /// successful refresh was answered by the cache (`.networkElseCache` offline, `.cacheElseNetwork` fresh enough).
    /// ```swift
    /// if query.isFromCache { print("offline: showing saved results") }
    /// ```
    public private(set) var isFromCache = false
    /// Whether a refresh is running.
    /// ```swift
    /// if query.isLoading { print("loading…") }
    /// ```
    public private(set) var isLoading = false
    /// Whether the last refresh ended with every meeting (`false` before the first, while one runs, and after a
    /// failure or a cancellation).
    /// ```swift
    /// if query.isComplete { print(query.meetings.count, "meetings") }
    /// ```
    public private(set) var isComplete = false
    /// The last refresh's failure (`.cancelled` when it was cancelled or the connection had gone); `nil` while a
    /// refresh runs and after a success.
    /// ```swift
    /// if let error = query.lastError { print(error.localizedDescription) }
    /// ```
    public private(set) var lastError: BMLTError?
    /// The request of the running refresh, else of the last one (`nil` before the first): the request the
    /// connection's notifications about this query's search carry.
    /// ```swift
    /// let mine = query.request.map { ObjectIdentifier($0) }
    /// ```
    public private(set) var request: BMLTRequest?

    @ObservationIgnored private weak var connection: BMLTConnection?
    /// Bumped by each refresh: a refresh whose number is not the latest changes nothing.
    @ObservationIgnored private(set) var generation = 0
    /// The running refresh's request.
    @ObservationIgnored private var running: BMLTRequest?
    /// Whether `meetings` is a whole list (a refresh's success, or the cache's list): the batches of a refresh then
    /// go to `meetingsSoFar` only, and `meetings` changes when one succeeds.
    @ObservationIgnored private var holdsWholeList = false
    /// Superseded refreshes waiting for the newest one to end.
    @ObservationIgnored private var waiters: [RefreshWaiter] = []
    /// The last complete refresh's results and criteria: what the next refresh of the same criteria brings up to date
    /// from the change log (`Refresh/BMLTMeetingQuery+Refresh.swift`).
    @ObservationIgnored var refreshBase: (criteria: BMLTSearchCriteria, results: BMLTSearchResults)?

    /// A query on `connection` (held weakly) for `criteria`; nothing is sent until `refresh()`.
    /// ```swift
    /// let query = BMLTMeetingQuery(connection, criteria: BMLTSearchCriteria())
    /// ```
    public init(_ connection: BMLTConnection, criteria: BMLTSearchCriteria = BMLTSearchCriteria(), nearby: Nearby? = nil) {
        self.connection = connection
        self.criteria = criteria
        self.nearby = nearby
    }

    /// Searches again with the current `criteria` (and `nearby`), and returns once the search has ended and its
    /// outcome is in `meetings`, `isComplete` and `lastError` (after the connection's notifications for it). Never
    /// throws. Cancels this query's older refresh still running (never another query's); that older refresh's call
    /// returns when this one has ended, with its outcome. Cancelling the calling task cancels the search (SwiftUI's
    /// `.task` does when the view goes away); a superseded call whose task is cancelled returns at once.
    /// ```swift
    /// await query.refresh()
    /// if let error = query.lastError { print(error.localizedDescription) } else { print(query.meetings.count) }
    /// ```
    public func refresh() async {
        generation &+= 1
        let mine = generation
        running?.cancel()
        guard let connection else {
            end(mine, .failure(.cancelled))
            return
        }
        isLoading = true
        isComplete = false
        lastError = nil
        meetingsSoFar = []
        if let nearby {
            let operation = BMLTConnection.nearby(nearby.point, count: nearby.atLeast, start: nearby.startingRadius,
                                                  maximum: nearby.maximumRadius, criteria: criteria, feedsStore: false,
                                                  delivered: { [weak self] request, meetings in self?.cached(mine, request, meetings) })
            let (request, task) = connection.launch(operation)
            began(request)
            let outcome = await withTaskCancellationHandler { await task.value } onCancel: { request.cancel() }
            end(mine, outcome.map(\.results.meetings))
        } else if let previous = updatable() {
            // A refresh after a complete one reads only what changed (Refresh/BMLTMeetingQuery+Refresh.swift).
            end(mine, await update(previous, on: connection, mine: mine).map(\.meetings))
        } else {
            let asked = criteria
            let search = connection.batchedSearch(asked, feedsStore: false,
                                                  delivered: { [weak self] request, meetings in self?.cached(mine, request, meetings) })
            began(search.request)
            do {
                while let batch = try await search.channel.next(onCancel: { search.request.cancel() }) {
                    guard generation == mine else { continue }
                    arrived(batch)
                }
            } catch {
                // The outcome below says what failed.
            }
            end(mine, keep(await search.outcome.value, of: asked, mine: mine).map(\.meetings))
        }
        await newestEnded(after: mine)
    }
    /// Cancels the running refresh, if any: it ends with `lastError == .cancelled`; `meetings` keeps the previous
    /// list (the meetings so far when no refresh had succeeded yet).
    /// ```swift
    /// query.cancel()
    /// ```
    public func cancel() {
        running?.cancel()
    }

    func began(_ request: BMLTRequest) {
        running = request
        self.request = request
    }

    /// A batch of the running refresh: into `meetingsSoFar`, and into `meetings` while it holds no whole list.
    private func arrived(_ batch: [BMLTMeeting]) {
        let first = meetingsSoFar.isEmpty
        meetingsSoFar.append(contentsOf: batch)
        guard !holdsWholeList else { return }
        if first { meetings = batch } else { meetings.append(contentsOf: batch) }
        isFromCache = false
    }

    /// A success delivered for refresh number `mine` under another request than its own: `.cacheThenNetwork`'s cached
    /// list, shown whole at once (before the server's first batch: the connection delivers it before it asks).
    private func cached(_ mine: Int, _ request: BMLTRequest, _ list: [BMLTMeeting]) {
        guard generation == mine, request !== running, running != nil else { return }
        meetings = list
        holdsWholeList = true
        isFromCache = true
    }

    /// The outcome of refresh number `mine`, unless a newer refresh has begun.
    private func end(_ mine: Int, _ outcome: Result<[BMLTMeeting], BMLTError>) {
        guard generation == mine else { return }
        let request = running
        running = nil
        switch outcome {
        case .success(let all):
            meetings = all
            meetingsSoFar = all
            holdsWholeList = true
            isFromCache = request?.isFromCache ?? false
            isComplete = true
            lastError = nil
        case .failure(let error):
            isComplete = false
            lastError = error
        }
        isLoading = false
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once the newest refresh has ended: at once for the newest itself; a superseded refresh's caller waits
    /// for the refresh that superseded it (or the one after), unless its own task is cancelled.
    private func newestEnded(after mine: Int) async {
        while generation != mine, isLoading, !Task.isCancelled {
            let waiter = RefreshWaiter()
            waiters.append(waiter)
            await withTaskCancellationHandler { await waiter.wait() } onCancel: { waiter.resume() }
        }
    }

    /// The widening nearby search of `meetings(near:atLeast:startingRadius:maximumRadius:criteria:)`, for a query.
    /// ```swift
    /// let nearby = BMLTMeetingQuery.Nearby(BMLTCoordinate(latitude: 44.9, longitude: -93.2), atLeast: 10,
    ///                                      maximumRadius: Measurement(value: 50, unit: .kilometers))
    /// ```
    public struct Nearby: Sendable, Equatable {
        /// The centre.
        public var point: BMLTCoordinate
        /// The circle widens until it holds at least this many meetings (or reaches `maximumRadius`).
        public var atLeast: Int
        /// The first radius; each step doubles it.
        public var startingRadius: Measurement<UnitLength>
        /// The largest radius asked for.
        public var maximumRadius: Measurement<UnitLength>

        /// A widening search around `point`.
        /// ```swift
        /// let nearby = BMLTMeetingQuery.Nearby(here, atLeast: 5, maximumRadius: Measurement(value: 30, unit: .miles))
        /// ```
        public init(_ point: BMLTCoordinate, atLeast: Int,
                    startingRadius: Measurement<UnitLength> = Measurement(value: 2, unit: .kilometers),
                    maximumRadius: Measurement<UnitLength>) {
            self.point = point
            self.atLeast = atLeast
            self.startingRadius = startingRadius
            self.maximumRadius = maximumRadius
        }
    }
}
