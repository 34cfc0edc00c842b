import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmlt-observer check` as the real program (child processes): Ctrl-C midway deletes every meeting it made before it
/// exits 130; the password prompt does not echo (termios) and gives the terminal back; a server that never answers ends
/// the check with a non-zero exit after one `--timeout`, nothing retried.
@Suite("bmlt-observer check as a process", .needsCaptures, .serialized,
       .enabled(if: ChildProcess.isSupported, "child processes need Process (macOS and Linux only)"))
struct CheckProcessTests {
    /// Collects a child's output on a thread of its own (a full pipe never stalls the child). `@unchecked Sendable`:
    /// `data` is only read and written under `lock`.
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func read(_ handle: FileHandle) { Thread { let all = handle.readDataToEndOfFile(); self.lock.withLock { self.data = all } }.start() }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    private func binary() throws -> URL {
        try #require(BuildProducts.executable("bmlt-observer"),
                     "bmlt-observer is built by swift build --build-tests; looked in \(BuildProducts.searchFolders.map(\.path))")
    }

    /// The environment without `BMLT_PASSWORD` (the prompt test must not find one), plus `extra`.
    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["BMLT_PASSWORD"] = nil
        return environment.merging(extra) { $1 }
    }

    /// Waits (without blocking a thread) until `condition` holds; 900 s is a hang guard, not a deadline under test.
    private func wait(until condition: () -> Bool) async throws {
        for _ in 0..<18_000 where !condition() { try await Task.sleep(nanoseconds: 50_000_000) }
    }

    @Test("Ctrl-C while a write hangs: the check stops, deletes both meetings it made, says so, exits 130; the sandbox as before")
    func interruptCleansUp() async throws {
        #if os(macOS) || os(Linux)
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        let before = standIn.meetingIDs(inServiceBody: 1002)
        standIn.stallWrite(3)                          // the first edit, after the two creations, is never answered
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["--no-spinner", "--server", standIn.rootURL.absoluteString, "--timeout", "900", "check",
                             "--user", "nasc_admin", "--service-body", "1002", "--write-spacing", "0"]
        process.environment = environment(["BMLT_PASSWORD": CheckStandIn.password])
        let pipe = Pipe(), output = Output()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        output.read(pipe.fileHandleForReading)
        try await wait { standIn.writes >= 3 }
        #expect(standIn.names.values.filter { $0.hasPrefix("bmlt-observer check") }.count == 2, "two meetings made, the third write hanging")
        process.interrupt()
        try await wait { !process.isRunning }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        try await wait { !output.text.isEmpty }
        let text = output.text
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(text.contains("interrupted: stopping, then deleting what the check made"), "\(text)")
        #expect(text.contains("✔ clean-up: every meeting made is deleted again: deleted again after Ctrl-C: #"), "\(text)")
        #expect(text.contains("The server's change log keeps"), "\(text)")
        #expect(standIn.meetingIDs(inServiceBody: 1002) == before, "the sandbox holds what it held")
        #expect(!standIn.names.values.contains { $0.hasPrefix("bmlt-observer check") })
        #endif
    }

    @Test("the password prompt does not echo what is typed, and the terminal's echo is back after it")
    func passwordPromptDoesNotEcho() async throws {
        #if os(macOS) || os(Linux)
        let standIn = try CheckStandIn(.v427)
        defer { standIn.stop() }
        let terminal = try SpinnerTerminalTests.PseudoTerminal()
        defer { terminal.close() }
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["--no-spinner", "--server", standIn.rootURL.absoluteString, "--timeout", "900", "check", "--user", "nasc_admin"]
        process.environment = environment()
        let pipe = Pipe(), output = Output()
        process.standardOutput = pipe
        process.standardError = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        process.standardInput = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        try process.run()
        output.read(pipe.fileHandleForReading)
        var seen = ""
        try await wait {
            seen += terminal.readAvailable()
            return seen.contains("Password for nasc_admin: ")
        }
        #expect(seen.contains("Password for nasc_admin: "), "\(seen)")
        let typed = Array((CheckStandIn.password + "\n").utf8)
        _ = typed.withUnsafeBytes { write(terminal.main, $0.baseAddress, $0.count) }
        try await wait { !process.isRunning }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        seen += terminal.readAvailable()
        #expect(!seen.contains(CheckStandIn.password), "the terminal showed: \(seen.debugDescription)")
        #expect(process.terminationStatus == 0, "\(output.text)")
        #expect(output.text.contains("✔ log in: as "), "\(output.text)")
        var settings = termios()
        #expect(tcgetattr(terminal.secondary, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0, "echo is on again")
        #endif
    }

    @Test("a server that never answers: the validation ✘ after one --timeout, every other check skipped, nothing retried, exit 1")
    func silentServer() async throws {
        let http = try LoopbackHTTPServer { _ in .silence }
        defer { http.stop() }
        let clock = ContinuousClock(), start = clock.now
        let run = try #require(await ChildProcess.run(try binary(), ["--no-spinner", "--server", http.baseURL.appendingPathComponent("main_server").absoluteString,
                                                                     "--timeout", "2", "--json", "check"], seconds: 120))
        let elapsed = start.duration(to: clock.now)
        let lines = run.text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let checks = lines.filter { $0["event"] as? String == "check" }
        #expect(run.status == 1, "\(run.text)")
        #expect(checks.first?["check"] as? String == "validation" && checks.first?["status"] as? String == "failed", "\(run.text)")
        let detail = checks.first?["detail"] as? String ?? ""
        #expect(detail.contains("did not answer within --timeout 2 s"), "\(run.text)")
        #expect(checks.dropFirst().allSatisfy { $0["status"] as? String == "skipped" }, "\(run.text)")
        #expect(run.text.contains("1 check did not hold: validation"), "\(run.text)")
        let targets = http.requests.map(\.target)
        #expect(!targets.isEmpty && Set(targets).count == targets.count, "each request of the validation once, none retried: \(targets)")
        print("a silent server: exit \(run.status) after \(elapsed) with --timeout 2")
    }

    /// Review of the 1.1.0 merge, finding 3: the clock checks converted a record's distance from the server's clock with
    /// `Int(_:)`, which traps on a finite date out of `Int`'s range — the tool meant to report a bad server ended on one.
    @Test("change records dated 1e300 (a finite number the server sent): the clock checks ✘ and say so, the program does not trap",
          arguments: ["1e300", "-1e300"])
    func absurdRecordDate(_ date: String) async throws {
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        standIn.recordDateText = date
        let run = try #require(await ChildProcess.run(try binary(), ["--no-spinner", "--server", standIn.rootURL.absoluteString, "--json", "check",
                                                                     "--user", "nasc_admin", "--service-body", "1002", "--write-spacing", "0"],
                                                      environment: ["BMLT_PASSWORD": CheckStandIn.password], seconds: 600))
        #expect(run.status == 1, "exit 1 (a check did not hold), not a trap's signal: \(run.status)\n\(run.text)")
        let checks = run.text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "check" }
        let measured = checks.first { $0["check"] as? String == "way.change-clock-measured" }
        #expect(measured?["status"] as? String == "failed", "\(run.text)")
        #expect(checks.contains { $0["check"] as? String == "cleanup" && $0["status"] as? String == "passed" }, "\(run.text)")
    }
}
