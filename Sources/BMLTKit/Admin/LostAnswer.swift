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

/// Runs a write; when its answer is lost, finds out what the server holds before reporting (see `WriteLookUp`), and
/// sends it again only when the look-up proves it was not done and the loss was a passing one, under the
/// connection's retry policy.
enum LostAnswer {
    typealias LookUp<Value: Sendable> = @Sendable (_ since: Date) async throws(BMLTError) -> LookUpVerdict<Value>

    /// The most retries a look-up's reads get (set for the look-up's task; `nil` elsewhere: the retry policy's).
    @TaskLocal static var lookUpRetries: Int?

    /// What is known about one write whose answer was lost.
    struct Loss: Sendable {
        var write: BMLTUnknownWriteOutcome.Write
        var meetingID: Int?
        var generation: Int
        var error: BMLTError
        /// The server refused the write in a way that may mean "already done" (its refusal stands if the look-up fails).
        var isRefusal = false
        /// The server answered the write itself with a 2xx (what failed came after it).
        var wasAcknowledged = false
        var since: Date

        func open(_ finding: BMLTUnknownWriteOutcome.Finding, id: Int? = nil) -> BMLTError {
            .writeOutcomeUnknown(BMLTUnknownWriteOutcome(write: write, meetingID: id ?? meetingID, loss: error, finding: finding))
        }
    }

    static func settle<Value: Sendable>(
        _ context: OperationContext, write: BMLTUnknownWriteOutcome.Write, meetingID: Int?, generation: Int,
        also: (BMLTError) -> Bool = { _ in false },
        _ body: () async throws(BMLTError) -> Value,
        lookUp: @escaping LookUp<Value>
    ) async throws(BMLTError) -> Value {
        var retries = 0
        while true {
            let since = Date()
            let acknowledged = context.acknowledgedWrites.withLock { $0 }
            let sent = context.sentWrites.withLock { $0 }
            var loss = Loss(write: write, meetingID: meetingID, generation: generation, error: .cancelled, since: since)
            do {
                return try await body()
            } catch .cancelled where context.sentWrites.withLock({ $0 }) > sent {
                // Cancelled after the write was handed to the network: the server may hold it. The look-up runs
                // outside the cancelled task; not found after a cancel, it is a clean cancellation (never sent again).
                loss.wasAcknowledged = context.acknowledgedWrites.withLock { $0 } > acknowledged
                // Cut off by the whole call's deadline, the write timed out: the server may still be running it.
                let timedOut = OperationDeadline.current?.hasPassed == true
                if timedOut { loss.error = .timeout }
                guard let value = try await find(context, loss, lookUp) else {
                    if timedOut { throw loss.open(.notFoundYet) }
                    throw .cancelled
                }
                return value
            } catch {
                // A refusal that may mean "already done" (a deletion of what is gone) is looked up too.
                loss.isRefusal = also(error)
                guard loss.isRefusal || error.leavesWriteOpen else { throw error }
                loss.error = error
                loss.wasAcknowledged = context.acknowledgedWrites.withLock { $0 } > acknowledged
            }
            if let value = try await find(context, loss, lookUp) { return value }
            // Not found after a timeout or a gateway that gave up waiting: the server may still be running it. Never
            // sent again; the host is told to check later.
            if loss.error.serverMayStillRun { throw loss.open(.notFoundYet) }
            // Proven not done: sent again after a passing failure, under the retry policy; otherwise the loss is the error.
            let policy = context.transport.retryPolicy
            guard loss.error.isPassingLoss, retries < policy.maximumRetries else { throw loss.error }
            retries += 1
            do {
                try await Task.sleep(nanoseconds: UInt64(policy.delay(beforeRetry: retries) * 1_000_000_000))
            } catch {
                throw .cancelled
            }
        }
    }

