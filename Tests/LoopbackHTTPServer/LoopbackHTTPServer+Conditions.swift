import Foundation

extension LoopbackHTTPServer {
    /// The network a `LoopbackHTTPServer` emulates, for benchmarks of what round trips cost (`bmlt-bench --latency`).
    ///
    /// A phone's network, roughly: each new TCP connection costs a round trip before its first request is read (the
    /// handshake; TLS would add one or two more), each request costs a round trip before its answer starts, and the
    /// answers share one downlink of `bytesPerSecond`.
    /// ```swift
    /// let server = try LoopbackHTTPServer { _ in .json("[]") }
    /// server.conditions = .init(roundTrip: 0.3, bytesPerSecond: 250_000)
    /// server.keepsConnectionsAlive = true
    /// ```
    public struct Conditions: Sendable, Hashable {
        /// Seconds between reading a request and the first byte of its answer (one round trip).
        public var requestDelay: TimeInterval
        /// Seconds a new connection waits before its first request is read (the TCP handshake's round trip).
        public var connectionDelay: TimeInterval
        /// The downlink every answer shares, in bytes a second; `nil`: as fast as loopback.
        public var bytesPerSecond: Double?

        /// A round trip (for each request and each new connection) and a downlink rate.
        public init(roundTrip: TimeInterval = 0, bytesPerSecond: Double? = nil) {
            self.requestDelay = roundTrip
            self.connectionDelay = roundTrip
            self.bytesPerSecond = bytesPerSecond
        }
    }
}
