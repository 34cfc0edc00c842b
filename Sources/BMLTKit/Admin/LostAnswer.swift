import Foundation

/// What a look-up after a lost answer proved about a write.
enum LookUpVerdict<Value: Sendable>: Sendable {
    /// The server did it: what a clean success would have given.
    case done(Value)
    /// The server did not do it: it may be sent again.
    case notDone
    /// It cannot be settled (see `BMLTUnknownWriteOutcome.Finding`).
    case open(BMLTUnknownWriteOutcome.Finding, meetingID: Int? = nil)
}

extension BMLTError {
    /// Whether this error, given to a write, leaves its outcome open: the request may have reached the server and its
    /// answer is lost (a connection lost after sending, a timeout, HTTP 502/503/504 from a gateway, a reply that
    /// cannot be read). A refused connection, an unknown host or an offline device never sent the request.
    var leavesWriteOpen: Bool {
        switch self {
        case .timeout, .brokenReply, .malformedResponse: return true
        case .transport(let code):
            return [URLError.networkConnectionLost.rawValue, URLError.timedOut.rawValue,
                    URLError.badServerResponse.rawValue, URLError.zeroByteResource.rawValue].contains(code)
        case .httpStatus(let code, _): return Self.losesWriteAnswer(status: code)
        default: return false
        }
    }

    /// Whether a status given to a write means its answer was lost: 408, and every 5xx but 500/501 (502/503/504 and a
    /// CDN's 520–524: the origin may have received the write). 500/501 are the server failing on it.
    static func losesWriteAnswer(status: Int) -> Bool {
        status == 408 || ((502..<600).contains(status))
    }

    /// Whether the server may still be running the write after this loss (a timeout, a gateway or CDN that gave up
    /// waiting: 504, 408, 52x): a look-up that finds nothing proves nothing yet, and the write is never sent again.
    var serverMayStillRun: Bool {
        switch self {
        case .timeout: return true
        case .transport(let code): return code == URLError.timedOut.rawValue
        case .httpStatus(let code, _): return Self.losesWriteAnswer(status: code) && code != 502 && code != 503
        default: return false
        }
    }

    /// Whether this is `.writeOutcomeUnknown` (kept as it is when a call's whole deadline passes).
    var isOpenWriteOutcome: Bool {
        if case .writeOutcomeUnknown = self { return true }
        return false
    }

    var isMalformedResponse: Bool {
        if case .malformedResponse = self { return true }
        return false
    }

    /// Whether a write proven not done after this loss may be sent again at once (a passing failure, as for reads).
    var isPassingLoss: Bool {
        if case .httpStatus(let code, _) = self { return Transport.isTransient(status: code) }
        return Transport.isTransient(self)
    }
}

/// Runs a write; when its answer is lost, finds out what the server holds before reporting (see `WriteLookUp`). A
/// write proven not done is sent again only when it is idempotent (a save, rollback or delete) and the loss a passing
/// one, under the connection's retry policy; a creation never is (issue 47: a 502, a reset or a cancel after sending
/// does not prove the server never got it). A creation left open is remembered (`OpenWrites`, and the draft value):
/// the next attempt looks in the first one's window before it sends anything.
enum LostAnswer {
    /// A look-up in the window from `since`; `acknowledgedID`: the item the write's own answer named before what
    /// followed it failed (2.x `add_meeting`'s new id), when it did.
    typealias LookUp<Value: Sendable> = @Sendable (_ since: Date, _ acknowledgedID: Int?) async throws(BMLTError) -> LookUpVerdict<Value>

    /// How one attempt's answer was lost.
    struct Loss: Sendable {
        var error: BMLTError
        /// The server refused the write in a way that may mean "already done" (its refusal stands if the look-up fails).
        var isRefusal = false
        /// The server's answer to the write itself parsed as a success (what failed came after it).
        var wasAcknowledged = false
        /// The item that answer named, when it named one.
        var acknowledgedID: Int?
    }

    static func settle<Value: Sendable>(
        _ context: OperationContext, _ attempt: WriteAttempt,
        also: (BMLTError) -> Bool = { _ in false },
        _ body: () async throws(BMLTError) -> Value,
        lookUp: @escaping LookUp<Value>
    ) async throws(BMLTError) -> Value {
        guard let key = attempt.openKey else { return try await attempted(context, attempt, also: also, body, lookUp: lookUp) }
        // One attempt of a draft (or a deletion's restore) at a time; the next starts from what this one left.
        return try await context.adminSession.openWrites.exclusive(key) { () async throws(BMLTError) -> Value in
            try await settleHolding(context, attempt, also: also, body, lookUp: lookUp)
        }
    }