    /// Looks up what the server holds after `loss`: the value a clean success gives, `nil` when proven not done, or
    /// the open outcome thrown.
    private static func find<Value: Sendable>(_ context: OperationContext, _ loss: Loss,
                                              _ lookUp: @escaping LookUp<Value>) async throws(BMLTError) -> Value? {
        // The cache may hold what the write changed: it goes whatever the look-up finds.
        context.cache?.removeEntries(ofRoot: context.root.absoluteString)
        context.transport.log.lookUp(loss.write.rawValue, loss: loss.error)
        let verdict: LookUpVerdict<Value>
        do throws(BMLTError) {
            verdict = try await bounded(context, loss.since, lookUp).get()
        } catch .cancelled {
            // Cut off: what the server holds is not known (never a "try again").
            throw loss.open(.lookUpFailed(.cancelled))
        } catch .unauthorized {
            // The login ended between the write and the look-up; the connection keeps no password to open it again.
            if context.adminSession.end(ifGeneration: loss.generation) { context.transport.cookies.removeAll() }
            throw loss.open(.loginExpired)
        } catch {
            // The server's own refusal stands when the look-up cannot say more (nothing was done by this request).
            if loss.isRefusal { throw loss.error }
            // The write itself was answered with a 2xx (its read-back failed): done, whatever the look-up says.
            if loss.wasAcknowledged { throw loss.open(.doneButUnread(id: loss.meetingID, error)) }
            throw loss.open(.lookUpFailed(error))
        }
        switch verdict {
        case .done(let value): return value
        case .notDone: return nil
        case .open(let finding, let found): throw loss.open(finding, id: found)
        }
    }

    /// The look-up, run outside the operation's task (neither the whole call's deadline nor a cancel cuts it off) with
    /// a budget of its own: at most one retry per read and the configured `timeout` in all (then `.timeout`).
    private static func bounded<Value: Sendable>(_ context: OperationContext, _ since: Date,
                                                 _ lookUp: @escaping LookUp<Value>) async -> Result<LookUpVerdict<Value>, BMLTError> {
        let budget = UInt64(max(context.transport.timeout, 0.1) * 1_000_000_000)
        return await Task { () async -> Result<LookUpVerdict<Value>, BMLTError> in
            await withTaskGroup(of: Result<LookUpVerdict<Value>, BMLTError>?.self) { group in
                group.addTask {
                    await $lookUpRetries.withValue(1) { () async -> Result<LookUpVerdict<Value>, BMLTError>? in
                        do throws(BMLTError) { return .success(try await lookUp(since)) } catch { return .failure(error) }
                    }
                }
                group.addTask {
                    do { try await Task.sleep(nanoseconds: budget) } catch { return nil }
                    return .failure(.timeout)
                }
                var first: Result<LookUpVerdict<Value>, BMLTError> = .failure(.timeout)
                for await result in group {
                    guard let result else { continue }
                    first = result
                    break
                }
                group.cancelAll()
                return first
            }
        }.value
    }

    /// A write with no look-up (server administration changes other than creations, a message to a contact): a lost
    /// answer is reported as an open outcome, never as a failure to try again.
    /// Cancelled after its request was sent, the outcome is open too (the server may hold it).
    static func unsettled<Value: Sendable>(_ context: OperationContext, write: BMLTUnknownWriteOutcome.Write, id: Int? = nil,
                                           _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        let sent = context.sentWrites.withLock { $0 }
        do {
            return try await body()
        } catch .cancelled where context.sentWrites.withLock({ $0 }) > sent {
            throw .writeOutcomeUnknown(BMLTUnknownWriteOutcome(write: write, meetingID: id, loss: .cancelled, finding: .notLookedUp))
        } catch {
            // An answer that arrived but says nothing readable keeps its own sentence (which never says "Try again").
            guard error.leavesWriteOpen, !error.isMalformedResponse else { throw error }
            throw .writeOutcomeUnknown(BMLTUnknownWriteOutcome(write: write, meetingID: id, loss: error, finding: .notLookedUp))
        }
    }
}

extension RequestLog {
    /// The line saying a write's answer was lost and the server is asked what it holds (at the `.requests` level; the
    /// look-up's own requests are logged as any other, their secrets removed).
    func lookUp(_ write: String, loss: BMLTError) {
        note("the answer to \(write) was lost (\(loss.localizedDescription)): looking up what the server now holds")
    }
}
