import Foundation
import LoopbackHTTPServer
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C on the real program with its standard error on a pseudo-terminal: the spinner's line is cleared
/// (no `⠸ working…^C` left), the program says it was interrupted and exits 130.
@Suite("bmlt-observer Ctrl-C", .enabled(if: ChildProcess.isSupported, "child processes need Process (macOS and Linux only)"))
struct InterruptTests {
    @Test("SIGINT while the spinner spins: the line is cleared, 'interrupted', exit 130")
    func interruptClearsTheLine() async throws {
        #if os(macOS) || os(Linux)   // Process: the suite is disabled elsewhere
        // The built program beside the test bundle (SwiftPM builds it with the tests); missing is a failure, not a skip.
        let observerBinary = try #require(BuildProducts.executable("bmlt-observer"),
                                          "bmlt-observer is built by swift build --build-tests; looked in \(BuildProducts.searchFolders.map(\.path))")
        let http = try LoopbackHTTPServer { _ in .silence }
        defer { http.stop() }
        let terminal = try SpinnerTerminalTests.PseudoTerminal()
        defer { terminal.close() }
        let process = Process()
        process.executableURL = observerBinary
        // A budget far past the hang guards below: only the interrupt ends the run, never the silent server's deadline.
        process.arguments = ["--server", http.baseURL.appendingPathComponent("main_server").absoluteString, "--timeout", "3600", "info"]
        process.standardError = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        // Each wait ends as soon as its event is seen; the counts (900 s) are hang guards for a sanitized child on a busy machine.
        for _ in 0..<18_000 where !seen.contains("working") {
            try await Task.sleep(nanoseconds: 50_000_000)
            seen += drain(terminal.main)
        }
        #expect(seen.contains("working…"), "the spinner was drawn: \(seen.debugDescription)")
        process.interrupt()
        for _ in 0..<18_000 where process.isRunning { try await Task.sleep(nanoseconds: 50_000_000) }
        try await Task.sleep(nanoseconds: 100_000_000)
        seen += drain(terminal.main)
        #expect(!process.isRunning)
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        #expect(process.terminationStatus == 130)
        let tail = seen.components(separatedBy: "working…").last ?? ""
        #expect(tail.contains("\r\u{1B}[Kbmlt-observer: interrupted"), "\(tail.debugDescription)")
        #endif
    }

    private func drain(_ descriptor: Int32) -> String { readableNow(descriptor) }
}