    /// `settle`, run by a caller that holds the attempt's key (`OpenWrites.exclusive`): an earlier attempt's window is
    /// looked in first, then the write is sent.
    static func settleHolding<Value: Sendable>(
        _ context: OperationContext, _ attempt: WriteAttempt,
        also: (BMLTError) -> Bool = { _ in false },
        _ body: () async throws(BMLTError) -> Value,
        lookUp: @escaping LookUp<Value>
    ) async throws(BMLTError) -> Value {
        var attempt = attempt
        let earlier = attempt.openKey.flatMap(context.adminSession.openWrites.started)
        if attempt.repeatsEarlier || earlier != nil {
            attempt.since = min(attempt.since, earlier ?? attempt.since)
            // An earlier attempt stayed open (or is done): look in its window (after the settle time) first.
            if let value = try await lookAgain(context, attempt, lookUp) { return value }
        }
        return try await attempted(context, attempt, also: also, body, lookUp: lookUp)
    }

    private static func attempted<Value: Sendable>(
        _ context: OperationContext, _ attempt: WriteAttempt,
        also: (BMLTError) -> Bool,
        _ body: () async throws(BMLTError) -> Value,
        lookUp: @escaping LookUp<Value>
    ) async throws(BMLTError) -> Value {
        var retries = 0
        while true {
            let acknowledged = context.writes.withLock { $0.acknowledged }
            context.writes.withLock { $0.acknowledgedID = nil }
            let sent = context.writes.withLock { $0.sent }
            var loss = Loss(error: .cancelled)
            do {
                let value = try await body()
                settled(context, attempt)
                return value
            } catch .cancelled where context.writes.withLock({ $0.sent }) > sent {
                // Cancelled after the write was handed to the network: the server may hold it, or get it late (PHP
                // does not stop when the client goes away). The look-up runs outside the cancelled task; a creation not
                // found is open (D3), never a clean cancellation.
                loss.wasAcknowledged = context.writes.withLock { $0.acknowledged } > acknowledged
                loss.acknowledgedID = loss.wasAcknowledged ? context.writes.withLock { $0.acknowledgedID } : nil
                if OperationDeadline.current?.hasPassed == true { loss.error = .timeout }
                guard let value = try await find(context, attempt, loss, lookUp) else {
                    // A save, rollback or delete proven not done is a clean cancellation (doing it again is harmless);
                    // a creation not found is open: the server may still commit it.
                    if attempt.resendable, loss.error == .cancelled { throw .cancelled }
                    throw remembered(context, attempt, attempt.open(.notFoundYet, loss: loss.error))
                }
                settled(context, attempt)
                return value
            } catch {
                // Never handed to the network (a login refresh failed first): not a lost answer.
                guard context.writes.withLock({ $0.sent }) > sent else { throw error }
                // The write answered as done and then any failure — its read-back refused (500, 404, 401) or the
                // device gone offline, not only a lost answer: the write is done and is remembered so, never sent
                // again by a second tap (R3; the 2.x add_meeting whose get_meetings then failed made a second meeting).
                loss.wasAcknowledged = context.writes.withLock { $0.acknowledged } > acknowledged
                // A refusal that may mean "already done" (a deletion of what is gone) is looked up too.
                loss.isRefusal = !loss.wasAcknowledged && also(error)
                guard loss.isRefusal || loss.wasAcknowledged || error.leavesWriteOpen else { throw error }
                loss.error = error
                loss.acknowledgedID = loss.wasAcknowledged ? context.writes.withLock { $0.acknowledgedID } : nil
            }
            if let value = try await find(context, attempt, loss, lookUp) {
                settled(context, attempt)
                return value
            }
            if loss.isRefusal { throw loss.error }
            // Not found after a loss that came after sending: a creation may still be done (a gateway that answered
            // 502 at once and passes the request on later, a reset while PHP runs): never sent again on its own.
            // Nor is any write after a timeout or a gateway that gave up waiting.
            guard attempt.resendable, !loss.error.serverMayStillRun else {
                throw remembered(context, attempt, attempt.open(.notFoundYet, loss: loss.error))
            }
            // Proven not done and idempotent: sent again after a passing failure, under the retry policy.
            let policy = context.transport.retryPolicy
            guard loss.error.isPassingLoss, retries < policy.maximumRetries else { throw loss.error }
            retries += 1
            do {
                try await Wait.sleep(seconds: min(policy.delay(beforeRetry: retries), 3_600))
            } catch {
                throw .cancelled
            }
            // Another login since: not sent again under it (D6).
            guard attempt.loginHolds(context) else { throw attempt.open(.loginChanged, loss: loss.error) }
        }
    }

