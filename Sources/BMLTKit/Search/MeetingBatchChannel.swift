import Foundation

/// The batches of `meetingBatches(matching:)` between the search and its consumer.
///
/// Bounded by the reply, never by how fast the consumer reads: the search goes on downloading and decoding at the
/// network's pace, and batches the consumer has not taken yet are merged into one pending list (never queued as
/// separate arrays), which the consumer's next read takes whole. A consumer that stops reading for a while therefore
/// gets one larger batch when it reads again; what waits for it is at most the meetings of the reply not yet taken —
/// meetings the search holds anyway for its results.
final class MeetingBatchChannel: Sendable {
    private struct State {
        var pending: [BMLTMeeting] = []
        var waiter: CheckedContinuation<Void, Never>?
        /// The search ended: `nil` inside for success.
        var end: BMLTError??
        /// The meetings handed over are not the search's list (a retry found another): the end is this error.
        var divergence: BMLTError?
        var consumerCancelled = false
        /// The end was given to the consumer.
        var over = false
    }

    private let state = Locked(State())

    init() {}

    /// A batch from the search (any thread, in order).
    func post(_ batch: [BMLTMeeting]) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil, !state.over else { return nil }
            state.pending.append(contentsOf: batch)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The meetings handed over turned out not to be the beginning of the search's list.
    func diverged(_ error: BMLTError) {
        state.withLock { $0.divergence = error }
    }

    /// The search's outcome (`nil`: it succeeded), after its last batch.
    func finish(_ error: BMLTError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error ?? state.divergence)
            // A failure still lets the consumer take the whole meetings that arrived before it (then the error);
            // a cancelled search gives no more.
            if case .cancelled? = error { state.pending = [] }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The consumer's next batch: whatever arrived since its last read, once there is some; `nil` after the last;
    /// throws the search's error. A cancelled consumer gets no more batches: `nil` (the end, as `AsyncThrowingStream`
    /// itself gives a cancelled task), and the search is cancelled.
    func next(onCancel cancelSearch: @escaping @Sendable () -> Void) async throws(BMLTError) -> [BMLTMeeting]? {
        while true {
            enum Step { case batch([BMLTMeeting]), end(BMLTError?), wait }
            let step = state.withLock { state -> Step in
                if state.over { return .end(nil) }
                if state.consumerCancelled || Task.isCancelled {
                    state.over = true
                    state.pending = []
                    return .end(.cancelled)
                }
                if !state.pending.isEmpty {
                    defer { state.pending = [] }
                    return .batch(state.pending)
                }
                if let end = state.end {
                    state.over = true
                    return .end(end)
                }
                return .wait
            }
            switch step {
            case .batch(let batch): return batch
            case .end(.cancelled?) where state.withLock({ $0.consumerCancelled }) || Task.isCancelled:
                cancelSearch()
                return nil
            case .end(let error?): throw error
            case .end(nil): return nil
            case .wait: break
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if state.consumerCancelled || !state.pending.isEmpty || state.end != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.consumerCancelled = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                cancelSearch()
                waiter?.resume()
            }
        }
    }
}
