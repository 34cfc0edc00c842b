import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `timeout` is the whole call: every attempt, the waits between retries and every request of one call together, with
/// the default retry policy (which retries a timed-out read twice). Timed against a loopback server that reads each
/// request and never answers.
///
/// A read ends at its deadline plus one hop to the main actor (`DeadlineRace`): measured from the moment the deadline
/// passed (`BMLTRequest.deadlinePassedAt`) to the outcome. That bound is asserted tightly (1 s) only in a strict run —
/// `BMLTKIT_STRICT_TIMING=1`, this suite alone, without the thread sanitizer (`strictTiming`) — where nothing else
/// competes for the main actor; in any other run (the whole suite, TSan on 2 busy cores) the tests assert what no
/// load can change: the outcome comes after the deadline, no attempt starts after it, at most one attempt is sent.
/// Measured (validate(), 1.5 s, Linux, 2 busy cores): `.timeout` 0.006–0.008 s after the deadline in a strict run, 0.126 s
/// in a run of 98 tests at once; before the race the call ended 12.5 s after its start under a loaded TSan.
@Suite("timeout: the whole call, against a server that never answers", .serialized)
@MainActor
struct WholeCallTimeoutTests {
    static let timeout: TimeInterval = 1.5

    /// Whether this run may assert the tight bound: asked for (`BMLTKIT_STRICT_TIMING=1`, set by a run of this suite
    /// alone) and not under the thread sanitizer (whose runtime defines `__tsan_init` in the process).
    nonisolated static var strictTiming: Bool {
        ProcessInfo.processInfo.environment["BMLTKIT_STRICT_TIMING"] == "1" && !underThreadSanitizer
    }

    nonisolated static var underThreadSanitizer: Bool { TestRun.underThreadSanitizer }

    /// Seconds from `start` to `end` (uptime nanoseconds).
    nonisolated static func seconds(_ start: UInt64, _ end: UInt64) -> Double {
        end >= start ? Double(end - start) / 1e9 : -Double(start - end) / 1e9
    }

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

    func connection(_ server: LoopbackHTTPServer, attempts: Locked<[UInt64]>? = nil, timeout: TimeInterval = Self.timeout) -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = timeout     // the default retry policy: 2 retries of a timed-out read
        if let attempts {
            // When each attempt starts (`RequestLog.request` writes its line just before the attempt is sent).
            configuration.logLevel = .debug
            configuration.logHandler = { _, line in
                if line.hasPrefix("→ ") { attempts.withLock { $0.append(DispatchTime.now().uptimeNanoseconds) } }
            }
        }
        return BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
    }

    /// The requests `server` received for `switcher`, after waiting long enough for a retry to have been sent.
    func attempts(_ server: LoopbackHTTPServer, _ switcher: String) async throws -> Int {
        try await Task.sleep(nanoseconds: UInt64((Self.timeout + 1) * 1_000_000_000))
        return server.requests.filter { $0.query("switcher") == switcher }.count
    }

    @Test("validate() on a server that never answers: .timeout at its deadline plus one main-actor hop, one attempt, none after")
    func validateEndsAtTheTimeout() async throws {
        let server = try Self.server(answeringValidation: false)
        defer { server.stop() }
        let attempts = Locked<[UInt64]>([])
        let connection = connection(server, attempts: attempts)
        let started = DispatchTime.now().uptimeNanoseconds
        var request: BMLTRequest?
        var thrown: BMLTError?
        do throws(BMLTError) { _ = try await connection.run(BMLTConnection.validation) { request = $0 } } catch { thrown = error }
        let ended = DispatchTime.now().uptimeNanoseconds
        #expect(thrown == .timeout)
        let passed = try #require(request?.deadlinePassedAt, "the outcome came before the deadline passed")
        let late = Self.seconds(passed, ended)
        print("validate() against a silent server, timeout \(Self.timeout) s: deadline passed after "
              + "\(String(format: "%.3f", Self.seconds(started, passed))) s, .timeout \(String(format: "%.3f", late)) s after it "
              + "(\(Self.underThreadSanitizer ? "TSan" : "no TSan"), \(Self.strictTiming ? "strict" : "loose") run)")
        #expect(Self.seconds(started, passed) >= Self.timeout - 0.05, "not before the deadline")
        #expect(late >= 0)
        if Self.strictTiming { #expect(late < 1, "the read ends at its deadline plus one main-actor hop: \(late) s after it") }
        // No attempt starts after the deadline (each attempt's start is logged before it is sent).
        #expect(attempts.withLock { $0 }.allSatisfy { $0 <= passed }, "an attempt started after the deadline")
        let sent = try await self.attempts(server, "GetServerInfo")
        // At most the first attempt: on a loaded machine the whole call's deadline may pass before the first request
        // reaches the server (seen once in the full suite: 0 requests); a per-attempt deadline sent 3.
        #expect(sent <= 1, "the attempts stopped at the deadline: \(sent)")
        #expect(attempts.withLock { $0 }.allSatisfy { $0 <= passed }, "an attempt started after the deadline")
        #expect(connection.inFlightRequests.isEmpty)
    }

    @Test("a search (a retried read) on a server that stops answering: .timeout after about the timeout, no retry after it")
    func searchEndsAtTheTimeout() async throws {
        let server = try Self.server(answeringValidation: true)
        defer { server.stop() }
        let connection = connection(server)
        // The validation only sets the stage: under TSan on two busy cores its three answered requests can take longer
        // than 1.5 s (seen: 9.5 s), and then it is the search that validates, under the same deadline. Either way the
        // search's outcome is what this test asserts.
        _ = try? await connection.validate()
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
        // A deadline the validation meets under any load (it took 9.5 s under TSan beside two busy processes, and 1.5 s
        // failed it there); the test then sleeps past that deadline, counted from the call's start.
        let timeout: TimeInterval = 45
        let connection = connection(server, timeout: timeout)
        let started = DispatchTime.now().uptimeNanoseconds
        let info = try await connection.validate()
        let passed = started + UInt64((timeout + 0.5) * 1_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        if passed > now { try await Task.sleep(nanoseconds: passed - now) }
        #expect(connection.lastError == nil)
        #expect(connection.isValid && info.version.isEmpty == false)
    }
}
