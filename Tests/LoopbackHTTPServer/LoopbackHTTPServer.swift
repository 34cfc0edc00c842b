import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests and benchmarks: real sockets, scripted misbehaviour.
///
/// It listens on an ephemeral port of a loopback address, reads each request (head and `Content-Length` body) and answers
/// with whatever the handler returns — a normal answer, a slow drip, a connection closed mid-body, silence,
/// or a redirect. One connection per request (`Connection: close`) unless `keepsConnectionsAlive` is set; `conditions`
/// adds a round trip and a byte rate (see `LoopbackHTTPServer+Conditions.swift`). It never binds anything outside 127.0.0.0/8.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A request as received.
    public struct Request: Sendable {
        /// The method, e.g. "GET".
        public var method: String
        /// The path with the query, e.g. "/main_server/client_interface/json/?switcher=GetServerInfo".
        public var target: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: Data
    }

    /// What to do with a request.
    public enum Behavior: Sendable {
        /// Answer with this status, headers and body.
        case respond(status: Int, headers: [String: String], body: Data)
        /// Answer the head, then the body `chunkSize` bytes at a time, `interval` seconds apart.
        case drip(status: Int, body: Data, chunkSize: Int, interval: TimeInterval)
        /// Answer the head announcing the whole length, send `bytes` of the body, then close.
        case closeMidBody(body: Data, bytes: Int)
        /// Read the request and never answer (the connection stays open until the server stops).
        case silence
        /// Send these bytes as they are (head and body: for malformed heads, bad chunks, corrupt encodings), then close.
        case raw(Data)
        /// Answer the head and the first `firstBytes` of the body, then wait until `gate` opens (at most a minute), then
        /// send the rest: a reply that is certainly still arriving while a test looks at what came so far.
        case gated(status: Int, body: Data, firstBytes: Int, gate: LoopbackGate)
    }

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Behavior
    private let state = NSLock()
    private var running = true
    private var openSockets: Set<Int32> = []
    private var received: [Request] = []
    private var lastDripEnd: UInt64?
    private let recordsRequests: Bool
    private var emulated = Conditions()
    private var keepAlive = false
    private var accepted = 0
    /// When the emulated downlink is free again (`DispatchTime` uptime nanoseconds).
    private var linkFreeAt: UInt64 = 0
    /// The body bytes of `.respond` answers written to their sockets (a client that stops reading one stops the count).
    private var delivered = 0

    /// The loopback address the server listens on.
    public let host: String

    /// Starts a server on a loopback address (default 127.0.0.1) with an ephemeral port. Only 127.0.0.1 exists on
    /// every platform (macOS's `lo0` has no 127.0.0.2): tests that need "another host" use a second server and the name
    /// `localhost` for it. Addresses outside 127.0.0.0/8 are refused.
    /// `recordsRequests: false` keeps no history (for benchmarks, so the server's own memory stays flat).
    public init(host: String = "127.0.0.1", recordsRequests: Bool = true,
                handler: @escaping @Sendable (Request) -> Behavior) throws {
        guard host.hasPrefix("127.") else { throw POSIXError(.EADDRNOTAVAIL) }
        self.host = host
        self.recordsRequests = recordsRequests
        self.handler = handler
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 512) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRNOTAVAIL   // e.g. EADDRNOTAVAIL for 127.0.0.2 on macOS
            close(fd)
            throw POSIXError(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// `http://<host>:<port>`.
    public var baseURL: URL { URL(string: "http://\(host):\(port)")! }

    /// Every request received so far.
    public var requests: [Request] { state.withLock { received } }

    /// When the last byte of the latest `.drip` body was handed to the socket (`DispatchTime` uptime nanoseconds), for
    /// benchmarks that time what a client does after the last byte.
    public var lastDripEndNanoseconds: UInt64? { state.withLock { lastDripEnd } }

    /// The network the server emulates for connections accepted from now on (default: none, loopback speed).
    public var conditions: Conditions {
        get { state.withLock { emulated } }
        set { state.withLock { emulated = newValue } }
    }

    /// Whether a connection stays open for further requests (HTTP/1.1 keep-alive, answered `Connection: keep-alive`)
    /// after a `.respond` answer, until the client closes it or asks `Connection: close` (default `false`: one request
    /// per connection). Applies to connections accepted from now on; other behaviours always close the connection.
    public var keepsConnectionsAlive: Bool {
        get { state.withLock { keepAlive } }
        set { state.withLock { keepAlive = newValue } }
    }

    /// How many TCP connections the server has accepted so far.
    public var connectionsAccepted: Int { state.withLock { accepted } }

    /// The body bytes of `.respond` answers written to the clients' sockets so far: what a client that stops reading a
    /// body (a refused length, a cancelled request) did not take is not counted, but for what its socket held already.
    public var bodyBytesDelivered: Int { state.withLock { delivered } }

    /// Stops listening and closes every open connection.
    ///
    /// Safe to call more than once (`deinit` calls it too). No descriptor is closed here, and none is touched after its
    /// number could belong to someone else: open connections are shut down while `state` is held, and the thread serving
    /// each closes its own descriptor under `state` too, so every number in `openSockets` is still this server's; the
    /// listener is closed by the accept loop as it ends. (Before, the numbers were copied and shut down after the lock:
    /// a connection closed meanwhile left its number to the next socket of the process — another test's client — and
    /// that socket was cut. A test of the whole suite in parallel lost a write's answer so, about once in twenty runs.)
    public func stop() {
        let wasRunning = state.withLock { () -> Bool in
            guard running else { return false }
            running = false
            for socket in openSockets { shutdown(socket, Int32(SHUT_RDWR)) }
            return true
        }
        guard wasRunning else { return }
        // Linux wakes the accept loop's `poll` on `shutdown` of the listener (new connections are refused at once);
        // Darwin refuses `shutdown` on a listening socket (ENOTCONN, harmless) and the loop sees `running == false` at
        // its next `poll` timeout (50 ms).
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    /// `SOCK_STREAM` as `socket(2)` takes it on this platform: Glibc imports it as an enum (`.rawValue`), Darwin as
    /// an `Int32`. Any test that opens its own socket uses this instead of spelling either form.
    public static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    private func acceptLoop() {
        defer { close(listener) }   // only here: no `accept` can then run on a number reused by another socket
        while state.withLock({ running }) {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            var noSigpipe: Int32 = 1
            #if canImport(Darwin)
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSigpipe, socklen_t(MemoryLayout<Int32>.size))
            #else
            _ = noSigpipe
            #endif
            let serving = state.withLock { () -> Bool in
                guard running else { close(client); return false }   // accepted as the server stopped
                _ = openSockets.insert(client)
                accepted += 1
                return true
            }
            guard serving else { return }
            let thread = Thread { [self] in serve(client) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer {
            // Closed under `state`, with its removal: `stop` never shuts down a number another socket has taken since.
            state.withLock { if openSockets.remove(client) != nil { close(client) } }
        }
        var pending = Data()
        let (conditions, keepsAlive) = state.withLock { (emulated, keepAlive) }
        pause(conditions.connectionDelay)       // the TCP handshake of a new connection
        while true {
            guard let request = readRequest(client, pending: &pending) else { return }
            if recordsRequests { state.withLock { received.append(request) } }
            pause(conditions.requestDelay)      // the request's way there and the answer's way back
            let reuse = keepsAlive && request.headers["connection"]?.lowercased() != "close"
            let behavior = handler(request)
            guard case .respond(let status, let headers, let body) = behavior else { return answer(client, behavior) }
            let start = head(status: status, headers: headers, length: body.count, keepAlive: reuse)
            guard paced(client, start + body, rate: conditions.bytesPerSecond, bodyStart: start.count), reuse else { return }
        }
    }

    /// Sleeps `seconds` (nothing for 0).
    private func pause(_ seconds: TimeInterval) {
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }

    /// Sends `data` through the emulated downlink: `rate` bytes a second shared by every connection, 4 KB at a time
    /// (each piece waits for its turn on the link, then for the time it takes); without a rate, at once.
    private func paced(_ client: Int32, _ data: Data, rate: Double?, bodyStart: Int) -> Bool {
        guard let rate, rate > 0 else {
            guard send(client, data) else { return false }
            state.withLock { delivered += max(0, data.count - bodyStart) }
            return true
        }
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + 4096)
            let nanoseconds = UInt64(Double(end - offset) / rate * 1_000_000_000)
            let due = state.withLock { () -> UInt64 in
                linkFreeAt = max(linkFreeAt, DispatchTime.now().uptimeNanoseconds) + nanoseconds
                return linkFreeAt
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { pause(Double(due - now) / 1_000_000_000) }
            guard state.withLock({ running }), send(client, data.subdata(in: offset..<end)) else { return false }
            state.withLock { delivered += max(0, end - max(offset, bodyStart)) }
            offset = end
        }
        return true
    }

    private func answer(_ client: Int32, _ behavior: Behavior) {
        switch behavior {
        case .respond(let status, let headers, let body):
            send(client, head(status: status, headers: headers, length: body.count) + body)
        case .drip(let status, let body, let chunkSize, let interval):
            send(client, head(status: status, headers: [:], length: body.count))
            var offset = 0
            while offset < body.count, state.withLock({ running }) {
                let end = min(body.count, offset + max(1, chunkSize))
                guard send(client, body.subdata(in: offset..<end)) else { return }
                offset = end
                if offset == body.count {
                    let now = DispatchTime.now().uptimeNanoseconds
                    state.withLock { lastDripEnd = now }
                    break
                }
                Thread.sleep(forTimeInterval: interval)
            }
        case .closeMidBody(let body, let bytes):
            send(client, head(status: 200, headers: [:], length: body.count) + body.prefix(bytes))
        case .silence:
            while state.withLock({ running && openSockets.contains(client) }) { Thread.sleep(forTimeInterval: 0.05) }
        case .raw(let bytes):
            send(client, bytes)
        case .gated(let status, let body, let firstBytes, let gate):
            let first = min(body.count, max(0, firstBytes))
            guard send(client, head(status: status, headers: [:], length: body.count) + body.prefix(first)) else { return }
            gate.wait(upTo: 900) { [self] in state.withLock { running } }
            send(client, body.subdata(in: first..<body.count))
        }
    }

    private func head(status: Int, headers: [String: String], length: Int, keepAlive: Bool = false) -> Data {
        var lines = ["HTTP/1.1 \(status) \(status < 400 ? "OK" : "Error")", "Content-Length: \(length)",
                     keepAlive ? "Connection: keep-alive" : "Connection: close"]
        if headers["Content-Type"] == nil { lines.append("Content-Type: application/json; charset=UTF-8") }
        lines += headers.map { "\($0.key): \($0.value)" }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    @discardableResult
    private func send(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                #if canImport(Glibc)
                let count = Glibc.send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                #else
                let count = Darwin.send(client, buffer.baseAddress! + sent, buffer.count - sent, 0)
                #endif
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    /// The next request on the connection; what arrived after it (a pipelined request) is left in `pending`.
    private func readRequest(_ client: Int32, pending: inout Data) -> Request? {
        var data = pending
        pending = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        while data.range(of: separator) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data.append(buffer, count: count)
            if data.count > 1 << 20 { return nil }
        }
        let headEnd = data.range(of: separator)!
        let headText = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[headEnd.upperBound...])
        let length = max(0, Int(headers["content-length"] ?? "0") ?? 0)
        while body.count < length {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { break }
            body.append(buffer, count: count)
        }
        if body.count > length {
            pending = Data(body[(body.startIndex + length)...])
            body = Data(body.prefix(length))
        }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }
}

extension LoopbackHTTPServer.Behavior {
    /// A JSON answer.
    public static func json(_ text: String, status: Int = 200) -> Self {
        .respond(status: status, headers: [:], body: Data(text.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(_ status: Int = 302, to location: String) -> Self {
        .respond(status: status, headers: ["Location": location], body: Data())
    }
}

extension LoopbackHTTPServer.Request {
    /// The query items of the target, percent-decoded.
    public var queryItems: [URLQueryItem] { URLComponents(string: target)?.queryItems ?? [] }
    /// The value of the first query item named `name` (e.g. "switcher", "meeting_ids[]").
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
    /// The path without the query.
    public var path: String { URLComponents(string: target)?.path ?? target }
}
