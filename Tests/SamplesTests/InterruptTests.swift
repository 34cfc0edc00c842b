import Foundation
import LoopbackHTTPServer
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `bmlt-observer` beside the test bundle (SwiftPM builds it with the tests), if it is there.
private let observerBinary: URL? = {
    var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<5 {
        let candidate = folder.appendingPathComponent("bmlt-observer")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    return nil
}()

/// Ctrl-C on the real program with its standard error on a pseudo-terminal: the spinner's line is cleared
/// (no `⠸ working…^C` left), the program says it was interrupted and exits 130.
@Suite("bmlt-observer Ctrl-C", .enabled(if: observerBinary != nil, "the bmlt-observer executable is not built beside the tests"))
struct InterruptTests {
    @Test("SIGINT while the spinner spins: the line is cleared, 'interrupted', exit 130")
    func interruptClearsTheLine() async throws {
        let http = try LoopbackHTTPServer { _ in .silence }
        defer { http.stop() }
        let terminal = try SpinnerTerminalTests.PseudoTerminal()
        defer { terminal.close() }
        let process = Process()
        process.executableURL = observerBinary
        process.arguments = ["--server", http.baseURL.appendingPathComponent("main_server").absoluteString, "info"]
        process.standardError = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        for _ in 0..<100 where !seen.contains("working") {
            try await Task.sleep(nanoseconds: 50_000_000)
            seen += drain(terminal.main)
        }
        #expect(seen.contains("working…"), "the spinner was drawn: \(seen.debugDescription)")
        process.interrupt()
        for _ in 0..<100 where process.isRunning { try await Task.sleep(nanoseconds: 50_000_000) }
        try await Task.sleep(nanoseconds: 100_000_000)
        seen += drain(terminal.main)
        #expect(!process.isRunning)
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        #expect(process.terminationStatus == 130)
        let tail = seen.components(separatedBy: "working…").last ?? ""
        #expect(tail.contains("\r\u{1B}[Kbmlt-observer: interrupted"), "\(tail.debugDescription)")
    }

    private func drain(_ descriptor: Int32) -> String {
        var data = Data(), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
