import Foundation

/// One write and what its lost-answer rules need, as one explicit value (issue 47, D24): which write, when its first
/// attempt began (every look-up of the call uses that window), under which login (generation and user: checked before
/// the look-up and before any re-send), whether it may be sent again when proven not done, and the look-up's budget.
struct WriteAttempt: Sendable {
    var write: BMLTWriteKind
    /// The item written, when known (a meeting's, format's, service body's or user's id).
    var itemID: Int?
    /// The login the write was sent under.
    var generation: Int
    /// The user logged in when the write began (REST: from the token; 2.x: `nil`, read by the look-up).
    var userID: Int?
    /// When the first attempt began: this call's, or an earlier call's whose outcome stayed open (`OpenWrites`).
    var since: Date
    /// Whether the write may be sent again once a look-up proved it not done (saves, rollbacks, deletes, a 2.x restore
    /// under the old id). A creation (a meeting, a REST restore, a format, service body or user) never is.
    var resendable: Bool
    /// The key under which an open outcome is kept (a draft's write identity; a restore's meeting id), or `nil`.
    var openKey: String?
    /// Whether an earlier attempt of this write is known (the connection's record, or the one the draft carried).
    var repeatsEarlier: Bool
    /// The look-up's budget in seconds (`nil`: none, no timer — a configured `timeout` of `.infinity` or 1e300).
    var lookUpBudget: TimeInterval?
    /// In a look-up: the item the write's own answer named before what followed it failed (2.x `add_meeting`'s new
    /// id, its read-back then lost), or `nil`.
    var acknowledgedID: Int?

    init(_ context: OperationContext, write: BMLTWriteKind, itemID: Int?, generation: Int,
         resendable: Bool, openKey: String? = nil, carriedSince: Date? = nil) {
        self.write = write
        self.itemID = itemID
        self.generation = generation
        self.userID = context.adminSession.userID
        self.resendable = resendable
        self.openKey = openKey
        let now = Date()
        let earlier = [openKey.flatMap { context.adminSession.openWrites.started($0) }, carriedSince].compactMap { $0 }.min()
        self.since = earlier.map { min($0, now) } ?? now
        self.repeatsEarlier = earlier != nil
        self.lookUpBudget = Self.budget(context.transport.timeout)
    }

    /// A finite budget for the look-up, or `nil` for "no deadline" (`.infinity`, 1e300, 2e10, NaN, ≤ 0 — never converted
    /// to nanoseconds, which traps for such values).
    static func budget(_ timeout: TimeInterval) -> TimeInterval? {
        guard timeout.isFinite, timeout > 0, timeout < 1_000_000 else { return nil }
        return max(timeout, 0.1)
    }

    /// Whether the login this write was sent under is still the connection's (same generation; same user when known).
    func loginHolds(_ context: OperationContext) -> Bool {
        guard context.adminSession.generation == generation else { return false }
        guard let userID, let now = context.adminSession.userID else { return true }
        return userID == now
    }

    /// The open outcome of this write.
    func open(_ finding: BMLTUnknownWriteOutcome.Finding, loss: BMLTError, id: Int? = nil) -> BMLTError {
        .writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: write, itemID: id ?? itemID, loss: loss, finding: finding,
                                                     attemptStarted: since))
    }
}

/// The creations whose outcome stayed open — or that are done — while the connection lives (issue 47): saving the same
/// draft (or restoring the same deletion, creating the same format or service body) again looks in the first attempt's
/// window before it sends anything, and two attempts under one key run one after the other. Keyed by a draft's write
/// identity (`draft:<uuid>`), a deleted meeting's id (`restore:<id>`) or what a format or service body is made of
/// (`format:…`, `serviceBody:…`). A done record never becomes open again (issue 57, R5).
final class OpenWrites: Sendable {
    /// A creation known done: what the next attempt under its key works from instead of creating again.
    struct Done: Sendable {
        /// The id the server gave it, when known.
        var id: Int?
        /// What was sent (a meeting draft's fields, aligned), when known.
        var sent: BMLTMeeting?
        /// The meeting as the server held it right after (its admin read), when it was read.
        var created: BMLTMeeting?
        /// Whether a success was reported for it (its `.bmltMeetingAdded` posted): a later report of it is no creation.
        var announced = false
    }

    private struct Record {
        var since: Date
        var loss: BMLTError?
        var done: Done?
    }

