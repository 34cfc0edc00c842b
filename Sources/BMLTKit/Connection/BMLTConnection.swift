import Foundation
import Observation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The connection manager for one BMLT root server.
///
/// It validates the server, keeps the HTTP session (its own cookies, and the login token) for administration,
/// tracks every request in flight, and announces every outcome through notifications, the observable stores
/// and the `async` forms. Many requests run at once; cancelling one leaves the others, the session and the
/// login alone.
/// ```swift
/// let connection = BMLTConnection(rootServerURL: URL(string: "https://example.org/main_server")!)
/// NotificationCenter.default.addObserver(forName: .bmltServerValidated, object: connection, queue: .main) { note in
///     print(note.bmltIsServerValid == true ? "ready" : note.bmltError!.localizedDescription)
/// }
/// connection.connect()
/// // or: let info = try await connection.validate()
/// ```
@MainActor
@Observable
public final class BMLTConnection {
    /// The root server URL, normalised (trailing slashes and pasted suffixes removed).
    public let rootServerURL: URL
    /// The configuration given at creation.
    @ObservationIgnored public let configuration: BMLTConfiguration
    /// The server: info, formats, service bodies (flat and tree), languages, validity.
    public let server = BMLTServerStore()
    /// The last meeting search: meetings, the formats they use, the criteria.
    public let search = BMLTSearchStore()
    /// The last change list.
    public let changes = BMLTChangeStore()
    /// The administrator's login, user and permissions.
    public let admin = BMLTAdminStore()
    /// The most recent error of any operation on this connection (kept until the next error).
    public internal(set) var lastError: BMLTError?
    /// The requests in flight, oldest first.
    public private(set) var inFlightRequests: [BMLTRequest] = []

    @ObservationIgnored let transport: Transport
    /// The deadlines of whole operations (`BMLTConfiguration.timeout`; see `OperationDeadline`).
    @ObservationIgnored private let operationDeadlines: DeadlineQueue
    @ObservationIgnored private let rootURLError: BMLTError?
    /// A `timeout` that is not a number of seconds above 0, reported by every call (see `TimeoutBudget`).
    @ObservationIgnored private let timeoutError: BMLTError?
    @ObservationIgnored private let poster: EventPoster
    /// The `events` subscribers (shared with the poster; readable from any isolation).
    @ObservationIgnored nonisolated let eventBroadcaster: EventBroadcaster
    @ObservationIgnored private var registry: RequestRegistry!
    /// The administrator's session (REST token in memory, or the legacy cookie login).
    @ObservationIgnored let adminSession = AdminSession()
    /// The last `searchNearby` running, cancelled when the next `searchNearby` starts (nothing else cancels it or is cancelled by it).
    @ObservationIgnored var nearbySearch: BMLTRequest?

    /// A connection to the root server at `rootServerURL` (e.g. `https://example.org/main_server`). Nothing is
    /// sent until `connect()` or another call. An unusable URL, or a `timeout` that is not a number of seconds above 0,
    /// is reported by every call, as an error (`.invalidArgument(.invalidTimeout(_:))` for the timeout).
    public init(rootServerURL: URL, configuration: BMLTConfiguration = BMLTConfiguration()) {
        self.configuration = configuration
        do throws(BMLTError) {
            self.rootServerURL = try RootServerURL.normalize(rootServerURL, allowsInsecureHTTP: configuration.allowsInsecureHTTP)
            rootURLError = nil
        } catch {
            self.rootServerURL = rootServerURL
            rootURLError = error
        }
        transport = Transport(configuration: configuration)
        // No value of `timeout` traps (`TimeoutBudget`): an infinite or huge one is no deadline, one that is not a number
        // of seconds above 0 is refused by every call, as an unusable URL is (no deadline is armed for it: a refusal, not
        // a `.timeout`).
        let budget = TimeoutBudget(configuration.timeout)
        operationDeadlines = DeadlineQueue(timeout: budget == .invalid ? .infinity : configuration.timeout)
        switch budget {
        case .seconds:
            timeoutError = nil
        case .unlimited:
            timeoutError = nil
            transport.log.warning("the timeout is infinite: a server that never answers holds a call until it is cancelled")
        case .invalid:
            timeoutError = .invalidArgument(.invalidTimeout(configuration.timeout))
            transport.log.warning("the timeout is not a number of seconds above 0: every call is refused")
        }
        poster = EventPoster(configuration: configuration)
        eventBroadcaster = poster.broadcaster
        registry = RequestRegistry(startDelay: configuration.progressStartDelay,
                                   stopDelay: configuration.progressStopDelay) { [unowned self] visible in
            self.emit(visible ? .progressDidStart : .progressDidStop)
        }
    }

