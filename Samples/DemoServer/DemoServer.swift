import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-process BMLT root server (3.1.2-shaped) over demo data written for this project, implemented as a
/// `URLProtocol`. It answers the semantic read interface (`client_interface/json`, `jsonp`, the NAWS `csv`)
/// and the REST admin API (`api/v1`) for requests whose host is ``BMLTDemoServer/host``.
///
/// Use it through ``BMLTDemoServer/sessionConfiguration()`` with ``BMLTDemoServer/rootURL`` as the root server URL —
/// on watchOS, where custom URL protocols do not work, through ``BMLTDemoServer/answer(_:)`` in a `BMLTHTTPTransport`.
/// All state lives in one process-wide, lock-protected store; ``BMLTDemoServer/reset()`` restores the pristine data.
///
/// Concurrency: `URLProtocol` is not `Sendable` (corelibs marks the conformance unavailable), and this subclass
/// adds no conformance of its own because it never needs one: an instance holds no mutable state, is never
/// captured by an escaping closure or sent to another task, and `startLoading()` answers synchronously on the
/// loader's thread, calling `client` before it returns. Everything shared lives in `DemoStore`, whose
/// `@unchecked Sendable` is backed by an `NSLock` around every access.
public final class BMLTDemoServer: URLProtocol {
    /// Claims only requests addressed to ``host``.
    override public class func canInit(with request: URLRequest) -> Bool {
        request.url?.host?.lowercased() == host
    }

    /// Requests are used as they are.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers the request from the demo data.
    override public func startLoading() {
        let request = self.request
        DemoStore.shared.record(request)
        let body = request.httpBody ?? request.httpBodyStream.map(Self.read) ?? Data()
        let reply = Self.respond(to: DemoRequest(request, body: body))
        // Every reply says the server's time, as a real server's does (what a list brought up to date reads the change
        // log from: `meetings(matching:updating:)`).
        var headers = reply.headers
        if headers["Date"] == nil { headers["Date"] = Self.httpDate(Date()) }
        guard let url = request.url,
              let response = HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !reply.body.isEmpty { client?.urlProtocol(self, didLoad: reply.body) }
        client?.urlProtocolDidFinishLoading(self)
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form of an HTTP `Date` header.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Nothing to cancel: replies are produced synchronously.
    override public func stopLoading() {}

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }

    static func respond(to request: DemoRequest) -> DemoResponse {
        switch request.segments.first {
        case "client_interface": return DemoSemanticRoutes.route(request, DemoStore.shared.snapshot)
        case "api" where request.segments.count >= 2 && request.segments[1] == "v1":
            return DemoRESTRoutes.route(request, DemoStore.shared)
        default: return DemoResponse.notFoundPage
        }
    }
}

extension BMLTDemoServer {
    /// The host name the demo server answers for (`.invalid` never resolves, so nothing leaves the process).
    public static let host: String = "demo.bmlt.invalid"

    /// The demo root server URL: `https://demo.bmlt.invalid/main_server`.
    public static let rootURL: URL = URL(string: "https://\(host)/main_server")!

    /// An ephemeral session configuration with `BMLTDemoServer` first in `protocolClasses`.
    ///
    /// Not on **watchOS**: custom URL protocols do not work there (watchOS 2 and later), so a session made with this
    /// configuration sends its requests to the real network, where `demo.bmlt.invalid` is never found. On watchOS
    /// (previews and demos in a watch app) use ``answer(_:)`` through a `BMLTHTTPTransport` instead.
    ///
    /// ```swift
    /// let configuration = BMLTConfiguration(urlSessionConfiguration: BMLTDemoServer.sessionConfiguration())
    /// ```
    public static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [BMLTDemoServer.self] + (configuration.protocolClasses ?? [])
        return configuration
    }

    /// The demo administrator's user name for `POST /api/v1/auth/token`.
    public static let adminUsername: String = "demo"

    /// The demo administrator's password.
    public static let adminPassword: String = "demo-password-1234"

    /// Restores the pristine data set and forgets issued tokens and the request log.
    public static func reset() { DemoStore.shared.reset() }

    /// Every request the demo server has answered since launch or the last ``reset()``, oldest first.
    public static var requestLog: [URLRequest] { DemoStore.shared.requests }
}
