import Foundation

/// One search's batches on their way to the main actor: the search store's `meetingsSoFar` gets them in order (unless
/// the search is a query's, which leaves the stores alone), each announced as `.meetingsArrived` with the running
/// count, all before the search's one outcome is applied (`end`).
///
/// Batches are posted from the transport's delivery queue; a main-actor task takes whatever is pending when it runs
/// (one task scheduled at a time), and `end` — run by the outcome on the main actor — takes what is left first.
final class SearchArrival: Sendable {
    private struct State {
        var pending: [[BMLTMeeting]] = []
        var scheduled = false
        var ended = false
        weak var connection: BMLTConnection?
        var request: BMLTRequest?
        /// Meetings applied so far.
        var count = 0
    }

    private let state = Locked(State())
    /// Whether the batches go to the search store (`false`: a `BMLTMeetingQuery`'s search, announced only).
    private let feedsStore: Bool

    init(feedsStore: Bool = true) {
        self.feedsStore = feedsStore
    }

    /// The search's connection and request, when the request is made (before any batch).
    @MainActor
    func begin(_ connection: BMLTConnection, _ request: BMLTRequest) {
        state.withLock {
            $0.connection = connection
            $0.request = request
        }
    }

    /// A batch, from any thread, in order.
    func post(_ batch: [BMLTMeeting]) {
        let schedule = state.withLock { state -> Bool in
            guard !state.ended, state.request != nil else { return false }
            state.pending.append(batch)
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { Task { @MainActor in self.drain() } }
    }

    /// Applies the batches pending now.
    @MainActor
    private func drain() {
        let (batches, connection, request) = state.withLock { state in
            let taken = state.pending
            state.pending = []
            state.scheduled = false
            return (taken, state.connection, state.request)
        }
        guard let connection, let request else { return }
        for batch in batches {
            let count = state.withLock { state in
                state.count += batch.count
                return state.count
            }
            if feedsStore { connection.search.arrive(batch, of: request) }
            connection.emit(.meetingsArrived(batch, count: count, request: request))
        }
    }

    /// Whether `request` is the one whose batches these are (not a `.cacheThenNetwork` cached delivery's).
    func concerns(_ request: BMLTRequest) -> Bool {
        state.withLock { $0.request === request }
    }

    /// The search's outcome is being applied: the batches still pending first (`deliver`: `true` on success), then no more.
    @MainActor
    func end(_ request: BMLTRequest, deliver: Bool) {
        guard concerns(request) else { return }
        if deliver { drain() }
        state.withLock {
            $0.ended = true
            $0.pending = []
        }
    }
}
