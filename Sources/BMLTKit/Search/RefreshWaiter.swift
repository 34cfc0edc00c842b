import Foundation

/// A superseded `BMLTMeetingQuery.refresh()` waiting for the newest refresh to end: resumed once by the query when
/// the newest refresh's outcome is in, or by the waiting task's cancellation (from any thread), whichever comes first.
final class RefreshWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var resumed = false
    }

    private let state = Locked(State())

    init() {}

    /// Returns once `resume()` has been called (at once when it already was).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.resumed { return true }
                state.continuation = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the wait (harmless when called again).
    func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.resumed = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
