import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call to the server, as a value: what kind it is, the work (requests and decoding, run off the main
/// actor), and what success and failure do to the stores and which events they announce.
///
/// Every public call — search, change list, login, save, message — is an `Operation` run by the connection's
/// single `perform` path, which owns the in-flight registry, progress, cancellation, errors and delivery.
struct Operation<Value: Sendable>: Sendable {
    /// What the request does (shown on its handle).
    let kind: BMLTRequestKind
    /// The network work and decoding. Runs off the main actor; throws `BMLTError`.
    let work: @Sendable (OperationContext) async throws(BMLTError) -> Value
    /// On success, on the main actor: update the stores, return the events to announce.
    let succeed: @MainActor @Sendable (BMLTConnection, Value, BMLTRequest) -> [BMLTEvent]
    /// On failure, on the main actor: set the concerned store's `lastError`, return events to announce
    /// before the `.bmltError` (e.g. an invalid `.bmltServerValidated`).
    let fail: @MainActor @Sendable (BMLTConnection, BMLTError, BMLTRequest) -> [BMLTEvent]
    /// On cancellation, on the main actor: undo what the work may have begun (a login half open), return events
    /// to announce before the `.bmltRequestCancelled`.
    let cancelled: @MainActor @Sendable (BMLTConnection, BMLTRequest) -> [BMLTEvent]
    /// When the request is made, on the main actor, before its work starts: for work that reports to the main actor
    /// while it runs (a search's batches of meetings).
    var began: (@MainActor @Sendable (BMLTConnection, BMLTRequest) -> Void)?
    /// Whether the work's outcome stands even when the request was cancelled: a write cancelled after its request was
    /// sent looks up what the server holds, and reports that (done, or an open outcome) instead of `.cancelled`.
    var outcomeSurvivesCancel = false

    /// Whether the deadline itself settles the call (`DeadlineRace`): reads, whose work changes nothing but the cache
    /// (held until the outcome came in time). Logins, logouts, writes and administration end when their work does:
    /// a login must not open after it was reported timed out, and a write's look-up decides its outcome.
    var endsAtDeadline: Bool { kind.isCacheableRead && !outcomeSurvivesCancel }

    init(kind: BMLTRequestKind,
         work: @escaping @Sendable (OperationContext) async throws(BMLTError) -> Value,
         succeed: @escaping @MainActor @Sendable (BMLTConnection, Value, BMLTRequest) -> [BMLTEvent],
         fail: @escaping @MainActor @Sendable (BMLTConnection, BMLTError, BMLTRequest) -> [BMLTEvent] = { _, _, _ in [] },
         cancelled: @escaping @MainActor @Sendable (BMLTConnection, BMLTRequest) -> [BMLTEvent] = { _, _ in [] }) {
        self.kind = kind
        self.work = work
        self.succeed = succeed
        self.fail = fail
        self.cancelled = cancelled
    }
}

/// What an operation's work may use: the root URL, the transport, and what the connection knew when the
/// operation started.
///
/// A class, not a struct, although none of its properties is ever reassigned: every `async` function that takes it
/// keeps it in its task frame across each `await`, and a request goes through several (`get`, `cachedRead`,
/// `fromServer`, the validation and search steps). As a struct it was 312 bytes copied into each of those frames;
/// `bmlt-bench`'s soak showed the frames of 500 validations in flight at 40 KB each, most of the process's peak heap.
final class OperationContext: Sendable {
    /// The normalised root server URL.
    let root: URL
    /// The HTTP transport (own session, own cookies).
    let transport: Transport
    /// The server info from the last successful validation, if any.
    let serverInfo: BMLTServerInfo?
    /// The formats from the last successful validation (for resolving meeting format keys).
    let serverFormats: [BMLTFormat]
    /// The administrator's session (REST token or legacy cookie login), shared with the connection.
    let adminSession: AdminSession
    /// The response cache and how this operation's reads use it (see `CachedReads.swift`).
    let cache: BMLTResponseCache?
    let cacheMode: CacheMode
    /// Set when a read of this operation was answered by the cache.
    let servedFromCache: Locked<Bool>
    /// What the operation's writes did (`WriteLedger`), under one lock: every operation has one, and three locks per
    /// context were three allocations and mutexes on every read too (`bmlt-bench`'s pipeline, issue 59).
    let writes = Locked(WriteLedger())
    /// Where the cache writes of a read sent before it was known to be wanted wait (see `ReadRound`); `nil`: written at once.
    let cacheHold: CacheHold?
    /// The table language of what the operation words itself (draft problems): the connection's `locale`. Found only
    /// when asked: without `BMLTConfiguration.locale` it is the default locale, which reads the process environment (a
    /// dictionary of every variable) or the app's bundle, and doing that for every operation cost a fifth of the main
    /// actor's time in `bmlt-bench`'s pipeline (issue 59).
    var language: String { languageOf() }
    private let languageOf: @Sendable () -> String

    init(root: URL, transport: Transport, serverInfo: BMLTServerInfo?, serverFormats: [BMLTFormat],
         adminSession: AdminSession, cache: BMLTResponseCache? = nil, cacheMode: CacheMode = .off,
         cacheHold: CacheHold? = nil, servedFromCache: Locked<Bool> = Locked(false),
         language: @autoclosure @escaping @Sendable () -> String = "en") {
        self.root = root
        self.transport = transport
        self.serverInfo = serverInfo
        self.serverFormats = serverFormats
        self.adminSession = adminSession
        self.cache = cache
        self.cacheMode = cache == nil ? .off : cacheMode
        self.cacheHold = cacheHold
        self.servedFromCache = servedFromCache
        self.languageOf = language
    }

    /// Whether its reads are answered by the cache alone (a `.cacheThenNetwork` search's first, cached delivery).
    var isCacheOnly: Bool {
        if case .only = cacheMode { return true }
        return false
    }

    /// This context for one read of a round: the same in all, but its cache writes wait for `hold`.
    func holdingCacheWrites(_ hold: CacheHold) -> OperationContext {
        let languageOf = self.languageOf
        return OperationContext(root: root, transport: transport, serverInfo: serverInfo, serverFormats: serverFormats,
                         adminSession: adminSession, cache: cache, cacheMode: cacheMode, cacheHold: hold,
                         servedFromCache: servedFromCache, language: languageOf())
    }

    /// `GET <root>/<path>?<query>`. Reads are `retryable` by default (retried on transient failures); pass
    /// `false` for a GET that must not be repeated (a message to a contact).
    func get(_ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
             retryable: Bool = true, consumer: BodyConsumerFactory? = nil) async throws(BMLTError) -> HTTPReply {
        let request = transport.makeRequest(transport.urls.url(root: root, path: path, query: query), headers: headers)
        return try await cachedRead(request, retryable: retryable, consumer: consumer)
    }

    /// `<method> <root>/<path>?<query>` with an optional body and its content type. Never retried: use it for
    /// writes, logins and logouts (the body is where secrets travel; it is never logged). `countsAsWrite: false` for a
    /// login, logout or token refresh: it is not the write (see `WriteLedger.sent`).
    func send(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, contentType: String? = nil,
              headers: [String: String] = [:], countsAsWrite: Bool = true) async throws(BMLTError) -> HTTPReply {
        var fields = headers
        if let contentType, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { fields["Content-Type"] = contentType }
        let request = transport.makeRequest(transport.urls.url(root: root, path: path, query: query), method: method,
                                            headers: fields, body: body)
        // A write may have changed what the cache holds unless the server refused it (4xx): after a 2xx, and after an
        // answer that did not arrive, could not be read or was cancelled (the server may have done it), the cache goes.
        let reply: HTTPReply
        // Counted where the request is handed to the network, after the transport's cancellation check: a write
        // cancelled before that was never sent, and is no lost answer (issue 57, R6).
        let counter = writes
        let count: @Sendable () -> Void = { counter.withLock { $0.sent += 1 } }
        let counted = method != "GET" && countsAsWrite ? count : nil
        do {
            reply = try await fromServer(request, retryable: false, willSend: counted)
        } catch {
            if method != "GET" { cache?.removeEntries(ofRoot: root.absoluteString) }
            throw error
        }
        if method != "GET", !(400..<500).contains(reply.statusCode) { cache?.removeEntries(ofRoot: root.absoluteString) }
        return reply
    }

    /// The server's answer to `request`, with PHP's notices around its JSON removed (see `WirePHPNoise`; the
    /// server's misconfiguration is logged as a warning). A body given to a `consumer` is the consumer's to clean.
    func fromServer(_ request: URLRequest, retryable: Bool, consumer: BodyConsumerFactory? = nil,
                    limit: Int? = nil, willSend: (@Sendable () -> Void)? = nil) async throws(BMLTError) -> HTTPReply {
        var reply = try await transport.send(request, retryable: retryable, consumer: consumer, limit: limit,
                                             willSend: willSend)
        if let salvaged = WirePHPNoise.salvage(reply.data) {
            transport.log.phpMessages(at: request.url, salvaged.firstMessage)
            reply.data = salvaged.json
        }
        return reply
    }

    /// The server info known to the connection, or (before validation) fetched now with GetServerInfo.
    func requireServerInfo() async throws(BMLTError) -> BMLTServerInfo {
        if let serverInfo { return serverInfo }
        return try await ServerValidator.serverInfo(self)
    }

    /// `GET <root>/client_interface/json/?switcher=<switcher>&<query>`, parsed as JSON; a status, HTML page or
    /// broken JSON becomes a typed error naming `what` was being read.
    func semantic(_ switcher: String, _ query: [URLQueryItem] = [], what: BMLTError.Subject) async throws(BMLTError) -> WireValue {
        try WireReply.json(try await semanticReply(switcher, query), what: what)
    }

    /// A semantic interface answer with a 2xx status, its body not yet parsed, or given piece by piece to a
    /// `consumer` (the chunked search decoder) as it arrived.
    func semanticReply(_ switcher: String, _ query: [URLQueryItem] = [],
                       consumer: BodyConsumerFactory? = nil) async throws(BMLTError) -> HTTPReply {
        let reply = try await get("client_interface/json/", query: [URLQueryItem(name: "switcher", value: switcher)] + query,
                                  consumer: consumer)
        try WireReply.checkStatus(reply)
        return reply
    }
}

/// The store whose `lastError` an operation reports to.
enum ErrorStore: Sendable {
    case server, search, changes

    @MainActor
    func set(_ error: BMLTError?, on connection: BMLTConnection) {
        switch self {
        case .server: connection.server.lastError = error
        case .search: connection.search.lastError = error
        case .changes: connection.changes.lastError = error
        }
    }
}

extension Operation {
    /// A read: its failure sets the `lastError` of the store it fills (and keeps the store's contents), its success
    /// clears that `lastError`, then `succeed` fills the store and names the events.
    static func read(_ kind: BMLTRequestKind, errorIn store: ErrorStore,
                     work: @escaping @Sendable (OperationContext) async throws(BMLTError) -> Value,
                     succeed: @escaping @MainActor @Sendable (BMLTConnection, Value, BMLTRequest) -> [BMLTEvent]) -> Operation {
        Operation(
            kind: kind,
            work: work,
            succeed: { connection, value, request in
                store.set(nil, on: connection)
                return succeed(connection, value, request)
            },
            fail: { connection, error, _ in
                store.set(error, on: connection)
                return []
            }
        )
    }
}

/// What an operation's writes did, for telling a lost answer from a refusal (`LostAnswer`).
struct WriteLedger: Sendable {
    /// How many writes the server answered with a success, as the interface parsed it (`acknowledgeWrite()`; a raw 2xx
    /// is not enough: 2.x refuses with HTTP 200 and `["ERROR"]`): a write whose read-back then fails is known done.
    var acknowledged = 0
    /// The item the last acknowledged write's answer named, when it named one (2.x `add_meeting`'s new id).
    var acknowledgedID: Int?
    /// How many writes (not GET) were handed to the transport: a write cancelled after that may have reached the server.
    var sent = 0
}
