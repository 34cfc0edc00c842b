import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Takes a 2xx body piece by piece as it arrives, instead of the transport collecting it: the search decodes
/// meetings while the rest of the body is still on its way (see `WireSearchChunks`). Pieces come in order, from one
/// thread at a time; a request that is tried again gets a new consumer.
protocol BodyConsumer: AnyObject, Sendable {
    /// The next piece of the body.
    func consume(_ piece: Data)
}

/// Makes the consumer for one attempt of a request, given the body's declared length when the server sent one.
typealias BodyConsumerFactory = @Sendable (_ expectedLength: Int?) -> any BodyConsumer

/// Sends HTTP requests on the connection's own `URLSession` and returns answers or typed errors.
///
/// - Cancelling the Swift task that awaits `send` cancels that one `URLSessionTask` only: the session, its
///   cookie jar and the login stay as they are.
/// - The body is streamed into memory and refused as soon as it passes `maximumResponseSize`.
/// - `timeout` bounds the whole request (a server that drips a byte a second still times out).
/// - Reads marked `retryable` are retried on transient failures with exponential backoff and jitter; the
///   caller sees one outcome.
final class Transport: Sendable {
    private let session: URLSession
    private let tasks: TaskTable
    private let deadlines: DeadlineQueue
    let cookies = CookieJar()
    /// The fields every request starts with: the user agent (unless the configured one has a line break) and a
    /// JSON `Accept`.
    private let standardHeaders: [String: String]
    let timeout: TimeInterval
    /// Each request's `timeoutInterval` (`TimeoutBudget.backstop`: finite whatever `timeout` is).
    let backstop: TimeInterval
    private let maximumResponseSize: Int
    let retryPolicy: BMLTRetryPolicy
    /// At most this many retries for the reads of the current task, below the retry policy's (`nil`: the policy's).
    /// A caller with a budget of its own sets it around its reads (a write's look-up after a lost answer: 1), so the
    /// transport knows a number, not who asked.
    @TaskLocal static var retryCap: Int?
    /// The app's own HTTP transport, used instead of the session when given.
    private let custom: (any BMLTHTTPTransport)?
    let log: RequestLog
    /// The request URLs built so far (see `RequestURLs`).
    let urls = RequestURLs()
    /// What the connection's refreshes learnt of its server's change log, for the next one's choice (`RefreshCost`).
    let refreshMemory = RefreshMemory()

    init(configuration: BMLTConfiguration) {
        let sessionConfiguration = configuration.urlSessionConfiguration.copy() as! URLSessionConfiguration
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Our own deadline enforces `timeout` exactly; the session's timers (whole seconds on Linux, where 0.5
        // would fire at once) only back it up.
        // Always finite (`TimeoutBudget.backstop`): FoundationNetworking traps on an infinite or huge one.
        let budget = TimeoutBudget(configuration.timeout)
        sessionConfiguration.timeoutIntervalForRequest = budget.backstop
        sessionConfiguration.timeoutIntervalForResource = budget.backstop * 2
        tasks = TaskTable()
        deadlines = DeadlineQueue(timeout: configuration.timeout)
        session = URLSession(configuration: sessionConfiguration, delegate: tasks, delegateQueue: DelegateQueue.make())
        var standard = ["Accept": "application/json, text/plain;q=0.9, */*;q=0.5"]
        if Self.isValidHeaderValue(configuration.userAgent) { standard["User-Agent"] = configuration.userAgent }
        standardHeaders = standard
        timeout = configuration.timeout
        backstop = budget.backstop
        maximumResponseSize = configuration.maximumResponseSize
        retryPolicy = configuration.retryPolicy
        custom = configuration.httpTransport
        log = RequestLog(level: configuration.logLevel, handler: configuration.logHandler)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Requests started and not yet finished (for tests).
    var pendingCount: Int { tasks.count }

    /// The session's own timeouts (for tests: always finite, see `TimeoutBudget.backstop`).
    var sessionTimeouts: (request: TimeInterval, resource: TimeInterval) {
        (session.configuration.timeoutIntervalForRequest, session.configuration.timeoutIntervalForResource)
    }

    /// Sends a request made by `makeRequest` with the connection's cookies and deadline. `retryable` requests (plain
    /// reads) are tried again on transient failures; writes, logins and messages never are. With `consumer`, a 2xx
    /// body goes to a consumer made for the attempt, piece by piece as it arrives (`HTTPReply.consumer`), instead of
    /// into `HTTPReply.data`; other answers keep their body in `data`. `limit`: a body size of its own, below
    /// `maximumResponseSize` (a refresh's change log, which must not cost more than the list it updates). `willSend`
    /// runs before each attempt is handed to the network, after the last cancellation check (a write counted as sent
    /// was sent: issue 57, R6).
    func send(_ request: URLRequest, retryable: Bool = false, consumer: BodyConsumerFactory? = nil,
              limit: Int? = nil, willSend: (@Sendable () -> Void)? = nil) async throws(BMLTError) -> HTTPReply {
        let limit = min(limit ?? maximumResponseSize, maximumResponseSize)
        let prepared = withCookies(request)
        var attempt = 0
        let maximumRetries = min(retryPolicy.maximumRetries, Self.retryCap ?? .max)
        while true {
            if Task.isCancelled { throw .cancelled }
            willSend?()
            let started = Date()
            log.request(prepared, attempt: attempt)
            let outcome = await sendOnce(prepared, consumer: consumer, limit: limit)
            log.outcome(prepared, outcome, seconds: Date().timeIntervalSince(started))
            switch outcome {
            case .success(let reply) where retryable && attempt < maximumRetries && Self.isTransient(status: reply.statusCode):
                break
            case .failure(let error) where retryable && attempt < maximumRetries && Self.isTransient(error):
                break
            case .success(let reply):
                if let url = reply.url ?? prepared.url { cookies.store(headers: reply.headers, for: url) }
                return reply
            case .failure(let error):
                throw error
            }
            attempt += 1
            do {
                try await Wait.sleep(seconds: retryPolicy.delay(beforeRetry: attempt))
            } catch {
                throw .cancelled
            }
        }
    }

    /// A request for `url` as the transport sends it, put together once: the timeout backstop, the user agent, a
    /// JSON `Accept` unless `headers` names another, then `headers` (names compared without case; a value with a line
    /// break is left out), the method and the body. Built in one go because each `setValue(_:forHTTPHeaderField:)`,
    /// `httpMethod` or `timeoutInterval` set on a `URLRequest` that is not fresh copies it whole, and FoundationNetworking
    /// capitalises and compares names and methods through `NSString` — `bmlt-bench` showed all of it on every request.
    ///
    /// ```swift
    /// let request = transport.makeRequest(url, headers: ["Accept": "application/json"])
    /// let reply = try await transport.send(request, retryable: true)
    /// ```
    func makeRequest(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: backstop)
        if method != "GET" { request.httpMethod = method }
        if let body { request.httpBody = body }
        var fields = standardHeaders
        for (name, value) in headers where Self.isValidHeaderValue(value) {
            if let existing = fields.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { fields[existing] = nil }
            fields[name] = value
        }
        request.allHTTPHeaderFields = fields
        return request
    }


