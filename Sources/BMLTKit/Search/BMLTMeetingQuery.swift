import Foundation
import Observation

/// One view's meeting search: its own meetings, loading state and error, beside any number of other queries on the
/// same connection.
///
/// A map and a list, a widget, a detail screen: each makes its own query from the one connection. A query holds the
/// meetings of its own last refresh — the meetings so far while they arrive (as `meetingBatches(matching:)` gives
/// them), then all of them — and nothing else changes them:
/// - **Shared connection, separate results.** Every query's search is a request of the connection like any other:
///   it is in `inFlightRequests`, counts in the one progress pair (`.bmltProgressDidStart`/`DidStop`), and posts the
///   same notifications with its request (`.bmltMeetingsArrived`, `.bmltMeetingSearchResults`, or `.bmltError` /
///   `.bmltRequestCancelled`; compare with ``request``). No query cancels, overwrites or waits for another, and none
///   touches the connection's stores: `connection.search` stays the classic pattern's (`searchMeetings`,
///   `meetings(matching:)`), untouched by queries.
/// - **The newest refresh wins.** A refresh cancels this query's older refresh still running: the older one's
///   meetings never appear after the newer one's (criteria changed mid-refresh), and its `refresh()` returns
///   without changing anything.
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
    /// The meetings of the last refresh: while one runs, those that arrived so far (its first batch replaces the
    /// previous list), then all of them. A refresh that fails or is cancelled keeps what was there (`isComplete` is
    /// then `false`).
    /// ```swift
    /// for meeting in query.meetings { print(meeting.name) }
    /// ```
    public private(set) var meetings: [BMLTMeeting] = []
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
    /// throws. Cancels this query's older refresh still running (never another query's). Cancelling the calling task
    /// cancels the search (SwiftUI's `.task` does when the view goes away).
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
        if let nearby {
            let operation = BMLTConnection.nearby(nearby.point, count: nearby.atLeast, start: nearby.startingRadius,
                                                  maximum: nearby.maximumRadius, criteria: criteria, feedsStore: false)
            let (request, task) = connection.launch(operation)
            began(request)
            let outcome = await withTaskCancellationHandler { await task.value } onCancel: { request.cancel() }
            end(mine, outcome.map(\.results.meetings))
        } else if let previous = updatable() {
            // A refresh after a complete one reads only what changed (Refresh/BMLTMeetingQuery+Refresh.swift).
            end(mine, await update(previous, on: connection, mine: mine).map(\.meetings))
        } else {
            let asked = criteria
            let search = connection.batchedSearch(asked, feedsStore: false)
            began(search.request)
            var first = true
            do {
                while let batch = try await search.channel.next(onCancel: { search.request.cancel() }) {
                    guard generation == mine else { continue }
                    if first { meetings = batch } else { meetings.append(contentsOf: batch) }
                    first = false
                }
            } catch {
                // The outcome below says what failed.
            }
            end(mine, keep(await search.outcome.value, of: asked, mine: mine).map(\.meetings))
        }
    }

    /// Cancels the running refresh, if any: it ends with `lastError == .cancelled`, keeping the meetings so far.
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

    /// The outcome of refresh number `mine`, unless a newer refresh has begun.
    private func end(_ mine: Int, _ outcome: Result<[BMLTMeeting], BMLTError>) {
        guard generation == mine else { return }
        running = nil
        switch outcome {
        case .success(let all):
            meetings = all
            isComplete = true
            lastError = nil
        case .failure(let error):
            isComplete = false
            lastError = error
        }
        isLoading = false
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
