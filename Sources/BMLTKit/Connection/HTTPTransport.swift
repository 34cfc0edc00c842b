import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP layer under a connection, replaceable: by default BMLTKit uses its own `URLSession`; give
/// `BMLTConfiguration.httpTransport` another (AsyncHTTPClient in a server-side app, a platform's own stack) and every
/// request goes through it instead.
///
/// A transport only moves bytes: send the request as given (method, URL, headers, body) and return the status,
/// headers and body. Do **not** follow redirects: return the 3xx, and BMLTKit follows it by its own rules (never from
/// https to http, never with credentials to another host). Stop when the Swift task is cancelled (throw
/// `CancellationError` or `URLError(.cancelled)`). Everything else stays in BMLTKit, above the transport, whatever it
/// is: the deadline (`timeout`, enforced even on a transport that ignores cancellation), the size limit, the cookie
/// jar, retries of reads, logging without secrets.
/// ```swift
/// struct MyTransport: BMLTHTTPTransport {
///     func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
///         let (data, response) = try await URLSession.shared.data(for: request)
///         let http = response as! HTTPURLResponse
///         return BMLTHTTPResponse(statusCode: http.statusCode, headers: [:], body: data, url: http.url)
///     }
/// }
/// var configuration = BMLTConfiguration()
/// configuration.httpTransport = MyTransport()
/// ```
public protocol BMLTHTTPTransport: Sendable {
    /// Sends one request and returns the server's answer (3xx included); throws when there is no answer.
    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse
}

/// What a `BMLTHTTPTransport` got back.
/// ```swift
/// BMLTHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: data)
/// ```
public struct BMLTHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers (any capitalisation).
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// The URL that answered, when the transport knows it (after redirects it followed itself).
    public var url: URL?

    /// A response.
    public init(statusCode: Int, headers: [String: String], body: Data, url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// One request through an app's `BMLTHTTPTransport`, with BMLTKit's guarantees around it: the deadline, the size
/// limit and the redirect rules.
enum CustomTransportDriver {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// `request` through `transport`, with the deadline kept on `deadlines` (the connection's transport keeps one queue
    /// for all its requests: a timer source per request cost two wake-ups of libdispatch's manager thread each). The
    /// deadline covers the whole exchange, redirects included.
    static func send(_ request: URLRequest, through transport: any BMLTHTTPTransport, deadlines: DeadlineQueue,
                     limit: Int) async -> Result<HTTPReply, BMLTError> {
        // A timeout of zero (or less) has passed before the first attempt: the transport is never called.
        if deadlines.expiresAtOnce { return .failure(.timeout) }
        let watch = DeadlineWatch()
        let token = deadlines.add { watch.expire() }
        defer { deadlines.remove(token) }
        var current = request
        for _ in 0..<10 {
            let response: BMLTHTTPResponse
            switch await attempt(current, through: transport, watch: watch) {
            case .success(let answer): response = answer
            case .failure(let error): return .failure(error)
            }
            if response.body.count > limit { return .failure(.responseTooLarge(limit: limit)) }
            let reply = HTTPReply(data: response.body, statusCode: response.statusCode, headers: response.headers,
                                  url: response.url ?? current.url)
            if redirectStatuses.contains(response.statusCode),
               let location = HTTPHeaders.value("Location", in: response.headers), let origin = request.url,
               let target = URL(string: location, relativeTo: current.url)?.absoluteURL {
                var next = current
                next.url = target
                if response.statusCode == 303 || (response.statusCode <= 302 && current.httpMethod == "POST") {
                    next.httpMethod = "GET"
                    next.httpBody = nil
                }
                // A refused redirect ends with the 3xx itself, which `WireReply` turns into an error (as URLSession's).
                guard let followed = RedirectRule.follow(from: origin, to: next) else { return .success(reply) }
                current = followed
                continue
            }
            // A transport that followed redirects itself: an https request must not end on http.
            if request.url?.scheme?.lowercased() == "https", let final = response.url, final.scheme?.lowercased() != "https" {
                return .failure(.httpStatus(code: 301, message: "a redirect to an unencrypted (http) address was refused"))
            }
            return .success(reply)
        }
        return .failure(.transport(code: URLError.httpTooManyRedirects.rawValue))
    }

    /// One exchange, ended by whichever comes first: the answer, the deadline (`watch`), or the caller's cancellation.
    private static func attempt(_ request: URLRequest, through transport: any BMLTHTTPTransport,
                                watch: DeadlineWatch) async -> Result<BMLTHTTPResponse, BMLTError> {
        let exchange = Exchange()
        // Before the start: a deadline already passed ends the exchange here, and `start` then resumes at once without
        // ever calling the transport (a cancelled Task would still run, and send the request anyway).
        watch.watch(exchange)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(continuation) {
                    Task {
                        do { exchange.finish(.success(try await transport.send(request))) } catch {
                            exchange.finish(.failure(.from(error)))
                        }
                    }
                }
            }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
    }
}

/// One exchange with an app's transport: the continuation to resume once, and the task to cancel when the deadline or
/// the caller ends it first.
private final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<BMLTHTTPResponse, BMLTError>, Never>?
        var work: Task<Void, Never>?
        var result: Result<BMLTHTTPResponse, BMLTError>?
    }

    private let state = Locked(State())

    /// Starts the work, unless the exchange already ended (a cancellation that came first).
    func start(_ continuation: CheckedContinuation<Result<BMLTHTTPResponse, BMLTError>, Never>,
               work: () -> Task<Void, Never>) {
        let early = state.withLock { state -> Result<BMLTHTTPResponse, BMLTError>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { return continuation.resume(returning: early) }
        let task = work()
        let late = state.withLock { state -> Bool in
            state.work = task
            return state.result != nil
        }
        if late { task.cancel() }
    }

    /// Ends the exchange with `result` if it has not ended yet; the work is cancelled.
    func finish(_ result: Result<BMLTHTTPResponse, BMLTError>) {
        let (continuation, work) = state.withLock { state -> (CheckedContinuation<Result<BMLTHTTPResponse, BMLTError>, Never>?, Task<Void, Never>?) in
            guard state.result == nil else { return (nil, nil) }
            state.result = result
            defer { state.continuation = nil; state.work = nil }
            return (state.continuation, state.work)
        }
        continuation?.resume(returning: result)
        work?.cancel()
    }
}

/// Whether a call's deadline has passed, and the exchange it ends when it does.
private final class DeadlineWatch: Sendable {
    private struct State {
        var expired = false
        var exchange: Exchange?
    }

    private let state = Locked(State())

    /// The deadline has passed: ends the exchange in progress, and any started later.
    func expire() {
        let exchange = state.withLock { state -> Exchange? in
            state.expired = true
            defer { state.exchange = nil }
            return state.exchange
        }
        exchange?.finish(.failure(.timeout))
    }

    /// Watches `exchange`: ends it at once if the deadline has already passed.
    func watch(_ exchange: Exchange) {
        let expired = state.withLock { state -> Bool in
            if !state.expired { state.exchange = exchange }
            return state.expired
        }
        if expired { exchange.finish(.failure(.timeout)) }
    }
}
