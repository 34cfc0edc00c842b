import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// The whole pipeline through a second transport (`SocketTransport`, HTTP/1.1 over a POSIX socket, written in the
/// tests), and every guarantee BMLTKit keeps above any transport: deadline, size limit, redirects and credentials,
/// cookies, retries.
@Suite("A transport of the app's own")
@MainActor
struct CustomTransportTests {
    @Test("validate, search, log in, edit (PATCH body as recorded) and log out against the replayed 4.1.0 server, all through the socket transport",
          .needsCorpus)
    func wholePipeline() async throws {
        let router = Server4xRouter()
        let server = try StubOverSocket.start(router.handler)
        defer { server.stop() }
        let transport = SocketTransport()
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(timeout: hangGuardTimeout, httpTransport: transport))
        let info = try await connection.validate()
        #expect(info.version == "4.1.0" && !connection.server.serviceBodies.isEmpty)
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        var draft = meeting.editable()
        draft.name = "Edited through a socket"
        let saved = try await connection.saveAndWait(draft)
        #expect(saved.meeting.id == 2)
        let patch = try #require(router.recordedWrites.first { $0.method == "PATCH" })
        #expect(String(decoding: patch.body, as: UTF8.self) == #"{"name":"Edited through a socket"}"#)
        try await connection.logoutAndWait()
        let sent = transport.sent.withLock { $0 }
        #expect(sent.count == server.requests.count, "every request went through the transport")
        #expect(sent.allSatisfy { $0.value(forHTTPHeaderField: "User-Agent")?.hasPrefix("BMLTKit/") == true })
        #expect(sent.contains { $0.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true })
        #expect(connection.inFlightRequests.isEmpty)
    }

    /// A transport whose answers the test scripts.
    struct Scripted: BMLTHTTPTransport {
        let answer: @Sendable (URLRequest, Int) async throws -> BMLTHTTPResponse
        let calls = Locked<[URLRequest]>([])
        func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
            let number = calls.withLock { $0.append(request); return $0.count }
            return try await answer(request, number)
        }
    }

    @Test("a deadline already passed never reaches the transport: a zero timeout, and a deadline that ends during a redirect")
    func passedDeadline() async throws {
        let counting = Scripted { _, _ in Self.info }
        let request = URLRequest(url: URL(string: "https://x.example/main_server/client_interface/json/")!)
        let reply = await CustomTransportDriver.send(request, through: counting, deadlines: DeadlineQueue(timeout: 0), limit: 1_000_000)
        guard case .failure(.timeout) = reply else { Issue.record("expected a timeout, got \(reply)"); return }
        try await Task.sleep(nanoseconds: 100_000_000)   // time for a wrongly started task to call the transport
        #expect(counting.calls.withLock { $0.count } == 0, "the transport was called after its deadline")

        // The first answer is a redirect that comes after the deadline: the redirect is not followed. The transport
        // answers only once the timeout has been returned (order of events, not two timers racing on a busy machine).
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let answeredRedirect = Locked(false)
        let slowRedirect = Scripted { _, number in
            guard number == 1 else { return Self.info }
            for await _ in release { break }   // ignores cancellation, as a transport may
            answeredRedirect.withLock { $0 = true }
            return BMLTHTTPResponse(statusCode: 307, headers: ["Location": "https://x.example/elsewhere"], body: Data())
        }
        let redirected = await CustomTransportDriver.send(request, through: slowRedirect, deadlines: DeadlineQueue(timeout: 0.1), limit: 1_000_000)
        guard case .failure(.timeout) = redirected else { Issue.record("expected a timeout, got \(redirected)"); return }
        releaser.yield()
        releaser.finish()
        for _ in 0..<12_000 where !answeredRedirect.withLock({ $0 }) { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(answeredRedirect.withLock { $0 }, "the first attempt answered")
        try await Task.sleep(nanoseconds: 500_000_000)   // time for a wrongly followed redirect to call the transport
        #expect(slowRedirect.calls.withLock { $0.count } == 1, "the redirect was followed after the deadline")
    }

    nonisolated static let info = BMLTHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(SampleReplies.serverInfo3x.utf8))

    @Test("the deadline holds even when the transport ignores cancellation; reads retry a lost connection, writes never")
    func deadlineAndRetries() async throws {
        // Answers after 60 s whatever happens: it does not look at cancellation. The deadline must end the request
        // before that — checked by order (the transport has not answered yet), not by a stopwatch.
        let answered = Locked(false)
        let stubborn = Scripted { _, _ in
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                    answered.withLock { $0 = true }
                    continuation.resume()
                }
            }
            return Self.info
        }
        let slow = BMLTConnection(rootServerURL: URL(string: "https://slow.example/main_server")!,
                                  configuration: BMLTConfiguration(timeout: 0.5, retryPolicy: .none, httpTransport: stubborn))
        await #expect(throws: BMLTError.timeout) { try await slow.validate() }
        #expect(!answered.withLock { $0 }, "ended by the deadline, not by the transport")
        #expect(slow.inFlightRequests.isEmpty)

        let flaky = Scripted { _, number in
            if number <= 2 { throw URLError(.networkConnectionLost) }
            return Self.info
        }
        let retried = BMLTConnection(rootServerURL: URL(string: "https://flaky.example/main_server")!,
                                     configuration: BMLTConfiguration(timeout: hangGuardTimeout, retryPolicy: BMLTRetryPolicy(maximumRetries: 2, baseDelay: 0.01),
                                                                      httpTransport: flaky))
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.monday]
        _ = try? await retried.meetings(matching: criteria)
        #expect(flaky.calls.withLock { $0.count } >= 3, "two lost connections, then an answer")
    }

    @Test("the size limit, redirects (https → http refused, credentials dropped on another host) and the cookie jar")
    func limitsRedirectsCookies() async throws {
        let big = Scripted { _, _ in BMLTHTTPResponse(statusCode: 200, headers: [:], body: Data(repeating: 0x20, count: 2_000)) }
        let limited = BMLTConnection(rootServerURL: URL(string: "https://big.example/main_server")!,
                                     configuration: BMLTConfiguration(timeout: hangGuardTimeout, maximumResponseSize: 1_000, httpTransport: big))
        await #expect(throws: BMLTError.responseTooLarge(limit: 1_000)) { try await limited.validate() }

        let downgrade = Scripted { _, _ in BMLTHTTPResponse(statusCode: 302, headers: ["location": "http://plain.example/x"], body: Data()) }
        let refused = BMLTConnection(rootServerURL: URL(string: "https://secure.example/main_server")!,
                                     configuration: BMLTConfiguration(timeout: hangGuardTimeout, httpTransport: downgrade))
        do {
            _ = try await refused.validate()
            Issue.record("an https → http redirect must be refused")
        } catch {}
        // Validation's first round (GetServerInfo and what is read beside it): each redirect refused, none followed.
        // How many of the round's reads were sent before the first refusal ended it depends on the scheduling (seen:
        // 2 of 3 once, in the 5-years-ahead run beside another build); what matters is that none went to http.
        let asked = downgrade.calls.withLock { $0 }
        #expect((1...3).contains(asked.count) && asked.allSatisfy { $0.url?.scheme == "https" },
                "the http address was never asked: \(asked.compactMap(\.url))")

        let elsewhere = Scripted { request, number in
            if number == 1 {
                return BMLTHTTPResponse(statusCode: 301, headers: ["Location": "https://other.example/main_server/client_interface/json/?switcher=GetServerInfo",
                                                                   "Set-Cookie": "session=abc; Path=/"], body: Data())
            }
            return Self.info
        }
        var request = URLRequest(url: URL(string: "https://first.example/main_server/client_interface/json/?switcher=GetServerInfo")!)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        // A hang guard only (the redirect must be followed, not raced): 5 s was a deadline a stalled machine could beat.
        let reply = await CustomTransportDriver.send(request, through: elsewhere, deadlines: DeadlineQueue(timeout: hangGuardTimeout), limit: 1_000_000)
        #expect((try? reply.get())?.statusCode == 200)
        let calls = elsewhere.calls.withLock { $0 }
        #expect(calls.count == 2 && calls[1].url?.host == "other.example")
        #expect(calls[1].value(forHTTPHeaderField: "Authorization") == nil, "credentials stay with their host")

        let cookies = Scripted { request, number in
            number == 1 ? BMLTHTTPResponse(statusCode: 200, headers: ["Set-Cookie": "PHPSESSID=xyz; Path=/"], body: Data(SampleReplies.serverInfo2x.utf8))
                        : BMLTHTTPResponse(statusCode: 200, headers: [:], body: Data("[]".utf8))
        }
        let jar = BMLTConnection(rootServerURL: URL(string: "https://jar.example/main_server")!,
                                 configuration: BMLTConfiguration(timeout: hangGuardTimeout, httpTransport: cookies))
        _ = try? await jar.validate()
        // The first round's requests go out together, before any answer: the next validation's all carry the cookie.
        let first = cookies.calls.withLock { $0.count }
        _ = try? await jar.validate()
        let later = cookies.calls.withLock { $0 }.dropFirst(first)
        #expect(!later.isEmpty && later.allSatisfy { $0.value(forHTTPHeaderField: "Cookie") == "PHPSESSID=xyz" }, "the jar is BMLTKit's")
    }
}
