#if os(macOS) || os(Linux)
import Foundation
import Testing
import LoopbackHTTPServer
import CaptureReplay

/// Every way a host observes a connection, each in a process of its own (`bmlt-host-patterns PATTERN`): a pattern
/// that crashed — a `forName: nil` observer on Linux did, when typed messages were posted to the same center —
/// takes down only its process and fails its test. Each run connects, searches, and checks that each observer saw
/// every BMLTKit event exactly once with its payload and the progress notifications in balanced pairs.
/// One child at a time (`.serialized`): 48 at once would load a small machine and slow the rest of the suite.
@Suite("Host observation patterns as processes", .serialized)
struct HostPatternProcessTests {
    static let patterns = ["named", "wildcard-connection", "wildcard-app", "main-queue", "posting-thread", "private-queue",
                           "remove-self", "chain", "typed", "events", "drop", "host-posted"]

    /// Runs one pattern; checks the exit status (a crash is a signal's status) and the program's own verdict.
    static func check(_ pattern: String, _ arguments: [String] = [], against server: String) async throws {
        let result = try #require(try await HostAppProcessTests.run("bmlt-host-patterns", [pattern] + arguments),
                                  "bmlt-host-patterns \(pattern) did not finish in 60 s against \(server)")
        #expect(result.status == 0, "\(pattern) against \(server) exited \(result.status):\n\(result.output)")
        #expect(result.output.contains("ok: \(pattern): "), "\(pattern) against \(server):\n\(result.output)")
        #expect(!result.output.contains("MISMATCH"), "\(pattern) against \(server):\n\(result.output)")
    }

    @Test("each pattern against the demo server: no crash, each event once with its payload, balanced progress", arguments: patterns)
    func demoServer(pattern: String) async throws {
        try await Self.check(pattern, against: "the demo server")
    }

    /// The same against real 2.16.6, 3.1.2, 4.1.0 and 4.2.7 servers' replies over 127.0.0.1 (only what a real client
    /// asked is answered).
    @Test("each pattern against replayed real root servers", .needsCaptures,
          arguments: ["rootserver", "rootserver-3x", "rootserver-4x", "rootserver-42"], patterns)
    func realServer(folder: String, pattern: String) async throws {
        let server = try CaptureReplayServer.start(folder: folder)
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server").absoluteString
        try await Self.check(pattern, [root, "--service-body", "1002", "--weekday", "2"], against: folder)
    }

    @Test("an unknown pattern is refused (exit 2), so a typo cannot pass as a run that checked nothing")
    func unknownPattern() async throws {
        let result = try #require(try await HostAppProcessTests.run("bmlt-host-patterns", ["no-such-pattern"]))
        #expect(result.status == 2)
    }
}
#endif