    private let attempts = Locked([String: Record]())
    private let gates = Locked([String: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)]]())
    /// How long after the first attempt a second one waits before it may create: a gateway may hand the first request
    /// to the server late (a 502 answered at once, the PHP run seconds later). Tests make it short.
    let settleTime = Locked<TimeInterval>(20)

    /// When the attempt under `key` began, or `nil`.
    func started(_ key: String) -> Date? { attempts.withLock { $0[key]?.since } }
    /// How the open attempt under `key` lost its answer, or `nil`.
    func loss(_ key: String) -> BMLTError? { attempts.withLock { $0[key]?.loss } }
    /// Whether the attempt under `key` is known done (a later one looks at once, without the settle time).
    func isDone(_ key: String) -> Bool { attempts.withLock { $0[key]?.done != nil } }
    /// The creation under `key`, when it is known done.
    func done(_ key: String) -> Done? { attempts.withLock { $0[key]?.done } }
    /// Remembers an open attempt (the earliest start is kept). A done record stays done.
    func open(_ key: String, since: Date, loss: BMLTError) {
        attempts.withLock { attempts in
            guard attempts[key]?.done == nil else { return }
            attempts[key] = Record(since: min(attempts[key]?.since ?? since, since), loss: attempts[key]?.loss ?? loss, done: nil)
        }
    }
    /// Remembers a done attempt: the same draft saved again works from its meeting instead of making another. What a
    /// record already knew of it (an id, what was sent) is kept where `done` does not say.
    func done(_ key: String, since: Date, _ done: Done = Done()) {
        attempts.withLock { attempts in
            let known = attempts[key]?.done
            var merged = done
            merged.id = done.id ?? known?.id
            merged.sent = done.sent ?? known?.sent
            merged.created = done.created ?? known?.created
            merged.announced = done.announced || (known?.announced ?? false)
            attempts[key] = Record(since: min(attempts[key]?.since ?? since, since), loss: nil, done: merged)
        }
    }
    /// Forgets the record under `key` (a done item that is gone: the next creation is a new one).
    func forget(_ key: String) { attempts.withLock { $0[key] = nil } }

    /// Runs `body` with no other attempt under `key` running (two saves of one draft at once run one after the other).
    /// Waiting for the other ends at once, with `.cancelled`, when the task is cancelled (its deadline, the person's
    /// cancel): nothing was sent (issue 57, R7).
    func exclusive<Value>(_ key: String, _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        guard await enter(key) else { throw .cancelled }
        defer { leave(key) }
        return try await body()
    }

    /// Waits until no other attempt under `key` runs; `false` when the task was cancelled while it waited (it does not
    /// hold the key then).
    func enter(_ key: String) async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Under the lock with `onCancel`: a cancel before the append is seen here (the flag is set before the
                // handler runs), one after it finds the continuation there.
                let now = gates.withLock { gates -> Bool? in
                    guard gates[key] != nil else { gates[key] = []; return true }
                    if Task.isCancelled { return false }
                    gates[key]?.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            // Still waiting: leaves the queue and ends the wait (resumed after the lock, never under it).
            let waiting = gates.withLock { gates -> CheckedContinuation<Bool, Never>? in
                guard let index = gates[key]?.firstIndex(where: { $0.id == id }) else { return nil }
                return gates[key]?.remove(at: index).continuation
            }
            waiting?.resume(returning: false)
        }
    }

    /// Lets the next attempt under `key` run.
    func leave(_ key: String) {
        let next = gates.withLock { gates -> CheckedContinuation<Bool, Never>? in
            guard var waiting = gates[key] else { return nil }
            guard !waiting.isEmpty else { gates[key] = nil; return nil }
            let next = waiting.removeFirst()
            gates[key] = waiting
            return next.continuation
        }
        next?.resume(returning: true)
    }
}

extension OperationContext {
    /// Counts a write's answer as its acknowledgement: called by an interface once the answer parsed as a success (a
    /// 2.x `["ERROR"]` with HTTP 200 is a refusal, not an acknowledgement; D8). `id`: the item the answer names (2.x
    /// `add_meeting`'s new meeting), kept for a look-up whose read-back then fails (issue 57, R3).
    func acknowledgeWrite(id: Int? = nil) {
        writes.withLock { ledger in
            ledger.acknowledged += 1
            if let id { ledger.acknowledgedID = id }
        }
    }
}
