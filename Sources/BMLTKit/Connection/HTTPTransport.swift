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

    static func send(_ request: URLRequest, through transport: any BMLTHTTPTransport, timeout: TimeInterval,
                     limit: Int) async -> Result<HTTPReply, BMLTError> {
        let deadline = Date().addingTimeInterval(timeout)
        var current = request
        for _ in 0..<10 {
            let response: BMLTHTTPResponse
            switch await attempt(current, through: transport, seconds: deadline.timeIntervalSinceNow) {
            case .success(let answer): response = answer
            case .failure(let error): return .failure(error)
            }
            if response.body.count > limit { return .failure(.responseTooLarge(limit: limit)) }
            let reply = HTTPReply(data: response.body, statusCode: response.statusCode, headers: response.headers,
                                  url: response.url ?? current.url)
            if redirectStatuses.contains(response.statusCode),
               let location = header("Location", in: response.headers), let origin = request.url,
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
        return .failure(.transport(code: URLError.httpTooManyRedirects.rawValue, description: "the server redirected too many times"))
    }

    /// One exchange, ended by whichever comes first: the answer, the deadline, or the caller's cancellation.
    private static func attempt(_ request: URLRequest, through transport: any BMLTHTTPTransport,
                                seconds: TimeInterval) async -> Result<BMLTHTTPResponse, BMLTError> {
        guard seconds > 0 else { return .failure(.timeout) }
        let waiting = Locked<CheckedContinuation<Result<BMLTHTTPResponse, BMLTError>, Never>?>(nil)
        let work = Locked<Task<Void, Never>?>(nil)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        defer { timer.cancel() }
        @Sendable func finish(_ result: Result<BMLTHTTPResponse, BMLTError>) {
            let continuation = waiting.withLock { state in
                defer { state = nil }
                return state
            }
            continuation?.resume(returning: result)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting.withLock { $0 = continuation }
                timer.schedule(deadline: .now() + seconds)
                timer.setEventHandler {
                    finish(.failure(.timeout))
                    work.withLock { $0 }?.cancel()
                }
                timer.resume()
                work.withLock {
                    $0 = Task {
                        do { finish(.success(try await transport.send(request))) } catch { finish(.failure(.from(error))) }
                    }
                }
            }
        } onCancel: {
            finish(.failure(.cancelled))
            work.withLock { $0 }?.cancel()
        }
    }

    /// A header's value, whatever its capitalisation.
    static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
