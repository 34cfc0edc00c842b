import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// `BMLTConfiguration.timeout = .infinity` (or a huge value) means no deadline, as documented, and must not crash.
/// FoundationNetworking turns the session's request timeout into milliseconds with `Int(seconds) * 1000`
/// (`_HTTPURLProtocol.configureEasyHandle`), which traps for an infinite, NaN or huge value: this crashed at the first
/// request on Linux against 4.2.7 and 2.16.6 (issue 49), while the tests that used `.infinity` ran on a URL protocol
/// stub that never reaches that code. Here `bmlt-observer --timeout inf|1e300 formats` runs as a child process (a crash
/// fails this test, not the suite) against a replay of the real 4.2.7 and 2.16.6 captures (`../shared/fixtures/
/// rootserver-42`, `rootserver`) over 127.0.0.1, so every request goes through libcurl. With the backstop switched
/// off (`Transport` handing the timeout itself to the session) `inf` stopped the child with signal 4, and `1e300` too
/// (under the thread sanitizer its crash handler then hung, which this test sees as a child that did not finish).
@Suite("timeout .infinity and 1e300 through the real HTTP stack, as processes", .serialized, .needsCaptures,
       .enabled(if: ChildProcess.isSupported, "no child processes on this platform"))
struct InfiniteTimeoutProcessTests {
    @Test("bmlt-observer --timeout inf and 1e300 against replayed 4.2.7 and 2.16.6: no crash, no deadline, the formats printed",
          arguments: ["inf", "1e300"], ["rootserver-42", "rootserver"])
    func noDeadlineNoCrash(timeout: String, folder: String) async throws {
        let http = try CaptureReplayServer.start(folder: folder)
        defer { http.stop() }
        let root = http.baseURL.appendingPathComponent("main_server").absoluteString
        let result = try #require(try await HostAppProcessTests.run("bmlt-observer", ["--no-spinner", "--server", root, "--timeout", timeout, "formats"],
                                                                    seconds: 120),
                                  "bmlt-observer --timeout \(timeout) against \(folder) did not finish in 120 s (a crash whose handler hung?)")
        #expect(result.status == 0, "--timeout \(timeout) against \(folder) exited \(result.status):\n\(result.output.suffix(2000))")
        #expect(result.output.range(of: #"(^|\n)[1-9][0-9]* formats\n"#, options: .regularExpression) != nil,
                "--timeout \(timeout) against \(folder):\n\(result.output.suffix(2000))")
        #expect(http.requests.contains { $0.target.contains("GetFormats") }, "the formats were asked through libcurl")
    }
}
