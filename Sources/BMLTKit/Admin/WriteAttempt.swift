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
/// draft (or restoring the same deletion) again looks in the first attempt's window before it sends anything, and two
/// saves of one draft at once run one after the other. Keyed by a draft's write identity (`draft:<uuid>`) or a deleted
/// meeting's id (`restore:<id>`).
final class OpenWrites: Sendable {
    private struct Record {
        var since: Date
        var loss: BMLTError?
        var isDone: Bool
    }

    private let attempts = Locked([String: Record]())
    private let gates = Locked([String: [CheckedContinuation<Void, Never>]]())
    /// How long after the first attempt a second one waits before it may create: a gateway may hand the first request
    /// to the server late (a 502 answered at once, the PHP run seconds later). Tests make it short.
    let settleTime = Locked<TimeInterval>(20)

    /// When the attempt under `key` began, or `nil`.
    func started(_ key: String) -> Date? { attempts.withLock { $0[key]?.since } }
    /// How the open attempt under `key` lost its answer, or `nil`.
    func loss(_ key: String) -> BMLTError? { attempts.withLock { $0[key]?.loss } }
    /// Whether the attempt under `key` is known done (a later one looks at once, without the settle time).
    func isDone(_ key: String) -> Bool { attempts.withLock { $0[key]?.isDone ?? false } }
    /// Remembers an open attempt (the earliest start is kept).
    func open(_ key: String, since: Date, loss: BMLTError) {
        attempts.withLock { $0[key] = Record(since: min($0[key]?.since ?? since, since), loss: $0[key]?.loss ?? loss, isDone: false) }
    }
    /// Remembers a done attempt: the same draft saved again finds its meeting instead of making another.
    func done(_ key: String, since: Date) {
        attempts.withLock { $0[key] = Record(since: min($0[key]?.since ?? since, since), loss: nil, isDone: true) }
    }

    /// Waits until no other attempt under `key` runs (two saves of one draft at once run one after the other).
    func enter(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = gates.withLock { gates -> Bool in
                guard gates[key] != nil else { gates[key] = []; return true }
                gates[key]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Lets the next attempt under `key` run.
    func leave(_ key: String) {
        let next = gates.withLock { gates -> CheckedContinuation<Void, Never>? in
            guard var waiting = gates[key] else { return nil }
            guard !waiting.isEmpty else { gates[key] = nil; return nil }
            let next = waiting.removeFirst()
            gates[key] = waiting
            return next
        }
        next?.resume()
    }
}

extension OperationContext {
    /// Counts a write's answer as its acknowledgement: called by an interface once the answer parsed as a success (a
    /// 2.x `["ERROR"]` with HTTP 200 is a refusal, not an acknowledgement; D8).
    func acknowledgeWrite() { acknowledgedWrites.withLock { $0 += 1 } }
}
