import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// `timeout` is the whole call: every attempt, the waits between retries and every request of one call together, with
/// the default retry policy (which retries a timed-out read twice). Timed against a loopback server that reads each
/// request and never answers. The upper bounds are generous (a busy machine, TSan); what tells a whole-call deadline
/// from a per-attempt one is that no attempt starts after it. Measured here: 1.52 s (validate) and 1.50 s (search) for a
/// 1.5 s timeout alone, 5.9 s and 1.7 s during the whole suite on 2 busy cores (the cancelled attempt's end is
/// delivered late there, never a retry); with the deadline per attempt, as before, 5.9 s and 3 attempts each, alone.
@Suite("timeout: the whole call, against a server that never answers", .serialized)
@MainActor
struct WholeCallTimeoutTests {
    static let timeout: TimeInterval = 1.5

    /// Validation answered (or not, `answeringValidation` false), everything else never answered.
    nonisolated static func server(answeringValidation: Bool) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            guard answeringValidation else { return .silence }
            if request.path.hasSuffix("GetLangs.php") { return .json(SampleReplies.languages) }
            switch request.query("switcher") {
            case "GetServerInfo": return .json(SampleReplies.serverInfo3x)
            case "GetServiceBodies": return .json(SampleReplies.serviceBodies)
            case "GetFormats": return .json(SampleReplies.formats)
            default: return .silence
            }
        }
    }

    func connection(_ server: LoopbackHTTPServer) -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = Self.timeout     // the default retry policy: 2 retries of a timed-out read
        return BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
    }

    /// The requests `server` received for `switcher`, after waiting long enough for a retry to have been sent.
    func attempts(_ server: LoopbackHTTPServer, _ switcher: String) async throws -> Int {
        try await Task.sleep(nanoseconds: UInt64((Self.timeout + 1) * 1_000_000_000))
        return server.requests.filter { $0.query("switcher") == switcher }.count
    }

    @Test("validate() on a server that never answers: .timeout after about the timeout, one attempt, none after")
    func validateEndsAtTheTimeout() async throws {
        let server = try Self.server(answeringValidation: false)
        defer { server.stop() }
        let connection = connection(server)
        let started = Date()
        await #expect(throws: BMLTError.timeout) { try await connection.validate() }
        let elapsed = Date().timeIntervalSince(started)
        print("validate() against a silent server, timeout \(Self.timeout) s: .timeout after \(String(format: "%.3f", elapsed)) s")
        #expect(elapsed >= Self.timeout - 0.05, "not before the deadline: \(elapsed) s")
        #expect(elapsed < Self.timeout + 30, "the whole call, not per attempt: \(elapsed) s")
        let sent = try await attempts(server, "GetServerInfo")
        // At most the first attempt: on a loaded machine the whole call's deadline may pass before the first request
        // reaches the server (seen once in the full suite: 0 requests); a per-attempt deadline sent 3.
        #expect(sent <= 1, "the attempts stopped at the deadline: \(sent)")
        #expect(connection.inFlightRequests.isEmpty)
    }

    @Test("a search (a retried read) on a server that stops answering: .timeout after about the timeout, no retry after it")
    func searchEndsAtTheTimeout() async throws {
        let server = try Self.server(answeringValidation: true)
        defer { server.stop() }
        let connection = connection(server)
        _ = try await connection.validate()
        let started = Date()
        await #expect(throws: BMLTError.timeout) { try await connection.meetings(matching: BMLTSearchCriteria()) }
        let elapsed = Date().timeIntervalSince(started)
        print("meetings(matching:) against a silent search, timeout \(Self.timeout) s: .timeout after \(String(format: "%.3f", elapsed)) s")
        #expect(elapsed >= Self.timeout - 0.05 && elapsed < Self.timeout + 30, "\(elapsed) s")
        let sent = try await attempts(server, "GetSearchResults")
        #expect(sent <= 1, "at most one attempt: the deadline came before any retry (\(sent))")
        #expect(connection.lastError == .timeout)
    }

    @Test("an operation that ends in time is not touched by its deadline later: no .timeout, no cancellation")
    func finishedCallsKeepTheirOutcome() async throws {
        let server = try Self.server(answeringValidation: true)
        defer { server.stop() }
        let connection = connection(server)
        let info = try await connection.validate()
        try await Task.sleep(nanoseconds: UInt64((Self.timeout + 0.5) * 1_000_000_000))
        #expect(connection.lastError == nil)
        #expect(connection.isValid && info.version.isEmpty == false)
    }
}
