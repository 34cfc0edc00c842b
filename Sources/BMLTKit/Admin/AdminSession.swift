import Foundation

/// The administrator's session on one connection: which interface it uses and, for REST, the bearer token.
///
/// Thread-safe: operations read it off the main actor. The token lives only here, in memory; it is never
/// written to disk, logged, or shown by `description`. The legacy interface's session is the PHP cookie in the
/// connection's own `CookieJar`; this object only remembers that a legacy login is open.
///
/// Every login starts a new *generation*. A request that fails with 401 ends the session only if it was sent
/// in the current generation, so an old request failing late never logs out a newer login.
final class AdminSession: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The administration interface a login uses.
    enum Interface: Sendable, Hashable {
        /// REST `/api/v1` with a bearer token (3.x, 4.x).
        case rest
        /// `local_server/server_admin/json.php` with a cookie session (2.x).
        case legacy
    }

    /// A REST token and when it expires.
    struct Token: Sendable {
        var value: String
        var expiresAt: Date
    }

    private struct State {
        var interface: Interface?
        var token: Token?
        var userID: Int?
        var generation = 0
        var refresh: Task<Result<Token, BMLTError>, Never>?
    }

    private let state = Locked(State())
    /// The creations whose outcome stayed open, kept while the connection lives (see `OpenWrites`).
    let openWrites = OpenWrites()
    private let clock: @Sendable () -> Date
    /// A token is refreshed when it has less than this many seconds left.
    let refreshMargin: TimeInterval

    /// A logged-out session. `clock` tells the time (tests move it).
    init(refreshMargin: TimeInterval = 300, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.refreshMargin = refreshMargin
        self.clock = clock
    }

    /// The interface of the open login, `nil` when logged out.
    var interface: Interface? { state.withLock { $0.interface } }
    /// Whether a login is open.
    var isLoggedIn: Bool { interface != nil }
    /// The current generation (changes at every login and logout).
    var generation: Int { state.withLock { $0.generation } }
    /// The REST user id of the open login.
    var userID: Int? { state.withLock { $0.userID } }

    /// Opens a REST login with its first token; returns the new generation.
    @discardableResult
    func begin(token: Token, userID: Int?) -> Int {
        let (generation, refresh) = state.withLock { state in
            let refresh = state.refresh
            state = State(interface: .rest, token: token, userID: userID, generation: state.generation + 1)
            return (state.generation, refresh)
        }
        refresh?.cancel()   // outside the lock: cancelling runs the task's cancellation handlers here and now
        return generation
    }

    /// Opens a legacy (cookie) login; returns the new generation.
    @discardableResult
    func beginLegacy() -> Int {
        let (generation, refresh) = state.withLock { state in
            let refresh = state.refresh
            state = State(interface: .legacy, generation: state.generation + 1)
            return (state.generation, refresh)
        }
        refresh?.cancel()
        return generation
    }

    /// Ends the session (forgets the token) if it is still `generation` (any generation when `nil`). Returns
    /// whether a login was open and is now closed.
    @discardableResult
    func end(ifGeneration generation: Int? = nil) -> Bool {
        let (ended, refresh) = state.withLock { state -> (Bool, Task<Result<Token, BMLTError>, Never>?) in
            guard state.interface != nil, generation == nil || generation == state.generation else { return (false, nil) }
            let refresh = state.refresh
            state = State(generation: state.generation + 1)
            return (true, refresh)
        }
        refresh?.cancel()
        return ended
    }

    /// The token to send with a REST request. When it expires within `refreshMargin`, it is refreshed first
    /// with `refresh` (given the old token); concurrent callers share one refresh, and the new token replaces
    /// the old in one step (the server keeps the old one valid for 10 seconds, so requests already sent with it
    /// still succeed). A refresh that fails for a passing reason leaves the old token in use while it lasts.
    func bearerToken(refresh: @escaping @Sendable (String) async throws(BMLTError) -> Token) async throws(BMLTError) -> String {
        typealias Refresh = Task<Result<Token, BMLTError>, Never>
        enum Next { case use(String), wait(Refresh, generation: Int, old: Token) }
        enum Step { case decided(Next), start(Token) }
        let now = clock()
        // A refresh this call made and has not installed yet: it waits at `gate` for the word to run (`true`) or not.
        // Made outside the lock (no task is started while holding one), then installed under it unless another
        // caller's came first; one that is not installed never calls `refresh`.
        var made: (task: Refresh, old: String, gate: AsyncStream<Bool>.Continuation)?
        defer { made?.gate.yield(false); made?.gate.finish() }
        var next: Next
        deciding: while true {
            // `Locked.withLock` rethrows untyped errors, so the locked sections hand back a `Result`.
            let step = try state.withLock { (state: inout State) -> Result<Step, BMLTError> in
                guard state.interface == .rest, let token = state.token else { return .failure(.unauthorized(message: nil)) }
                if token.expiresAt.timeIntervalSince(now) > refreshMargin { return .success(.decided(.use(token.value))) }
                if let running = state.refresh { return .success(.decided(.wait(running, generation: state.generation, old: token))) }
                guard let made, made.old == token.value else { return .success(.start(token)) }
                state.refresh = made.task
                return .success(.decided(.wait(made.task, generation: state.generation, old: token)))
            }.get()
            let token: Token
            switch step {
            case .decided(let decided):
                next = decided
                break deciding
            case .start(let stale):
                token = stale
            }
            made?.gate.yield(false)
            made?.gate.finish()
            let (gate, opener) = AsyncStream.makeStream(of: Bool.self)
            let old = token.value
            let task = Refresh { () async -> Result<Token, BMLTError> in
                var word = gate.makeAsyncIterator()
                guard await word.next() == true else { return .failure(.cancelled) }
                do throws(BMLTError) { return .success(try await refresh(old)) } catch { return .failure(error) }
            }
            made = (task, old, opener)
        }
        if case .wait(let task, _, _) = next, let mine = made, mine.task == task {
            mine.gate.yield(true)   // installed: let it run
            mine.gate.finish()
            made = nil
        }
        switch next {
        case .use(let value):
            return value
        case .wait(let task, let generation, let old):
            // Waited for with a cancellation handler: a caller whose call is cancelled (its deadline passed) stops
            // waiting at once; the shared refresh goes on for the others, and its result is installed by the next caller.
            guard let result = await SharedWait.value(of: task) else { throw .cancelled }
            return try state.withLock { (state: inout State) -> Result<String, BMLTError> in
                guard state.generation == generation, state.interface == .rest else { return .failure(.unauthorized(message: nil)) }
                state.refresh = nil
                switch result {
                case .success(let fresh):
                    state.token = fresh
                    return .success(fresh.value)
                case .failure(let error):
                    if case .unauthorized = error { return .failure(error) }
                    if old.expiresAt > now { return .success(state.token?.value ?? old.value) }
                    return .failure(error)
                }
            }.get()
        }
    }

    /// The token without refreshing it (for `auth/logout`), `nil` when there is none.
    var currentToken: String? { state.withLock { $0.token?.value } }

    /// Never shows the token.
    var description: String {
        let (interface, generation) = state.withLock { ($0.interface, $0.generation) }
        return "AdminSession(\(interface.map { "\($0)" } ?? "logged out"), generation \(generation))"
    }

    /// Never shows the token.
    var debugDescription: String { description }
}

/// Waiting for a task shared with other callers (the token refresh) without tying the caller to it: the wait ends with
/// the task's value, or with `nil` as soon as the waiting task is cancelled, leaving the shared task running.
private final class SharedWait<Value: Sendable>: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Value?, Never>?, done: Bool)>((nil, false))

    /// `task`'s value, or `nil` when the calling task is cancelled first.
    static func value(of task: Task<Value, Never>) async -> Value? {
        let wait = SharedWait()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                wait.begin(continuation)
                Task { wait.end(await task.value) }
            }
        } onCancel: {
            wait.end(nil)
        }
    }

    private func begin(_ continuation: CheckedContinuation<Value?, Never>) {
        let done = state.withLock { state -> Bool in
            if !state.done { state.continuation = continuation }
            return state.done
        }
        if done { continuation.resume(returning: nil) }
    }

    /// The first end wins; the continuation is resumed outside the lock.
    private func end(_ value: Value?) {
        let continuation = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }
}
