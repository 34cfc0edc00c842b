import Foundation

/// `BMLTConfiguration.timeout` over one whole call: every request it sends, every attempt of each, the waits between
/// retries and the read-back of a write, together.
///
/// The deadline is armed when the operation is launched, on the connection's one `DeadlineQueue` for operations (every
/// operation has the same timeout, so deadlines come in the order operations start, which that queue needs). When it
/// passes, the operation's task is cancelled — the attempt in flight ends, a retry's wait ends, no further attempt
/// starts — and the outcome is `.timeout`, not `.cancelled`. It is disarmed as soon as the work is over (delivering the
/// outcome is not timed). Each attempt keeps the transport's own deadline too (the same timeout), a backstop that the
/// operation's, which started earlier, always precedes.
final class OperationDeadline: Sendable {
    private struct State {
        var token: UInt64?
        var disarmed = false
        var expired = false
    }

    private let state = Locked(State())

    /// The deadline of the operation whose work is running (set around the work): a write cancelled after sending
    /// tells a passed deadline (a timeout: the server may still be running it) from a cancel (see `LostAnswer`).
    @TaskLocal static var current: OperationDeadline?

    /// Whether the deadline has passed.
    var hasPassed: Bool { state.withLock { $0.expired } }

    /// Arms the deadline on `queue`; `cancel` ends the operation's task when it passes. Nothing when the work is over.
    func arm(on queue: DeadlineQueue, cancel: @escaping @Sendable () -> Void) {
        let token = queue.add { [self] in
            let fire = state.withLock { state -> Bool in
                guard !state.disarmed else { return false }
                state.expired = true
                return true
            }
            if fire { cancel() }
        }
        let late = state.withLock { state -> Bool in
            if state.disarmed { return true }
            state.token = token
            return false
        }
        if late { queue.remove(token) }
    }

    /// Ends the deadline (the work is over); returns whether it had passed first.
    func disarm(on queue: DeadlineQueue) -> Bool {
        let (token, expired) = state.withLock { state -> (UInt64?, Bool) in
            state.disarmed = true
            defer { state.token = nil }
            return (state.token, state.expired)
        }
        if let token { queue.remove(token) }
        return expired
    }
}
