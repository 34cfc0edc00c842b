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
    private let timeout: TimeInterval
    private let maximumResponseSize: Int
    private let retryPolicy: BMLTRetryPolicy
    /// The app's own HTTP transport, used instead of the session when given.
    private let custom: (any BMLTHTTPTransport)?
    let log: RequestLog
    /// The request URLs built so far (see `RequestURLs`).
    let urls = RequestURLs()

    init(configuration: BMLTConfiguration) {
        let sessionConfiguration = configuration.urlSessionConfiguration.copy() as! URLSessionConfiguration
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Our own deadline enforces `timeout` exactly; the session's timers (whole seconds on Linux, where 0.5
        // would fire at once) only back it up.
        sessionConfiguration.timeoutIntervalForRequest = Self.backstop(configuration.timeout)
        sessionConfiguration.timeoutIntervalForResource = Self.backstop(configuration.timeout) * 2
        tasks = TaskTable()
        deadlines = DeadlineQueue(timeout: configuration.timeout)
        session = URLSession(configuration: sessionConfiguration, delegate: tasks, delegateQueue: DelegateQueue.make())
        var standard = ["Accept": "application/json, text/plain;q=0.9, */*;q=0.5"]
        if Self.isValidHeaderValue(configuration.userAgent) { standard["User-Agent"] = configuration.userAgent }
        standardHeaders = standard
        timeout = configuration.timeout
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

    /// Sends a request made by `makeRequest` with the connection's cookies and deadline. `retryable` requests (plain
    /// reads) are tried again on transient failures; writes, logins and messages never are. With `consumer`, a 2xx
    /// body goes to a consumer made for the attempt, piece by piece as it arrives (`HTTPReply.consumer`), instead of
    /// into `HTTPReply.data`; other answers keep their body in `data`.
    func send(_ request: URLRequest, retryable: Bool = false,
              consumer: BodyConsumerFactory? = nil) async throws(BMLTError) -> HTTPReply {
        let prepared = withCookies(request)
        var attempt = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            let started = Date()
            log.request(prepared, attempt: attempt)
            let outcome = await sendOnce(prepared, consumer: consumer)
            log.outcome(prepared, outcome, seconds: Date().timeIntervalSince(started))
            switch outcome {
            case .success(let reply) where retryable && attempt < retryPolicy.maximumRetries && Self.isTransient(status: reply.statusCode):
                break
            case .failure(let error) where retryable && attempt < retryPolicy.maximumRetries && Self.isTransient(error):
                break
            case .success(let reply):
                if let url = reply.url ?? prepared.url { cookies.store(headers: reply.headers, for: url) }
                return reply
            case .failure(let error):
                throw error
            }
            attempt += 1
            do {
                try await Task.sleep(nanoseconds: UInt64(retryPolicy.delay(beforeRetry: attempt) * 1_000_000_000))
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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.backstop(timeout))
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

    private func sendOnce(_ request: URLRequest, consumer: BodyConsumerFactory?) async -> Result<HTTPReply, BMLTError> {
        if let custom { return await sendOnce(request, through: custom, consumer: consumer) }
        let task = session.dataTask(with: request)
        let entry = tasks.register(task, limit: maximumResponseSize, consumer: consumer)
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
                          consumer: BodyConsumerFactory?) async -> Result<HTTPReply, BMLTError> {
        let result = await CustomTransportDriver.send(request, through: custom, deadlines: deadlines, limit: maximumResponseSize)
        guard let consumer, case .success(var reply) = result, (200..<300).contains(reply.statusCode) else { return result }
        let taker = consumer(reply.data.count)
        taker.consume(reply.data)
        reply.consumer = taker
        reply.consumedBytes = reply.data.count
        reply.data = Data()
        return .success(reply)
    }

    private static func backstop(_ timeout: TimeInterval) -> TimeInterval { (timeout + 1).rounded(.up) }

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

/// How reads are retried on transient failures (connection lost, timeout, HTTP 502/503/504).
/// Writes, logins and messages are never retried.
public struct BMLTRetryPolicy: Sendable, Hashable {
    /// How many times a read is tried again after the first attempt (0 switches retries off).
    public var maximumRetries: Int
    /// The wait before the first retry, in seconds; each further retry waits twice as long.
    public var baseDelay: TimeInterval
    /// The longest wait between two attempts, in seconds.
    public var maximumDelay: TimeInterval
    /// How much of each wait is random (0…1), so that many clients don't retry in step.
    public var jitter: Double

    /// A retry policy; the default tries a read twice more, after about 0.5 s and 1 s.
    public init(maximumRetries: Int = 2, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 8, jitter: Double = 0.2) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.jitter = min(1, max(0, jitter))
    }

    /// No retries.
    public static let none = BMLTRetryPolicy(maximumRetries: 0)

    /// The wait before retry number `attempt` (1-based): exponential, capped, with jitter.
    public func delay(beforeRetry attempt: Int) -> TimeInterval {
        let exponential = min(maximumDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return exponential * (1 - jitter * Double.random(in: 0...1))
    }
}

/// The session delegate: one entry per task, holding the streamed body and the one continuation to resume.
private final class TaskTable: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let entries = Locked<[Int: TaskEntry]>([:])

    func register(_ task: URLSessionTask, limit: Int, consumer: BodyConsumerFactory?) -> TaskEntry {
        let entry = TaskEntry(limit: limit, consumer: consumer) { [weak self] in
            _ = self?.entries.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        }
        entries.withLock { $0[task.taskIdentifier] = entry }
        return entry
    }

    /// Requests registered and not yet finished (for tests: must return to 0).
    var count: Int { entries.withLock { $0.count } }

    private func entry(_ task: URLSessionTask) -> TaskEntry? {
        entries.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let entry = entry(dataTask) else { return completionHandler(.cancel) }
        completionHandler(entry.receive(response, cancelling: dataTask) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        entry(dataTask)?.append(data, cancelling: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        entry(task)?.complete(error: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // A refused redirect completes the task with the 3xx itself, which `WireReply` turns into an error.
        completionHandler(task.originalRequest?.url.flatMap { RedirectRule.follow(from: $0, to: request) })
    }
}

/// Which redirects are followed: never from https to http, and never with credentials to another host.
enum RedirectRule {
    /// The request to follow, or `nil` to refuse.
    static func follow(from origin: URL, to request: URLRequest) -> URLRequest? {
        guard let target = request.url else { return nil }
        if origin.scheme?.lowercased() == "https", target.scheme?.lowercased() != "https" { return nil }
        var next = request
        if origin.host?.lowercased() != target.host?.lowercased() {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }
}

/// One request's progress. Whatever happens first — completion, the size limit, the deadline or a
/// cancellation — resolves it; everything after is ignored. The continuation is resumed exactly once.
private final class TaskEntry: @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<HTTPReply, BMLTError>, Never>?
        var started = false
        var response: HTTPURLResponse?
        var body = Data()
        /// A 2xx body goes here instead of into `body`, when the request asked for it.
        var consumer: (any BodyConsumer)?
        var received = 0
        var result: Result<HTTPReply, BMLTError>?
    }

    private let state = Locked(State())
    private let limit: Int
    private let makeConsumer: BodyConsumerFactory?
    private let onFinish: @Sendable () -> Void

    init(limit: Int, consumer: BodyConsumerFactory?, onFinish: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.makeConsumer = consumer
        self.onFinish = onFinish
    }

    func start(_ continuation: CheckedContinuation<Result<HTTPReply, BMLTError>, Never>, task: URLSessionTask) {
        let early = state.withLock { state -> Result<HTTPReply, BMLTError>? in
            if let result = state.result { return result }
            state.continuation = continuation
            state.started = true
            return nil
        }
        if let early {
            continuation.resume(returning: early)
            task.cancel()
            onFinish()
        } else {
            task.resume()
        }
    }

    /// Accepts the head unless its declared length is over the limit. A refused head also cancels the task:
    /// FoundationNetworking does not always act on the `.cancel` disposition, and would fetch the rest of the body.
    func receive(_ response: URLResponse, cancelling task: URLSessionTask) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail(.malformedResponse(what: .request, detail: .notHTTP), cancelling: task)
            return false
        }
        if http.expectedContentLength > Int64(limit) {
            fail(.responseTooLarge(limit: limit), cancelling: task)
            return false
        }
        let consumer = (200..<300).contains(http.statusCode)
            ? makeConsumer?(http.expectedContentLength > 0 ? Int(http.expectedContentLength) : nil) : nil
        state.withLock {
            $0.response = http
            $0.consumer = consumer
        }
        return true
    }

    func append(_ data: Data, cancelling task: URLSessionTask) {
        let (over, consumer) = state.withLock { state -> (Bool, (any BodyConsumer)?) in
            guard state.result == nil else { return (false, nil) }
            if state.received + data.count > limit { return (true, nil) }
            state.received += data.count
            if let consumer = state.consumer { return (false, consumer) }
            state.body.append(data)
            return (false, nil)
        }
        if over { return fail(.responseTooLarge(limit: limit), cancelling: task) }
        // Outside the lock: decoding a piece must not hold up a cancellation or the deadline.
        consumer?.consume(data)
    }

    func complete(error: (any Error)?) {
        if let error {
            let (head, received) = state.withLock { ($0.response, $0.received) }
            resolve(.failure(BMLTError.from(error, afterHead: head, bytes: received)))
            return
        }
        let reply = state.withLock { state -> HTTPReply? in
            guard let http = state.response else { return nil }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPReply(data: state.body, statusCode: http.statusCode, headers: headers, url: http.url,
                             consumer: state.consumer, consumedBytes: state.consumer == nil ? 0 : state.received)
        }
        resolve(reply.map { .success($0) } ?? .failure(.malformedResponse(what: .request, detail: .noHTTPHead)))
    }

    /// Ends the request now with `error` (deadline, size limit, cancellation) and stops the task.
    func fail(_ error: BMLTError, cancelling task: URLSessionTask) {
        if resolve(.failure(error)) { task.cancel() }
    }

    @discardableResult
    private func resolve(_ result: Result<HTTPReply, BMLTError>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Result<HTTPReply, BMLTError>, Never>?? in
            guard state.result == nil else { return .none }
            state.result = result
            state.body = Data()
            state.consumer = nil
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard case .some(let waiting) = continuation else { return false }
        if let waiting {
            waiting.resume(returning: result)
            onFinish()
        }
        return true
    }
}

extension BMLTError {
    /// Maps an error that ended a transfer: once the reply's head has arrived, any failure but a cancellation or a
    /// timeout is a broken reply (the server was reached), said with the bytes received and the HTTP stack's words.
    static func from(_ error: any Error, afterHead head: HTTPURLResponse?, bytes: Int) -> BMLTError {
        let mapped = from(error)
        guard let head else { return mapped }
        switch mapped {
        case .cancelled, .timeout, .responseTooLarge: return mapped
        default:
            let expected = head.expectedContentLength > 0 ? Int(head.expectedContentLength) : nil
            return .brokenReply(code: (error as NSError).code,
                                detail: .cutOff(afterBytes: bytes, expectedBytes: expected, stack: stackWords(error)))
        }
    }

    /// The HTTP stack's own description of a failure, with anything like an address removed, shortened — where that
    /// description is libcurl's (Linux): FoundationNetworking puts libcurl's English message ("Failed writing header",
    /// "transfer closed with 1600 bytes remaining") in the error's own `NSLocalizedDescriptionKey`. `nil` everywhere
    /// else, and for an error without a description of its own (whose `localizedDescription` is only Foundation's
    /// generic sentence): the sentence then says what the code means, in its own language — Apple's URL loading
    /// system describes errors in the device's language, which would make a sentence of two languages.
    static func stackWords(_ error: any Error) -> String? {
        #if canImport(FoundationNetworking)
        let nsError = error as NSError
        guard let words = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !words.isEmpty else { return nil }
        let text = words.replacingOccurrences(of: "[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]*", with: "<address>", options: .regularExpression)
        return String(text.prefix(160))
        #else
        return nil
        #endif
    }

    /// Maps any error from the transport or below to a `BMLTError`. The description is written here from the
    /// error code, so a URL (and anything in it) never reaches the message.
    static func from(_ error: any Error) -> BMLTError {
        if let error = error as? BMLTError { return error }
        if error is CancellationError { return .cancelled }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain || error is URLError {
            // Codes for a reply that arrived but could not be read: -1 is what FoundationNetworking gives for
            // libcurl's protocol errors ("Failed writing header" for a head it cannot parse, bad chunk sizes,
            // corrupt gzip), -1002 an answer that is not HTTP, -1011 an empty or invalid reply.
            let broken = [-1, URLError.unsupportedURL.rawValue, URLError.badServerResponse.rawValue,
                          URLError.cannotDecodeRawData.rawValue, URLError.cannotDecodeContentData.rawValue,
                          URLError.cannotParseResponse.rawValue, URLError.zeroByteResource.rawValue]
            if broken.contains(nsError.code) {
                return .brokenReply(code: nsError.code, detail: .unreadable(stack: stackWords(error)))
            }
            return from(urlErrorCode: nsError.code)
        }
        return .transport(code: nsError.code)
    }

    /// A `URLError` code as a `BMLTError`: a cancellation, a timeout, or a transport failure whose sentence words the
    /// code (`BMLTError.transportPhrase`: host not found, refused, offline, TLS, …; -1022 and -1005 have their own).
    static func from(urlErrorCode code: Int) -> BMLTError {
        switch code {
        case URLError.cancelled.rawValue: return .cancelled
        case URLError.timedOut.rawValue: return .timeout
        default: return .transport(code: code)
        }
    }
}
