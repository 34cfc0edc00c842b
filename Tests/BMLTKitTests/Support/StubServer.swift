import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import BMLTKit

/// A stand-in root server for tests: a `URLProtocol` that answers requests for its own unique host from a
/// handler closure. Each test makes its own `StubServer`, so tests running in parallel never see each
/// other's requests. Nothing leaves the process.
final class StubServer: @unchecked Sendable {
    /// What the stub answers.
    struct Response: Sendable {
        var status: Int = 200
        var headers: [String: String] = ["Content-Type": "application/json; charset=UTF-8"]
        var body: Data = Data()
        /// Seconds to wait before answering.
        var delay: TimeInterval = 0
        /// Fail with this URL error code instead of answering.
        var failure: URLError.Code?
        /// Never answer (until the request is cancelled).
        var hangs = false
        /// Answer only once this says so (checked every 5 ms, after `delay`): an order of events the test holds, where
        /// a delay would be a guess of how late a busy machine runs.
        var heldUntil: (@Sendable () -> Bool)?
        /// Send the body in pieces of this many bytes, `chunkInterval` seconds apart (0: all at once).
        var chunkSize = 0
        /// Seconds between body pieces.
        var chunkInterval: TimeInterval = 0
        /// Drop the connection after sending this many body bytes.
        var dropAfter: Int?

        static func json(_ text: String, status: Int = 200, delay: TimeInterval = 0) -> Response {
            Response(status: status, body: Data(text.utf8), delay: delay)
        }
        static func text(_ text: String, status: Int = 200, contentType: String = "text/html; charset=UTF-8") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }
        static func failing(_ code: URLError.Code) -> Response { Response(failure: code) }
        static let hanging = Response(hangs: true)
    }

    typealias Handler = @Sendable (URLRequest) -> Response

    let host: String
    private let handler: Locked<Handler>
    private let log = Locked<[URLRequest]>([])
    private let stops = Locked<[URLRequest]>([])

    /// A stub with a fresh host; `handler` answers every request.
    init(_ handler: @escaping Handler) {
        host = "t\(UUID().uuidString.prefix(12).lowercased()).stub.test"
        self.handler = Locked(handler)
        StubProtocol.register(self)
    }

    deinit { StubProtocol.unregister(host) }

    /// The root URL of this stub server.
    var rootURL: URL { URL(string: "https://\(host)/main_server")! }

    /// Replaces the handler (e.g. to make the next validation fail).
    func answer(_ handler: @escaping Handler) { self.handler.withLock { $0 = handler } }

    /// Every request received, in order.
    var requests: [URLRequest] { log.withLock { $0 } }

    /// The requests stopped (cancelled) before their answer was sent, in order.
    var requestsStoppedEarly: [URLRequest] { stops.withLock { $0 } }

    fileprivate func recordStop(_ request: URLRequest) { stops.withLock { $0.append(request) } }

    private let offThread = Locked(0)
    /// Client calls made on another thread than the one that ran the request's `startLoading` (Apple platforms: Apple's
    /// rule for a `URLProtocol`, which `onClientThread` keeps; always 0 on Linux, where it is not recorded).
    var clientCallsOffTheLoadingThread: Int { offThread.withLock { $0 } }
    fileprivate func recordOffThreadCall() { offThread.withLock { $0 += 1 } }

    /// A configuration whose session goes to stubs only. Its `timeout` is a hang guard (`hangGuardTimeout`), not the
    /// default 30 s a loaded machine can use up before a stub is even asked. Tests of the deadline set their own.
    func configuration(center: NotificationCenter = NotificationCenter(),
                       monitors: [any BMLTEventMonitor] = []) -> BMLTConfiguration {
        let session = URLSessionConfiguration.ephemeral
        session.protocolClasses = [StubProtocol.self]
        var configuration = BMLTConfiguration(notificationCenter: center, eventMonitors: monitors, urlSessionConfiguration: session)
        configuration.timeout = hangGuardTimeout
        configuration.locale = Locale(identifier: "en")   // the tests assert BMLTKit's English, whatever LANG says
        return configuration
    }

    fileprivate func respond(to request: URLRequest) -> Response {
        log.withLock { $0.append(request) }
        let handler = self.handler.withLock { $0 }
        return handler(request)
    }
}

