import Foundation

/// Cuts one search's meetings into batches while its reply is decoded, for `meetingBatches(matching:)` and for the
/// search store's `meetingsSoFar` — one batcher per search, shared by every attempt of its request.
///
/// How batches are sized (by time and count, never one meeting each nor the whole list when the reply streams):
/// - the first batch goes as soon as one whole meeting is decoded (with whatever else the same piece of the body held);
/// - after it, the meetings decoded since are handed over when a piece of the body arrives at least `interval` (75 ms)
///   after the previous batch: a host redraws at most about 13 times a second;
/// - the rest goes as the last batch once the reply is whole and decoded, taken from the final results, so that the
///   batches together are exactly those results.
///
/// A reply answered whole (the cache, an app's own HTTP transport) is one batch.
///
/// Retries: a cut reply that is tried again is decoded again from its start, by a new consumer. The meetings the new
/// attempt decodes, up to the number already handed over, are checked against those by id and skipped: no meeting is
/// handed over twice. If they differ (the server's list changed between the attempts), nothing more is handed over
/// and `hasDiverged` says so (the stream then ends with an error instead of a list that is not the server's).
final class SearchBatcher: Sendable {
    /// The least time between two batches while the body arrives.
    static let interval: UInt64 = 75_000_000

    private struct State {
        var handedIDs: [Int] = []
        var lastCut: UInt64 = 0
        /// Attempts numbered as their consumers are made (`beginAttempt`), and the one whose meetings came last.
        var attempts = 0
        var attempt = 0
        var attemptIndex = 0
        var diverged = false
        var finished = false
        /// Batches cut and not handed to `deliver` yet, in order, and whether a thread is handing them over now.
        var outbox: [[BMLTMeeting]] = []
        var delivering = false
    }

    private let state = Locked(State())
    /// What a `meetings` member's meetings are resolved against before the reply's own formats have arrived.
    let table: WireFormatTable
    private let deliver: @Sendable ([BMLTMeeting]) -> Void

    /// A batcher handing its batches to `deliver`, in order, from one thread at a time, never while holding its lock
    /// (`deliver` posts to the search's channel, which resumes its consumer, and starts the main-actor task that
    /// applies the batch).
    init(serverFormats: [BMLTFormat], deliver: @escaping @Sendable ([BMLTMeeting]) -> Void) {
        table = WireFormatTable(serverFormats)
        self.deliver = deliver
    }

    /// Whether the meetings decoded since the last batch should go now.
    func isDue() -> Bool {
        state.withLock { state in
            guard !state.finished, !state.diverged else { return false }
            return state.handedIDs.isEmpty || DispatchTime.now().uptimeNanoseconds &- state.lastCut >= Self.interval
        }
    }

    /// A number for a new attempt's consumer (a retry decodes the reply again from its start). A number, not the
    /// consumer's identity: a retry's consumer may be allocated where the cut attempt's freed one was.
    func beginAttempt() -> Int {
        state.withLock { state in
            state.attempts += 1
            return state.attempts
        }
    }

    /// Meetings the attempt numbered `attempt` decoded, in order, after those it offered before.
    func offer(_ meetings: [BMLTMeeting], attempt: Int) {
        let drains = state.withLock { state -> Bool in
            guard !state.finished, !state.diverged else { return false }
            if state.attempt != attempt {
                state.attempt = attempt
                state.attemptIndex = 0
            }
            var start = 0
            while start < meetings.count, state.attemptIndex < state.handedIDs.count {
                if meetings[start].id != state.handedIDs[state.attemptIndex] {
                    state.diverged = true
                    return false
                }
                start += 1
                state.attemptIndex += 1
            }
            guard start < meetings.count else { return false }
            let batch = start == 0 ? meetings : Array(meetings[start...])
            state.handedIDs.append(contentsOf: batch.lazy.map(\.id))
            state.attemptIndex += batch.count
            state.lastCut = DispatchTime.now().uptimeNanoseconds
            return Self.queue(batch, in: &state)
        }
        if drains { drainOutbox() }
    }

    /// The search's final meetings: what was not handed over yet goes as the last batch (after checking that what was
    /// handed over is their beginning).
    func finish(_ meetings: [BMLTMeeting]) {
        let drains = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            guard !state.diverged else { return false }
            let handed = state.handedIDs.count
            guard meetings.count >= handed, zip(meetings, state.handedIDs).allSatisfy({ $0.id == $1 }) else {
                state.diverged = true
                return false
            }
            guard meetings.count > handed else { return false }
            return Self.queue(handed == 0 ? meetings : Array(meetings[handed...]), in: &state)
        }
        if drains { drainOutbox() }
    }

    /// Puts a batch in the outbox (under the lock). Returns whether the caller is to hand the outbox over: no other
    /// thread is doing it now.
    private static func queue(_ batch: [BMLTMeeting], in state: inout State) -> Bool {
        state.outbox.append(batch)
        guard !state.delivering else { return false }
        state.delivering = true
        return true
    }

    /// Hands the outbox's batches to `deliver`, in order, outside the lock, until it is empty (batches queued
    /// meanwhile by another thread included: that thread left them to this one).
    private func drainOutbox() {
        while true {
            let next = state.withLock { state -> [BMLTMeeting]? in
                guard !state.outbox.isEmpty else {
                    state.delivering = false
                    return nil
                }
                return state.outbox.removeFirst()
            }
            guard let next else { return }
            deliver(next)
        }
    }

    /// Whether the meetings handed over are not the beginning of the search's final list (a retry found another).
    var hasDiverged: Bool { state.withLock { $0.diverged } }

    /// How many meetings were handed over.
    var handedCount: Int { state.withLock { $0.handedIDs.count } }
}