    /// `request` with the cookie jar's `Cookie` for its URL, when the jar has one (only then is the request copied).
    private func withCookies(_ request: URLRequest) -> URLRequest {
        guard let url = request.url, let cookie = cookies.header(for: url), Self.isValidHeaderValue(cookie) else { return request }
        var prepared = request
        prepared.setValue(cookie, forHTTPHeaderField: "Cookie")
        return prepared
    }

    /// A header value that cannot end its line or the head early: no control characters but the tab.
    static func isValidHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    private func sendOnce(_ request: URLRequest, consumer: BodyConsumerFactory?, limit: Int) async -> Result<HTTPReply, BMLTError> {
        if let custom { return await sendOnce(request, through: custom, consumer: consumer, limit: limit) }
        let task = session.dataTask(with: request)
        let entry = tasks.register(task, limit: limit, consumer: consumer)
        // The deadline, on the transport's one timer (`DeadlineQueue`), forgotten as soon as the request ends. Neither
        // `asyncAfter` nor a sleeping `Task`: on Linux both stay queued, with what they hold, until their time comes
        // even when cancelled, which made memory grow with every request for `timeout` seconds (measured by
        // bmlt-bench's pipeline rounds); nor a timer source per request (two wake-ups of libdispatch's manager thread).
        // Held strongly: `remove` below drops the closure as soon as the request ends (weak references would give the
        // entry and the task a side table each, two more allocations per request).
        let deadline = deadlines.add { entry.fail(.timeout, cancelling: task) }
        defer { deadlines.remove(deadline) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                entry.start(continuation, task: task)
            }
        } onCancel: {
            entry.fail(.cancelled, cancelling: task)
        }
    }

    /// One attempt through an app's own transport, which gives the body whole: a consumer gets it in one piece. Out of
    /// line (`@inline(never)`), so that the `URLSession` attempt's task frame does not hold room for this one.
    @inline(never)
    private func sendOnce(_ request: URLRequest, through custom: any BMLTHTTPTransport,
                          consumer: BodyConsumerFactory?, limit: Int) async -> Result<HTTPReply, BMLTError> {
        let result = await CustomTransportDriver.send(request, through: custom, deadlines: deadlines, limit: limit)
        guard let consumer, case .success(var reply) = result, (200..<300).contains(reply.statusCode) else { return result }
        let taker = consumer(reply.data.count)
        taker.consume(reply.data)
        reply.consumer = taker
        reply.consumedBytes = reply.data.count
        reply.data = Data()
        return .success(reply)
    }

    /// Connection lost, timeouts, refused or unreachable hosts: worth another try for a read.
    static func isTransient(_ error: BMLTError) -> Bool {
        switch error {
        case .timeout: return true
        case .transport(let code):
            return [URLError.networkConnectionLost.rawValue, URLError.cannotConnectToHost.rawValue,
                    URLError.timedOut.rawValue, URLError.dnsLookupFailed.rawValue, URLError.notConnectedToInternet.rawValue,
                    URLError.badServerResponse.rawValue].contains(code)
        case .brokenReply: return true
        default: return false
        }
    }

    /// 502, 503 and 504: the server or a proxy in front of it is briefly unavailable.
    static func isTransient(status: Int) -> Bool { status == 502 || status == 503 || status == 504 }
}