    /// Ends every `events` sequence.
    deinit {
        eventBroadcaster.finishAll()
    }

    /// A connection from a URL string; `nil` when the text is not a URL at all.
    public convenience init?(rootServerURLString: String, configuration: BMLTConfiguration = BMLTConfiguration()) {
        guard let url = URL(string: rootServerURLString.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self.init(rootServerURL: url, configuration: configuration)
    }

    /// Whether the last validation succeeded.
    public var isValid: Bool { server.isValid }
    /// What the server said about itself at the last successful validation.
    public var serverInfo: BMLTServerInfo? { server.info }
    /// What the server supports, detected at validation (empty before).
    public var capabilities: BMLTCapabilities { server.capabilities }
    /// Whether any request is in flight.
    public var isBusy: Bool { !inFlightRequests.isEmpty }

    /// Cancels every request in flight. Each posts `.bmltRequestCancelled`; the session and login remain.
    public func cancelAllRequests() {
        for request in inFlightRequests { request.cancel() }
    }

    // MARK: - The single perform path

    /// Starts an operation and returns its handle (the fire-and-forget form).
    @discardableResult
    func start<Value>(_ operation: Operation<Value>) -> BMLTRequest {
        launch(operation).request
    }

    /// Runs an operation and returns its value (the `async` form). Cancelling the calling task cancels it.
    func run<Value>(_ operation: Operation<Value>, started: (BMLTRequest) -> Void = { _ in }) async throws(BMLTError) -> Value {
        let (request, task) = launch(operation)
        started(request)
        let outcome = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            request.cancel()
        }
        return try outcome.get()
    }

    /// Registers and starts an operation; its task ends once the outcome has been delivered.
    func launch<Value>(_ operation: Operation<Value>) -> (request: BMLTRequest, task: Task<Result<Value, BMLTError>, Never>) {
        let request = BMLTRequest(kind: operation.kind)
        registry.begin(request)
        inFlightRequests.append(request)
        operation.began?(self, request)
        let deadline = OperationDeadline()
        // A read's outcome is settled by its deadline itself (`DeadlineRace`); other operations end when their work does.
        let race = operation.endsAtDeadline ? DeadlineRace<Value>() : nil
        // A read's work starts here, not when its task first runs on the main actor: 500 operations launched at once
        // each waited for its turn there before sending anything (issue 59). Not when the cache answers first.
        let early = race.flatMap { race in deliversFromCacheFirst(operation) ? nil : startRace(operation, request, deadline, race) }
        let task = Task { @MainActor in await self.execute(operation, request, deadline, race, early: early) }
        request.onCancel {
            task.cancel()
            if early != nil { race?.abandon() }   // the work already runs: settle the call now, as `raced` would
        }
        deadline.arm(on: operationDeadlines) {
            request.noteDeadlinePassed()
            race?.expire()
            task.cancel()
        }
        return (request, task)
    }

