import Foundation

/// Cache writes kept back: those of a read sent before it was known to be wanted (a read of a `ReadRound`), or of a
/// read operation whose outcome may come after its deadline (`DeadlineRace`). They reach the cache when the read is
/// used (`release`), and never when it is not (`drop`; an entry written piece by piece is then removed with its writer).
/// A hold inside another (a round's read in a raced operation) releases into the outer one, which decides in the end.
final class CacheHold: Sendable {
    private enum Phase { case holding, released, dropped }
    private let state = Locked<(phase: Phase, writes: [@Sendable () -> Void])>((.holding, []))
    /// Where released writes go; `nil`: to the cache.
    private let outer: CacheHold?

    init(inside outer: CacheHold? = nil) { self.outer = outer }

    /// Runs `write` now when the hold was released, keeps it while holding, forgets it once dropped.
    func write(_ write: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            switch state.phase {
            case .holding: state.writes.append(write); return false
            case .released: return true
            case .dropped: return false
            }
        }
        if now { pass(write) }
    }

    /// The read is used: its writes go to the cache (or to the outer hold), now and from now on.
    func release() {
        let writes = state.withLock { state -> [@Sendable () -> Void] in
            guard case .holding = state.phase else { return [] }
            state.phase = .released
            defer { state.writes = [] }
            return state.writes
        }
        for write in writes { pass(write) }
    }

    private func pass(_ write: @escaping @Sendable () -> Void) {
        if let outer { outer.write(write) } else { write() }
    }

    /// The read is not used: nothing of it reaches the cache.
    func drop() {
        state.withLock { state in
            guard case .holding = state.phase else { return }
            state.phase = .dropped
            state.writes = []
        }
    }
}

/// A read of a round of reads run at once, in a task of its own (task-local values inherited, so the request log
/// follows), cancellable on its own. Its cache writes wait until the round uses its result (`use`).
final class RoundRead<Value: Sendable>: Sendable, RoundMember {
    private let task: Task<Result<Value, BMLTError>, Never>
    private let hold: CacheHold

    init(_ context: OperationContext, _ work: @escaping @Sendable (OperationContext) async throws(BMLTError) -> Value) {
        let hold = CacheHold(inside: context.cacheHold)
        let held = context.holdingCacheWrites(hold)
        self.hold = hold
        task = Task {
            do throws(BMLTError) { return .success(try await work(held)) } catch { return .failure(error) }
        }
    }

    /// Its outcome, which from now on is the round's: its cache writes are released.
    func use() async -> Result<Value, BMLTError> {
        let outcome = await task.value
        hold.release()
        return outcome
    }

    func cancel() { task.cancel() }

    /// Cancelled if still running, its cache writes dropped unless it was used, and its end waited for.
    func discard() async {
        task.cancel()
        hold.drop()
        _ = await task.value
    }
}

/// What a round needs of each read, whatever its value.
protocol RoundMember: Sendable {
    func cancel()
    func discard() async
}

/// Reads sent at once, some before it is known whether their answers will be wanted (validation sends the service
/// bodies and formats beside GetServerInfo). The round ends with `end()`: every read not used is cancelled and its
/// cache writes dropped, and every read has finished before the caller announces anything, so a request never
/// outlives its operation and nothing of a discarded read reaches the stores, the cache or the notifications.
/// That wait never delays a `.timeout`: the round runs in a read operation, which its deadline settles at once
/// (`DeadlineRace`), leaving the round to end behind it.
final class ReadRound: Sendable {
    private let context: OperationContext
    private let members = Locked<(reads: [any RoundMember], cancelled: Bool)>(([], false))

    init(_ context: OperationContext) { self.context = context }

    /// Starts a read now (cancelled at once when the round already is).
    func start<Value: Sendable>(_ work: @escaping @Sendable (OperationContext) async throws(BMLTError) -> Value) -> RoundRead<Value> {
        let read = RoundRead(context, work)
        let cancelled = members.withLock { members -> Bool in
            members.reads.append(read)
            return members.cancelled
        }
        if cancelled { read.cancel() }
        return read
    }

    /// Cancels every read, and those started later (the operation was cancelled).
    func cancel() {
        let reads = members.withLock { members -> [any RoundMember] in
            members.cancelled = true
            return members.reads
        }
        for read in reads { read.cancel() }
    }

    /// Ends the round: see the type's description.
    func end() async {
        for read in members.withLock({ $0.reads }) { await read.discard() }
    }

    /// `body` with the round's reads cancelled as soon as the calling task is, then the round ended.
    func run<Value>(_ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        let outcome: Result<Value, BMLTError> = await withTaskCancellationHandler {
            do throws(BMLTError) { return .success(try await body()) } catch { return .failure(error) }
        } onCancel: {
            cancel()
        }
        await end()
        return try outcome.get()
    }
}
