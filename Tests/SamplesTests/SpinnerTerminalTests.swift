import BMLTKit
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `close(2)` under a name that does not clash with the types' own `close()`.
private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }

/// Everything readable now on a non-blocking descriptor (a pseudo-terminal's main side, a pipe's end).
func readableNow(_ descriptor: Int32) -> String {
    var data = Data(), buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { break }
        data.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: data, as: UTF8.self)
}

/// The spinner draws on a terminal and never in a pipe: a pseudo-terminal and a pipe stand in for the two, and a
/// loopback server that answers slowly keeps the connection busy long enough for the spinner to show.
@Suite("bmlt-observer spinner: a terminal gets it, a pipe does not")
@MainActor
struct SpinnerTerminalTests {
    /// A pseudo-terminal: the side the program writes to, and the side a terminal emulator reads.
    struct PseudoTerminal {
        let main: Int32
        let secondary: Int32
        init() throws {
            main = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard main >= 0, Self.grantpt(main) == 0, Self.unlockpt(main) == 0, let name = Self.ptsname(main) else { throw POSIXError(.ENOTTY) }
            secondary = open(name, O_RDWR | O_NOCTTY)
            guard secondary >= 0 else { throw POSIXError(.ENOTTY) }
            _ = fcntl(main, F_SETFL, fcntl(main, F_GETFL) | O_NONBLOCK)
        }
        func close() { _ = closeDescriptor(secondary); _ = closeDescriptor(main) }

        /// Everything the program has written to the terminal and not yet read (the main side is non-blocking).
        func readAvailable() -> String { readableNow(main) }

        #if os(Linux)
        // Glibc's module map leaves the pseudo-terminal calls out (they need _XOPEN_SOURCE): look them up.
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        static func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
        static func grantpt(_ fd: Int32) -> Int32 { symbol("grantpt", as: Call.self)?(fd) ?? -1 }
        static func unlockpt(_ fd: Int32) -> Int32 { symbol("unlockpt", as: Call.self)?(fd) ?? -1 }
        static func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { symbol("ptsname", as: Name.self)?(fd) ?? nil }
        #else
        static func grantpt(_ fd: Int32) -> Int32 { Darwin.grantpt(fd) }
        static func unlockpt(_ fd: Int32) -> Int32 { Darwin.unlockpt(fd) }
        static func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { Darwin.ptsname(fd) }
        #endif
    }

    /// Everything readable now on a non-blocking descriptor.
    func drain(_ descriptor: Int32) -> String { readableNow(descriptor) }

    /// A connection to a server that takes `delay` seconds over each validation step, and first waits for `gate` when
    /// one is given (opened by the test once it has seen what it waits for; 900 s is a hang guard).
    func slowConnection(_ delay: TimeInterval, gate: DispatchSemaphore? = nil) throws -> (BMLTConnection, LoopbackHTTPServer) {
        let server = try LoopbackHTTPServer { request in
            if let gate {
                _ = gate.wait(timeout: .now() + 900)
                gate.signal()   // open for the other requests too
            }
            Thread.sleep(forTimeInterval: delay)
            if request.path.hasSuffix("GetLangs.php") { return .json(#"{"languages":[{"key":"en","name":"English","default":true}]}"#) }
            switch request.query("switcher") {
            case "GetServerInfo": return .json(#"[{"version":"3.1.2","versionInt":"3001002","langs":"en","nativeLang":"en","semanticAdmin":"1"}]"#)
            case "GetServiceBodies": return .json(#"[{"id":"1","parent_id":"0","name":"Region"}]"#)
            case "GetFormats": return .json(#"[{"key_string":"O","name_string":"Open","id":"1","lang":"en"}]"#)
            default: return .json("[]")
            }
        }
        let configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: 900)   // a hang guard
        return (BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration), server)
    }

    @Test("a pseudo-terminal is a terminal; a pipe and /dev/null are not")
    func detection() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { _ = close(ends[0]); _ = close(ends[1]) }
        let null = open("/dev/null", O_WRONLY)
        defer { _ = close(null) }
        #expect(Spinner.isTerminal(terminal.secondary))
        #expect(!Spinner.isTerminal(ends[1]))
        #expect(!Spinner.isTerminal(null))
    }

    @Test("on a terminal: frames while busy, then the line is cleared")
    func drawsOnTerminal() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        // The server holds the validation until a frame is on the terminal (not for a fixed time: under the thread
        // sanitizer with the machine busy, the main actor's 0.15 s start delay once ran after a 0.25 s validation had
        // ended, and nothing was drawn).
        let gate = DispatchSemaphore(value: 0)
        let (connection, server) = try slowConnection(0.05, gate: gate)
        defer { server.stop() }
        let spinner = Spinner(connection: connection, output: terminal.secondary)
        let validation = Task { try await connection.validate() }
        var drawn = ""
        for _ in 0..<18_000 where !Spinner.frames.contains(where: drawn.contains) {
            try await Task.sleep(nanoseconds: 50_000_000)
            drawn += drain(terminal.main)
        }
        gate.signal()
        _ = try await validation.value
        while connection.isBusy { try await Task.sleep(nanoseconds: 20_000_000) }
        try await Task.sleep(nanoseconds: 300_000_000)     // past the stop delay
        spinner.finish()
        drawn += drain(terminal.main)
        #expect(Spinner.frames.contains { drawn.contains($0) }, "no spinner frame in \(drawn.debugDescription)")
        #expect(drawn.contains("working…"))
        #expect(drawn.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
    }

    @Test("in a pipe: nothing at all, however long the connection is busy")
    func silentInPipe() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { _ = close(ends[0]); _ = close(ends[1]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let (connection, server) = try slowConnection(0.25)
        defer { server.stop() }
        let spinner = Spinner(connection: connection, output: ends[1])
        _ = try await connection.validate()
        try await Task.sleep(nanoseconds: 300_000_000)
        spinner.finish()
        #expect(drain(ends[0]).isEmpty)
    }
}