    /// A request from start to end: the cached delivery first when the policy says so, the work, then the one outcome.
    /// `work` and `finish` are functions of their own (`@inline(never)`): inlined, their locals were laid out in this
    /// task frame, which stays allocated while the request waits on the network (`bmlt-bench`'s soak measured the frames
    /// of 500 validations in flight at most of the process's peak heap).
    /// The whole call's `timeout` (`deadline`) ends the work with `.timeout`. A read (`race`) ends at the deadline
    /// itself, its work left to wind down behind it (see `DeadlineRace`); other operations when their work returns.
    private func execute<Value>(_ operation: Operation<Value>, _ request: BMLTRequest, _ deadline: OperationDeadline,
                                _ race: DeadlineRace<Value>?, early: Result<Void, BMLTError>?) async -> Result<Value, BMLTError> {
        if deliversFromCacheFirst(operation) {
            await deliverFromCache(operation)
        }
        var outcome: Result<Value, BMLTError>
        if let race {
            outcome = await raced(operation, request, deadline, race, early: early)
        } else {
            outcome = await OperationDeadline.$current.withValue(deadline) { await work(operation, request) }
        }
        let timedOut = deadline.disarm(on: operationDeadlines)
        if request.isCancelled, !operation.outcomeSurvivesCancel {
            outcome = .failure(.cancelled)
        } else if timedOut, case .failure(let error) = outcome, !error.isOpenWriteOutcome {
            // (A write's open outcome, found after the deadline cut its answer off, is kept: it is not a plain timeout.)
            outcome = .failure(.timeout)
        }
        await finish(request, operation, outcome)
        return outcome
    }

    /// The operation's work, on a context made now (with the cache mode its kind has under the policy); a request
    /// whose read was answered by the cache is marked so. Out of line (`@inline(never)`): its context and outcome are
    /// not laid out in `run`'s task frame, which every request in flight holds while it waits.
    @inline(never)
    private func work<Value>(_ operation: Operation<Value>, _ request: BMLTRequest) async -> Result<Value, BMLTError> {
        let context: OperationContext
        do throws(BMLTError) {
            context = try makeContext(cacheMode: cacheMode(for: operation.kind))
        } catch {
            return .failure(error)
        }
        return await Self.perform(operation, context, request)
    }

    /// A read raced against its deadline: the work runs in a task of its own (`DeadlineRace.start`), its cache writes
    /// held (`CacheHold`) until its outcome is known to have come in time; when the deadline comes first, the call
    /// resumes here with `.timeout` at once (one hop to the main actor) while the cancelled work winds down behind it,
    /// and nothing of that work reaches the cache, the stores or the notifications. `early`: the work was started by
    /// `launch` already (or could not be: the error). Out of line, as `work`.
    @inline(never)
    private func raced<Value>(_ operation: Operation<Value>, _ request: BMLTRequest, _ deadline: OperationDeadline,
                              _ race: DeadlineRace<Value>, early: Result<Void, BMLTError>?) async -> Result<Value, BMLTError> {
        if case .failure(let error)? = early { return .failure(error) }
        return await withTaskCancellationHandler {
            if early == nil, case .failure(let error) = startRace(operation, request, deadline, race) { return .failure(error) }
            return await race.outcome()
        } onCancel: {
            race.abandon()
        }
    }

    /// Starts a read's work in the race (`DeadlineRace.start`) on a context made now, its cache writes held; the error
    /// when no context can be made (an unusable root URL or timeout).
    private func startRace<Value>(_ operation: Operation<Value>, _ request: BMLTRequest, _ deadline: OperationDeadline,
                                  _ race: DeadlineRace<Value>) -> Result<Void, BMLTError> {
        let hold = CacheHold()
        let context: OperationContext
        do throws(BMLTError) {
            context = try makeContext(cacheMode: cacheMode(for: operation.kind), cacheHold: hold)
        } catch {
            return .failure(error)
        }
        race.start(hold: hold) {
            await OperationDeadline.$current.withValue(deadline) { await Self.perform(operation, context, request) }
        }
        return .success(())
    }

    /// Whether `.cacheThenNetwork` delivers the cache's answer before the operation's work runs.
    private func deliversFromCacheFirst<Value>(_ operation: Operation<Value>) -> Bool {
        configuration.cachePolicy == .cacheThenNetwork && operation.kind.isCacheableRead && configuration.cache != nil
    }

