import Foundation
import Testing
import LoopbackHTTPServer
import CaptureReplay

/// The host-app samples, run as real processes (an `async` main and a `dispatchMain()` program) against the
/// embedded demo server. Both register `queue: .main` observers; a hang (the Linux main-queue deadlock) fails
/// the test after the time limit instead of blocking the suite.
@Suite("Host-app samples as processes", .enabled(if: ChildProcess.isSupported, "child processes need Process (macOS and Linux only)"))
struct HostAppProcessTests {
    /// Runs `name`, returns its exit status and output, or `nil` when it did not finish within `seconds` (waiting
    /// without blocking a thread: see `ChildProcess`). The limit is a hang guard only (a deadlocked main queue), generous
    /// for a thread-sanitized child on a machine whose cores are both busy.
    static func run(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:],
                    seconds: TimeInterval = 900) async throws -> (status: Int32, output: String)? {
        let url = try #require(BuildProducts.executable(name),
                               "\(name) is built by swift build --build-tests; looked in \(BuildProducts.searchFolders.map(\.path))")
        guard let outcome = await ChildProcess.run(url, arguments, environment: environment, seconds: seconds) else { return nil }
        return (outcome.status, outcome.text)
    }

    @Test("bmlt-host-app (async main, queue: .main observers, typed messages, events loop) finishes and sees every event once")
    func asyncMain() async throws {
        let result = try #require(try await Self.run("bmlt-host-app"), "bmlt-host-app did not finish in 900 s (main-queue deadlock?)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("every observer saw every event once, in order"), "\(result.output)")
        #expect(result.output.contains("spinner: on") && result.output.contains("spinner: off"), "\(result.output)")
        #expect(result.output.contains("login refused:"), "\(result.output)")
        #expect(result.output.contains("validated: true"), "\(result.output)")
    }

    @Test("bmlt-host-app-dispatch (dispatchMain, queue: .main observers) finishes")
    func dispatchMainProgram() async throws {
        let result = try #require(try await Self.run("bmlt-host-app-dispatch"), "bmlt-host-app-dispatch did not finish in 900 s")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("found "), "\(result.output)")
        #expect(result.output.contains("done: "), "\(result.output)")
    }

    /// The same program against real root servers' replies (2.16.6, 3.1.2, 4.1.0, 4.2.7) served over 127.0.0.1: only the
    /// requests a real client sent are answered, so the sample must ask exactly what a real server understands.
    @Test("bmlt-host-app against replayed real root servers finishes and sees every event once",
          .needsCaptures,
          arguments: ["rootserver", "rootserver-3x", "rootserver-4x", "rootserver-42"])
    func realServer(folder: String) async throws {
        let server = try CaptureReplayServer.start(folder: folder)
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server").absoluteString
        let result = try #require(try await Self.run("bmlt-host-app", [root, "--service-body", "1002", "--weekday", "2"]),
                                  "bmlt-host-app did not finish in 900 s against \(folder)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("validated: true"), "\(result.output)")
        #expect(result.output.contains("every observer saw every event once, in order"), "\(result.output)")
        let found = result.output.split(separator: "\n").first { $0.hasPrefix("search: ") }
        #expect(found != nil && found != "search: 0 meetings", "\(result.output)")
    }
}
