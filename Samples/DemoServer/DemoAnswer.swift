import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension BMLTDemoServer {
    /// One answer of the demo server: status, headers and body.
    ///
    /// ```swift
    /// let reply = BMLTDemoServer.answer(URLRequest(url: BMLTDemoServer.rootURL.appendingPathComponent("client_interface/json/")))
    /// print(reply.statusCode, reply.body.count)
    /// ```
    public struct Reply: Sendable, Hashable {
        /// The HTTP status code.
        public var statusCode: Int
        /// The response headers.
        public var headers: [String: String]
        /// The body bytes.
        public var body: Data
    }

    /// Answers `request` directly, without `URLProtocol` or `URLSession`: the same answers as through
    /// ``sessionConfiguration()``, recorded in ``requestLog`` the same way.
    ///
    /// This is the form for **watchOS**, where custom URL protocols do not work (Apple: "You cannot use this class to
    /// define custom URL schemes and protocols in watchOS 2 and later"), so ``sessionConfiguration()`` would send the
    /// requests to the real network and fail. Wrap it in a `BMLTHTTPTransport` (from BMLTKit) and give that to the
    /// configuration; BMLTKit keeps its deadline, size limit, redirect and cookie rules above it:
    ///
    /// ```swift
    /// struct DemoTransport: BMLTHTTPTransport {
    ///     func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
    ///         let reply = BMLTDemoServer.answer(request)
    ///         return BMLTHTTPResponse(statusCode: reply.statusCode, headers: reply.headers, body: reply.body, url: request.url)
    ///     }
    /// }
    /// let connection = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
    ///                                 configuration: BMLTConfiguration(httpTransport: DemoTransport()))
    /// ```
    public static func answer(_ request: URLRequest) -> Reply {
        DemoStore.shared.record(request)
        let reply = respond(to: DemoRequest(request, body: request.httpBody ?? Data()))
        return Reply(statusCode: reply.status, headers: reply.headers, body: reply.body)
    }
}