    /// The operation's work on `context`, off the main actor; a request whose read was answered by the cache is marked so.
    private nonisolated static func perform<Value>(_ operation: Operation<Value>, _ context: OperationContext,
                                                   _ request: BMLTRequest) async -> Result<Value, BMLTError> {
        // The context's log is bound for the list decoders' warnings about entries without a usable id.
        let outcome = await WireShape.$droppedLog.withValue(context.transport.log) { () async -> Result<Value, BMLTError> in
            do throws(BMLTError) { return .success(try await operation.work(context)) } catch { return .failure(error) }
        }
        if case .success = outcome, context.servedFromCache.withLock({ $0 }) { request.markFromCache() }
        return outcome
    }

    /// Delivers the one outcome of a request, waits until it has been delivered, then takes the request out of
    /// the registry (which may end the busy period, also delivered before `inFlightRequests` drops the request).
    @inline(never)
    private func finish<Value>(_ request: BMLTRequest, _ operation: Operation<Value>, _ outcome: Result<Value, BMLTError>) async {
        guard request.finish() else { return }
        announce(outcome, of: request, operation)
        await poster.delivered()
        registry.end(request)
        // The end of a busy period is announced before `isBusy` turns false — also when another request ended it
        // while this one waited (its `.bmltProgressDidStop` may still be queued when this one resumes).
        repeat { await poster.delivered() } while !poster.isIdle
        dropFromInFlight(request)
    }

    /// Applies an outcome to the stores and emits its events. Kept out of line (a synchronous function of its own): what
    /// it needs would otherwise be laid out in `finish`'s task frame, which every request in flight holds while it waits.
    @inline(never)
    private func announce<Value>(_ outcome: Result<Value, BMLTError>, of request: BMLTRequest, _ operation: Operation<Value>) {
        let events: [BMLTEvent]
        switch outcome {
        case .success(let value):
            events = operation.succeed(self, value, request)
        case .failure(.cancelled):
            events = operation.cancelled(self, request) + [.requestCancelled(request)]
        case .failure(let error):
            lastError = error
            events = operation.fail(self, error, request) + [.error(error, request: request)]
        }
        for event in events { emit(event) }
    }

    /// Takes a finished request out of `inFlightRequests`, in place.
    private func dropFromInFlight(_ request: BMLTRequest) {
        if let index = inFlightRequests.firstIndex(where: { $0 === request }) { inFlightRequests.remove(at: index) }
    }

    private func makeContext(cacheMode: CacheMode = .off, cacheHold: CacheHold? = nil) throws(BMLTError) -> OperationContext {
        if let rootURLError { throw rootURLError }
        if let timeoutError { throw timeoutError }
        return OperationContext(root: rootServerURL, transport: transport, serverInfo: server.info,
                                serverFormats: server.formats, adminSession: adminSession,
                                cache: configuration.cache, cacheMode: cacheMode, cacheHold: cacheHold, language: self.language)
    }

    /// How an operation of `kind` uses the cache under the configured policy: only reads use it (a message to a
    /// contact is a GET but never stored); writes clear it whatever their mode (`OperationContext.send`).
    private func cacheMode(for kind: BMLTRequestKind) -> CacheMode {
        guard let cache = configuration.cache else { return .off }
        guard kind.isCacheableRead else { return .off }
        switch configuration.cachePolicy {
        case .networkOnly, .cacheThenNetwork: return .store
        case .cacheElseNetwork: return .preferFresh(maximumAge: cache.maximumAge)
        case .networkElseCache: return .fallback
        }
    }

    /// `.cacheThenNetwork`'s first delivery: the operation answered from the cache alone, as a request of its own
    /// (registered, announced with `isFromCache`, finished) — or nothing at all when the cache cannot answer it.
    private func deliverFromCache<Value>(_ operation: Operation<Value>) async {
        guard let context = try? makeContext(cacheMode: .only),
              let value = try? await operation.work(context), context.servedFromCache.withLock({ $0 }) else { return }
        let cached = BMLTRequest(kind: operation.kind)
        cached.markFromCache()
        registry.begin(cached)
        inFlightRequests.append(cached)
        await finish(cached, operation, .success(value))
    }

    /// Announces an event through the single poster.
    func emit(_ event: BMLTEvent) {
        poster.emit(event, from: self)
    }
}