    /// The second attempt of a creation whose first stayed open: waits until the settle time after the first attempt
    /// has passed, then looks in the first attempt's window. Found → that value; not found → `nil` (it may be sent).
    private static func lookAgain<Value: Sendable>(_ context: OperationContext, _ attempt: WriteAttempt,
                                                   _ lookUp: @escaping LookUp<Value>) async throws(BMLTError) -> Value? {
        let openWrites = context.adminSession.openWrites
        let wait = attempt.since.addingTimeInterval(openWrites.settleTime.withLock { $0 }).timeIntervalSinceNow
        if wait > 0, !(attempt.openKey.map(openWrites.isDone) ?? false) {
            // Nothing is sent yet: a cancel here is a clean cancellation.
            do { try await Wait.sleep(seconds: min(wait, 3_600)) } catch { throw .cancelled }
        }
        let loss = Loss(error: attempt.openKey.flatMap { openWrites.loss($0) } ?? .cancelled)
        guard let value = try await find(context, attempt, loss, lookUp) else { return nil }
        settled(context, attempt)
        return value
    }

    /// Remembers an attempt whose outcome is now known to be done.
    private static func settled(_ context: OperationContext, _ attempt: WriteAttempt) {
        if let key = attempt.openKey { context.adminSession.openWrites.done(key, since: attempt.since) }
    }

    /// Remembers a creation whose outcome stayed open — or that is known done though unread (R3: the next attempt
    /// works from its id, never creates it again) — and returns its error.
    private static func remembered(_ context: OperationContext, _ attempt: WriteAttempt, _ error: BMLTError) -> BMLTError {
        if let key = attempt.openKey, case .writeOutcomeUnknown(let open) = error {
            if open.isKnownDone {
                context.adminSession.openWrites.done(key, since: attempt.since, OpenWrites.Done(id: open.itemID))
            } else {
                context.adminSession.openWrites.open(key, since: attempt.since, loss: open.loss)
            }
        }
        return error
    }

    /// Looks up what the server holds after `loss`: the value a clean success gives, `nil` when proven not done, or
    /// the open outcome thrown.
    private static func find<Value: Sendable>(_ context: OperationContext, _ attempt: WriteAttempt, _ loss: Loss,
                                              _ lookUp: @escaping LookUp<Value>) async throws(BMLTError) -> Value? {
        // The cache may hold what the write changed: it goes whatever the look-up finds.
        context.cache?.removeEntries(ofRoot: context.root.absoluteString)
        // Another login since the write: nothing is looked up under it (its user would not be this write's).
        guard attempt.loginHolds(context) else {
            throw remembered(context, attempt, attempt.open(.loginChanged, loss: loss.error))
        }
        context.transport.log.lookUp(attempt.write.name, loss: loss.error)
        let since = attempt.since
        let verdict: LookUpVerdict<Value>
        do throws(BMLTError) {
            verdict = try await race(budget: attempt.lookUpBudget, late: .failure(.timeout)) { () async -> Result<LookUpVerdict<Value>, BMLTError> in
                // A look-up's reads have a budget of their own: at most one retry each.
                await Transport.$retryCap.withValue(1) { () async -> Result<LookUpVerdict<Value>, BMLTError> in
                    do throws(BMLTError) { return .success(try await lookUp(since, loss.acknowledgedID)) } catch { return .failure(error) }
                }
            }.get()
        } catch .cancelled {
            // Cut off: what the server holds is not known (never a "try again") — unless the write was answered done.
            throw remembered(context, attempt, acknowledged(attempt, loss, .cancelled) ?? attempt.open(.lookUpFailed(.cancelled), loss: loss.error))
        } catch .unauthorized(let message) {
            // The login ended between the write and the look-up; the connection keeps no password to open it again.
            if context.adminSession.end(ifGeneration: attempt.generation) { context.transport.cookies.removeAll() }
            throw remembered(context, attempt, acknowledged(attempt, loss, .unauthorized(message: message))
                                 ?? attempt.open(.loginExpired, loss: loss.error))
        } catch {
            // The server's own refusal stands when the look-up cannot say more (nothing was done by this request).
            if loss.isRefusal { throw loss.error }
            // The write itself was answered with a success (its read-back failed): done, whatever the look-up says.
            // Remembered as done (R3): a second tap never sends it again, and works from the id its answer named.
            throw remembered(context, attempt, acknowledged(attempt, loss, error) ?? attempt.open(.lookUpFailed(error), loss: loss.error))
        }
        switch verdict {
        case .done(let value): return value
        case .notDone: return nil
        case .open(let finding, let found):
            // A refusal stands when the look-up cannot prove it done (a format key its language has already).
            if loss.isRefusal { throw loss.error }
            throw remembered(context, attempt, attempt.open(finding, loss: loss.error, id: found))
        }
    }

