import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request on the connection's own `URLSession` and returns the answer, or a typed error.
///
/// Cancelling the Swift task that awaits `send` cancels that one `URLSessionTask` only: the session, its
/// cookie jar and the login stay as they are.
final class Transport: Sendable {
    private let session: URLSession
    let cookies = CookieJar()
    private let userAgent: String
    private let timeout: TimeInterval
    private let maximumResponseSize: Int

    init(configuration: BMLTConfiguration) {
        let sessionConfiguration = configuration.urlSessionConfiguration.copy() as! URLSessionConfiguration
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        session = URLSession(configuration: sessionConfiguration, delegate: RedirectPolicy(), delegateQueue: nil)
        userAgent = configuration.userAgent
        timeout = configuration.timeout
        maximumResponseSize = configuration.maximumResponseSize
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request with the connection's cookies, user agent and timeout.
    func send(_ request: URLRequest) async throws(BMLTError) -> HTTPReply {
        var prepared = request
        prepared.timeoutInterval = timeout
        prepared.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        if prepared.value(forHTTPHeaderField: "Accept") == nil {
            prepared.setValue("application/json, text/plain;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
        }
        if let url = prepared.url, let cookie = cookies.header(for: url) {
            prepared.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        try Self.checkCancellation()
        let handle = TaskHandle()
        let outcome: Result<HTTPReply, BMLTError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: prepared) { data, response, error in
                    continuation.resume(returning: Self.outcome(data: data, response: response, error: error))
                }
                handle.start(task)
            }
        } onCancel: {
            handle.cancel()
        }
        let reply = try outcome.get()
        if let url = reply.url ?? prepared.url { cookies.store(headers: reply.headers, for: url) }
        guard reply.data.count <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
        return reply
    }

    private static func checkCancellation() throws(BMLTError) {
        if Task.isCancelled { throw .cancelled }
    }

    private static func outcome(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<HTTPReply, BMLTError> {
        if let error { return .failure(BMLTError.from(error)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.malformedResponse(what: "the request", detail: "the answer was not HTTP"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(HTTPReply(data: data ?? Data(), statusCode: http.statusCode, headers: headers, url: http.url))
    }
}

/// Holds the `URLSessionTask` so that a cancellation arriving before or after it starts is not lost.
private final class TaskHandle: @unchecked Sendable {
    private let state = Locked<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}

/// Redirects: never from https to http, and never carry credentials to another host.
private final class RedirectPolicy: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let from = task.originalRequest?.url
        guard let to = request.url else { return completionHandler(nil) }
        if from?.scheme?.lowercased() == "https", to.scheme?.lowercased() != "https" {
            return completionHandler(nil)   // the 3xx itself becomes the answer, and an error
        }
        var next = request
        if from?.host?.lowercased() != to.host?.lowercased() {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        completionHandler(next)
    }
}

extension BMLTError {
    /// Maps any error from the transport or below to a `BMLTError`. The description is written here from the
    /// error code, so a URL (and anything in it) never reaches the message.
    static func from(_ error: any Error) -> BMLTError {
        if let error = error as? BMLTError { return error }
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError { return from(urlErrorCode: urlError.code.rawValue) }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain { return from(urlErrorCode: nsError.code) }
        return .transport(code: nsError.code, description: "an unexpected error")
    }

    static func from(urlErrorCode code: Int) -> BMLTError {
        switch code {
        case URLError.cancelled.rawValue: return .cancelled
        case URLError.timedOut.rawValue: return .timeout
        case URLError.cannotFindHost.rawValue, URLError.dnsLookupFailed.rawValue:
            return .transport(code: code, description: "the server's name could not be found")
        case URLError.cannotConnectToHost.rawValue:
            return .transport(code: code, description: "the server refused the connection")
        case URLError.networkConnectionLost.rawValue:
            return .transport(code: code, description: "the connection was lost")
        case URLError.notConnectedToInternet.rawValue:
            return .transport(code: code, description: "this device is offline")
        case URLError.secureConnectionFailed.rawValue, URLError.serverCertificateUntrusted.rawValue,
             URLError.serverCertificateHasBadDate.rawValue, URLError.serverCertificateHasUnknownRoot.rawValue,
             URLError.serverCertificateNotYetValid.rawValue, URLError.clientCertificateRejected.rawValue:
            return .transport(code: code, description: "a secure (TLS) connection could not be made")
        case URLError.badServerResponse.rawValue:
            return .transport(code: code, description: "the server's answer was broken off or invalid")
        case URLError.httpTooManyRedirects.rawValue, URLError.redirectToNonExistentLocation.rawValue:
            return .transport(code: code, description: "the server redirected in a way that cannot be followed")
        case -1103: // NSURLErrorDataLengthExceedsMaximum
            return .transport(code: code, description: "the answer was too large")
        default:
            return .transport(code: code, description: "a network error")
        }
    }
}
