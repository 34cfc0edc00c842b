import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// The transport over real sockets on 127.0.0.1: what a URLProtocol stub cannot show.
@Suite("Transport over a loopback HTTP server")
@MainActor
struct LoopbackTransportTests {
    /// Answers validation like a healthy 2.x server.
    nonisolated static func healthy(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        if request.path.hasSuffix("GetLangs.php") { return .json(SampleReplies.languages) }
        switch request.query("switcher") {
        case "GetServerInfo": return .json(SampleReplies.serverInfo2x)
        case "GetServiceBodies": return .json(SampleReplies.serviceBodies)
        case "GetFormats": return .json(SampleReplies.formats)
        default: return .json("[]")
        }
    }

    private func connection(_ server: LoopbackHTTPServer, edit: (inout BMLTConfiguration) -> Void = { _ in }) -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        edit(&configuration)
        return BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
    }

    @Test("validation works over real HTTP on loopback (http allowed for 127.0.0.1)")
    func validatesOverHTTP() async throws {
        let server = try LoopbackHTTPServer(handler: Self.healthy)
        defer { server.stop() }
        let connection = connection(server)
        let info = try await connection.validate()
        #expect(info.version == "2.16.4")
        #expect(server.requests.first?.headers["user-agent"] == "BMLTKit/\(BMLTKitVersion.current)")
    }

    @Test("every request carries the user agent and a JSON Accept; a user agent with a line break is not sent")
    func standardHeaders() async throws {
        let server = try LoopbackHTTPServer(handler: Self.healthy)
        defer { server.stop() }
        _ = try await connection(server).validate()
        let first = try #require(server.requests.first)
        #expect(first.headers["user-agent"] == "BMLTKit/\(BMLTKitVersion.current)")
        #expect(first.headers["accept"] == "application/json, text/plain;q=0.9, */*;q=0.5")

        let injected = connection(server) { $0.userAgent = "Evil\r\nX-Injected: 1" }
        _ = try await injected.validate()
        let last = try #require(server.requests.last)
        #expect(last.headers["x-injected"] == nil)
        #expect(last.headers["user-agent"]?.contains("Evil") != true)
    }

    @Test("a request's own Accept replaces the default one, whatever its case; a header value with a line break is left out")
    func madeRequests() {
        let transport = Transport(configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let request = transport.makeRequest(URL(string: "https://example.org/main_server/api/v1/meetings")!, method: "POST",
                                            headers: ["accept": "application/json", "X-Bad": "a\r\nb"], body: Data("{}".utf8))
        let fields = request.allHTTPHeaderFields ?? [:]
        #expect(fields.keys.filter { $0.lowercased() == "accept" }.count == 1)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "X-Bad") == nil)
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "BMLTKit/\(BMLTKitVersion.current)")
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == Data("{}".utf8))
        let get = transport.makeRequest(URL(string: "https://example.org/main_server/client_interface/json/")!)
        #expect(get.httpMethod == "GET")
        #expect(get.value(forHTTPHeaderField: "Accept") == "application/json, text/plain;q=0.9, */*;q=0.5")
    }

    @Test("a redirect to another host is followed without Authorization or Cookie")
    func redirectDropsCredentials() async throws {
        // Another host: a second server on 127.0.0.1 named `localhost` (macOS has no 127.0.0.2).
        let target = try LoopbackHTTPServer(handler: Self.healthy)
        defer { target.stop() }
        let origin = try LoopbackHTTPServer { request in .redirect(to: "http://localhost:\(target.port)" + request.target) }
        defer { origin.stop() }
        let transport = Transport(configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let request = transport.makeRequest(origin.baseURL.appendingPathComponent("main_server/client_interface/json/"),
                                            headers: ["Authorization": "Bearer secret-token"])
        let reply = try await transport.send(request)
        #expect(reply.statusCode == 200)
        #expect(origin.requests.first?.headers["authorization"] == "Bearer secret-token")
        let followed = try #require(target.requests.first)
        #expect(followed.headers["authorization"] == nil)
        #expect(followed.headers["cookie"] == nil)
    }

    @Test("connection refused is a transport error naming it")
    func refused() async throws {
        let dead = try RefusingLoopbackPort()   // held: no other test's server can take the port meanwhile
        defer { dead.close() }
        let connection = BMLTConnection(rootServerURL: dead.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout, retryPolicy: .none))
        do {
            _ = try await connection.validate()
            Issue.record("must fail")
        } catch let error as BMLTError {
            guard case .transport(let code) = error else { Issue.record("unexpected \(error)"); return }
            #expect(code == URLError.cannotConnectToHost.rawValue)
            #expect(connection.server.lastError == error)
        }
    }

    @Test("a server that closes mid-body gives an error, never a truncated success")
    func closesMidBody() async throws {
        let server = try LoopbackHTTPServer { _ in .closeMidBody(body: Data(SampleReplies.serverInfo2x.utf8), bytes: 60) }
        defer { server.stop() }
        let connection = connection(server)
        await #expect(throws: BMLTError.self) { try await connection.validate() }
        #expect(!connection.isValid)
    }

    @Test("a server that drips a byte at a time, or never answers, times out at the configured deadline, not at the end of the body")
    func slowServersTimeOut() async throws {
        // The whole body would take about 140 s (a byte every 0.25 s), and each byte keeps the session's own idle timer
        // from firing: only BMLTKit's deadline (0.5 s) can end the request early. Checked by the order of events (the
        // drip had not sent its last byte when the timeout came) and one request only, not by a stopwatch: under the
        // thread sanitizer with both cores busy a 0.4 s deadline was observed after 14 s. The 120 s bound only keeps a
        // hang from passing.
        let drip = try LoopbackHTTPServer { _ in .drip(status: 200, body: Data(SampleReplies.serverInfo2x.utf8), chunkSize: 1, interval: 0.25) }
        defer { drip.stop() }
        let silent = try LoopbackHTTPServer { _ in .silence }
        defer { silent.stop() }
        for server in [drip, silent] {
            let connection = connection(server) { $0.timeout = 0.5 }
            let started = Date()
            await #expect(throws: BMLTError.timeout) { try await connection.validate() }
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.45, "not before the deadline: \(elapsed) s")
            #expect(elapsed < 120, "timed out after \(elapsed) s")
            // Validation's one round: GetServerInfo with the two lists beside it, each sent once (no retry).
            let switchers = server.requests.map { $0.query("switcher") ?? "" }
            // At most once: `timeout` is the whole call, whose deadline may pass before a loaded machine has sent anything.
            #expect(switchers.filter { $0 == "GetServerInfo" }.count <= 1, "GetServerInfo once at most, no retry: \(switchers)")
            #expect(switchers.count == Set(switchers).count && switchers.count <= 3, "one round, no retry: \(switchers)")
        }
        #expect(drip.lastDripEndNanoseconds == nil, "the timeout came before the dripped body was complete")
    }

    @Test("a body over the size limit is refused while it streams, memory bounded")
    func oversizedBody() async throws {
        let big = Data(("[" + String(repeating: #"{"id":"1","name":"x"},"#, count: 50_000) + "{}]").utf8)
        let server = try LoopbackHTTPServer { request in
            request.query("switcher") == "GetServiceBodies"
                ? .drip(status: 200, body: big, chunkSize: 64 * 1024, interval: 0) : Self.healthy(request)
        }
        defer { server.stop() }
        let connection = connection(server) { $0.maximumResponseSize = 100_000 }
        await #expect(throws: BMLTError.responseTooLarge(limit: 100_000)) { try await connection.validate() }
    }
}