    /// The outcome of a write its own answer acknowledged whose look-up then failed with `error`: done, whatever the
    /// look-up could not say, remembered so (R3: a second tap never sends it again, and works from the id its answer
    /// named); `nil` when the write was not acknowledged.
    private static func acknowledged(_ attempt: WriteAttempt, _ loss: Loss, _ error: BMLTError) -> BMLTError? {
        guard loss.wasAcknowledged else { return nil }
        let id = loss.acknowledgedID ?? attempt.itemID
        return attempt.open(.doneButUnread(id: id, error), loss: loss.error, id: id)
    }

    /// `work`, run outside the caller's task (neither the whole call's deadline nor a cancel cuts it off), raced against
    /// `budget` seconds (D1): at the budget, `late` is returned at once and `work` is cancelled without being waited
    /// for. With no budget (`nil`: no deadline configured) no timer is set.
    static func race<Result: Sendable>(budget: TimeInterval?, late: Result,
                                       _ work: @escaping @Sendable () async -> Result) async -> Result {
        let outcome = OneShot<Result>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            outcome.wait(continuation)
            let task = Task { outcome.resolve(await work()) }
            guard let budget else { return }
            Task {
                try? await Wait.sleep(seconds: budget)
                if outcome.resolve(late) { task.cancel() }
            }
        }
    }

    /// A write with no look-up (server administration changes other than creations, a message to a contact): a lost
    /// answer is reported as an open outcome, never as a failure to try again.
    /// Cancelled after its request was sent, the outcome is open too (the server may hold it).
    static func unsettled<Value: Sendable>(_ context: OperationContext, write: BMLTWriteKind, id: Int? = nil,
                                           _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        let sent = context.writes.withLock { $0.sent }
        do {
            return try await body()
        } catch .cancelled where context.writes.withLock({ $0.sent }) > sent {
            throw .writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: write, itemID: id, loss: .cancelled, finding: .notLookedUp))
        } catch {
            // An answer that arrived but says nothing readable keeps its own sentence (which never says "Try again").
            guard error.leavesWriteOpen, !error.isMalformedResponse else { throw error }
            throw .writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: write, itemID: id, loss: error, finding: .notLookedUp))
        }
    }
}

extension RequestLog {
    /// The line saying a write's answer was lost and the server is asked what it holds (at the `.requests` level; the
    /// look-up's own requests are logged as any other, their secrets removed).
    func lookUp(_ write: String, loss: BMLTError) {
        // English, whatever the device's language (D18): `description`, never `localizedDescription`.
        note("the answer to \(write) was lost (\(loss.description)): looking up what the server now holds")
    }
}

/// A result given once: the first `resolve` wins and resumes the waiting continuation; later ones are dropped.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Value, Never>?, value: Value?, done: Bool)>((nil, nil, false))

    /// Registers the continuation to resume (at once if a value came first).
    func wait(_ continuation: CheckedContinuation<Value, Never>) {
        let early: Value? = state.withLock { state in
            if let value = state.value { return value }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Gives the value; `true` when it was the first.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let (first, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard !state.done else { return (false, nil) }
            state.done = true
            guard let continuation = state.continuation else { state.value = value; return (true, nil) }
            state.continuation = nil
            return (true, continuation)
        }
        continuation?.resume(returning: value)
        return first
    }
}
