import Foundation

/// A read's work against its deadline: whichever comes first settles the call, once.
///
/// The deadline used to cancel the work and wait for it to return, so a call ended when its cancelled work had wound
/// down: the epilogues of cancelled reads, each rescheduled on a busy pool (12.5 s for a 1.5 s timeout under a loaded
/// thread sanitizer). For a read nothing needs that wait: its work changes nothing but the cache, and its cache writes
/// are held (`CacheHold`) until its outcome is known to have come in time. So the deadline settles the call with
/// `.timeout` itself (`expire`), cancels the work, and the call resumes at once; the work winds down behind it and its
/// outcome, arriving late, is dropped with its cache writes.
///
/// The work's own outcome is settled in two steps, `claim` then `deliver`, with the cache writes released between:
/// once claimed the deadline can no longer win, so the writes land only for an outcome that came in time, and before
/// the call resumes. Nothing is resumed or cancelled under the lock (CONTRIBUTING.md).
/// ```swift
/// let race = DeadlineRace<Int>()
/// race.start(hold: CacheHold()) { .success(42) }
/// let outcome = await race.outcome()    // .success(42), or .failure(.timeout) if `race.expire()` came first
/// ```
final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        /// Someone (the work, or the deadline) has won: nobody else settles the call.
        var claimed = false
        var outcome: Result<Value, BMLTError>?
        var waiter: CheckedContinuation<Result<Value, BMLTError>, Never>?
        var work: Task<Void, Never>?
        var workCancelled = false
    }

    private let state = Locked(State())

    /// Starts `work` in a task of its own (task-local values inherited), unless the race is already over or its work
    /// cancelled: no request is sent after the deadline. `hold` gets the work's cache writes: released when its
    /// outcome wins, dropped otherwise.
    func start(hold: CacheHold, _ work: @escaping @Sendable () async -> Result<Value, BMLTError>) {
        let over = state.withLock { $0.claimed || $0.workCancelled }
        if over { return hold.drop() }
        let task = Task { [self] in
            let outcome = await work()
            if claim() {
                hold.release()
                deliver(outcome)
            } else {
                hold.drop()
            }
        }
        let cancel = state.withLock { state -> Bool in
            state.work = task
            return state.workCancelled
        }
        if cancel { task.cancel() }
    }

    /// The deadline has passed: the work is cancelled, and the call settled with `.timeout` unless the work's outcome
    /// was claimed first.
    func expire() {
        let won = claim()
        cancelWork()
        if won { deliver(.failure(.timeout)) }
    }

    /// The caller cancelled the read: the call is settled with `.cancelled` at once (unless it was settled already) and
    /// the work cancelled, winding down behind it like a read cut off by its deadline: nothing of it reaches the cache.
    /// (Waiting for the work made a cancel wait for the HTTP stack's own wind-down, or for the deadline.)
    func abandon() {
        let won = claim()
        cancelWork()
        if won { deliver(.failure(.cancelled)) }
    }

    /// Cancels the work (now, or as soon as it starts); its outcome still settles the call unless the deadline did.
    func cancelWork() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.workCancelled = true
            return state.work
        }
        task?.cancel()
    }

    /// The call's outcome, once settled.
    func outcome() async -> Result<Value, BMLTError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, BMLTError>, Never>) in
            let ready = state.withLock { state -> Result<Value, BMLTError>? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Whether the race has been settled (for tests).
    var isSettled: Bool { state.withLock { $0.outcome != nil } }

    /// Takes the right to settle the call; `false` when it was taken already.
    private func claim() -> Bool {
        state.withLock { state -> Bool in
            guard !state.claimed else { return false }
            state.claimed = true
            return true
        }
    }

    /// Settles the call (only after a successful `claim`).
    private func deliver(_ outcome: Result<Value, BMLTError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, BMLTError>, Never>? in
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }
}