/// The `URLProtocol` behind every `StubServer`, routing by host.
final class StubProtocol: URLProtocol {
    private static let servers = Locked<[String: StubServer]>([:])
    /// Held while the client is called and while `stopLoading` runs: Foundation on Linux stops a cancelled
    /// task's protocol and then completes the task, after which any client call crashes it. Calls made under
    /// this lock either finish before `stopLoading` returns or see `stopped` and do nothing.
    private let gate = NSRecursiveLock()
    nonisolated(unsafe) private var stopped = false
    /// Set once the answer has been handed to the client (under `gate`).
    nonisolated(unsafe) private var answered = false

    /// Runs `body` with the client unless the request was stopped.
    private func whileLoading(_ body: () -> Void) {
        gate.lock()
        defer { gate.unlock() }
        guard !stopped else { return }
        #if !canImport(FoundationNetworking)
        if CFRunLoopGetCurrent() !== clientLoop, let host = request.url?.host {
            Self.servers.withLock { $0[host] }?.recordOffThreadCall()
        }
        #endif
        body()
    }

    #if !canImport(FoundationNetworking)
    /// The run loop that ran `startLoading`, and its mode then (Apple platforms): every late client call is performed
    /// there (`onClientThread`). Written once in `startLoading`, before any late call is scheduled.
    nonisolated(unsafe) private var clientLoop: CFRunLoop?
    nonisolated(unsafe) private var clientMode: CFRunLoopMode = .defaultMode
    #endif

    static func register(_ server: StubServer) { servers.withLock { $0[server.host] = server } }
    static func unregister(_ host: String) { _ = servers.withLock { $0.removeValue(forKey: host) } }

    override class func canInit(with request: URLRequest) -> Bool {
        guard let host = request.url?.host else { return false }
        return servers.withLock { $0[host] != nil }
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        #if !canImport(FoundationNetworking)
        let loop = CFRunLoopGetCurrent()
        let mode: CFRunLoopMode? = CFRunLoopCopyCurrentMode(loop)
        clientLoop = loop
        clientMode = mode ?? .defaultMode
        #endif
        if let later = takeLater() { return later() }
        guard let host = request.url?.host, let server = Self.servers.withLock({ $0[host] }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        var request = self.request
        if request.httpBody == nil, let stream = request.httpBodyStream {
            request.httpBody = Self.read(stream)
        }
        let response = server.respond(to: request)
        if response.hangs { return }
        guard response.delay > 0 || response.heldUntil != nil else { return deliver(response) }
        // A late answer (delayed or held) is handed to the client where Foundation expects it, never from the timer's
        // thread: see `onClientThread(_:)`.
        nonisolated(unsafe) let this = self
        let deliverLater: @Sendable () -> Void = {
            this.onClientThread { this.deliver(response) }
        }
        let release: @Sendable () -> Void
        if let released = response.heldUntil {
            release = { this.hold(until: released, then: deliverLater) }
        } else {
            release = deliverLater
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + response.delay, execute: release)
    }

    /// Calls `deliver` once `released` says so, or never when the request is stopped first.
    private func hold(until released: @escaping @Sendable () -> Bool, then deliver: @escaping @Sendable () -> Void) {
        gate.lock()
        let isStopped = stopped
        gate.unlock()
        guard !isStopped else { return }
        guard released() else {
            nonisolated(unsafe) let this = self
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.005) { this.hold(until: released, then: deliver) }
            return
        }
        deliver()
    }

    private func deliver(_ response: StubServer.Response) {
        whileLoading { deliverNow(response) }
    }

    private func deliverNow(_ response: StubServer.Response) {
            answered = true
            if let failure = response.failure {
                client?.urlProtocol(self, didFailWithError: URLError(failure))
                return
            }
            let head = HTTPURLResponse(url: self.request.url!, statusCode: response.status, httpVersion: "HTTP/1.1",
                                       headerFields: response.headers)!
            client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
            var body = response.body
            if let dropAfter = response.dropAfter { body = body.prefix(dropAfter) }
            guard response.chunkSize > 0 else {
                client?.urlProtocol(self, didLoad: body)
                finish(response)
                return
            }
            drip(body, response: response)
    }

    private func finish(_ response: StubServer.Response) {
        if response.dropAfter != nil {
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
        } else {
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// Sends the body a piece at a time until it is done or the request is stopped.
    private func drip(_ remaining: Data, response: StubServer.Response) {
        var more = false
        whileLoading {
            if remaining.isEmpty {
                finish(response)
            } else {
                client?.urlProtocol(self, didLoad: remaining.prefix(response.chunkSize))
                more = true
            }
        }
        guard more else { return }
        let rest = Data(remaining.dropFirst(response.chunkSize))
        nonisolated(unsafe) let this = self
        DispatchQueue.global().asyncAfter(deadline: .now() + response.chunkInterval) {
            this.onClientThread { this.drip(rest, response: response) }
        }
    }

    /// A late call waiting for `startLoading` to run again on the work queue (under `gate`).
    nonisolated(unsafe) private var later: (@Sendable () -> Void)?

    private func takeLater() -> (@Sendable () -> Void)? {
        gate.lock()
        defer { gate.unlock() }
        let body = later
        later = nil
        return body
    }

    /// Runs `body`, which calls the client, where Foundation expects the client to be called.
    ///
    /// Linux: swift-corelibs-foundation reads the session's task registry in every `URLProtocolClient` call, and that
    /// registry may only be touched on the session's work queue (`URLSession._TaskRegistry`: "must only be accessed on the
    /// owning session's work queue"); all sessions' work queues target one serial queue. A stub that called its client
    /// from a timer's thread read the registry while the queue added or removed another task: a SEGV in
    /// `URLSession.behaviour(for:)` under the thread sanitizer (issue 50, run G). There, `suspend()` then `resume()` of
    /// the task calls this protocol's `stopLoading()` and then `startLoading()` again, both on the work queue, and the
    /// second `startLoading()` runs `body`. A task cancelled meanwhile is never resumed: its `stopLoading()` is the
    /// real one and `body` never runs.
    ///
    /// Apple platforms (Apple audit A4): the client is called on the thread that ran `startLoading`, in the run-loop
    /// mode it ran in — the rule of Apple's CustomHTTPProtocol sample ("call the client on the client thread"), which
    /// OHHTTPStubs follows the same way: `body` is performed on that thread's run loop (`CFRunLoopPerformBlock`, then
    /// `CFRunLoopWakeUp`), where `stopLoading` also runs, so a late call and a stop never overlap. Compiled by
    /// construction and recorded (`StubServer.clientCallsOffTheLoadingThread`, checked by
    /// `StubClientThreadTests` on a Mac); not run here.
    /// ```swift
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { this.onClientThread { this.deliver(response) } }
    /// ```
    private func onClientThread(_ body: @escaping @Sendable () -> Void) {
        #if canImport(FoundationNetworking)
        guard let task else { return }
        gate.lock()
        later = body
        gate.unlock()
        task.suspend()
        task.resume()
        #else
        guard let loop = clientLoop else { return body() }
        CFRunLoopPerformBlock(loop, clientMode.rawValue, body)
        CFRunLoopWakeUp(loop)
        #endif
    }

    override func stopLoading() {
        #if canImport(FoundationNetworking)
        // `onClientThread`'s `suspend()`: not a stop (a cancelled task is `.canceling` here, never `.suspended`).
        if task?.state == .suspended { return }
        #endif
        gate.lock()
        stopped = true
        let early = !answered
        gate.unlock()
        if early, let host = request.url?.host, let server = Self.servers.withLock({ $0[host] }) { server.recordStop(request) }
    }

    private static func read(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

/// Records every event a connection emits (an event monitor: no NotificationCenter involved).
final class EventRecorder: BMLTEventMonitor, @unchecked Sendable {
    private let events = Locked<[BMLTEvent]>([])

    func connection(_ connection: BMLTConnection, didEmit event: BMLTEvent) {
        events.withLock { $0.append(event) }
    }

    var all: [BMLTEvent] { events.withLock { $0 } }
    /// The notification names of the events, in order.
    var names: [String] { all.map { $0.notificationName.rawValue.replacingOccurrences(of: "org.bmlt.kit.", with: "") } }
    func count(_ name: Notification.Name) -> Int { all.filter { $0.notificationName == name }.count }
    var errors: [BMLTError] { all.compactMap { if case .error(let error, _) = $0 { error } else { nil } } }
    func removeAll() { events.withLock { $0.removeAll() } }
}

extension URLRequest {
    /// The query items of the request URL, percent-decoded.
    var queryItems: [URLQueryItem] {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
    }
    /// The value of one query item.
    func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}
