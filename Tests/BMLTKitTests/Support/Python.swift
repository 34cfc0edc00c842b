import Foundation
import LoopbackHTTPServer

/// Runs the independent checkers written in Python (zoneinfo, icalendar, recurring_ical_events), without blocking a
/// thread while they run (`ChildProcess`).
enum Python {
    /// Whether `python3` is on the PATH (and child processes can run here: macOS and Linux).
    static var isInstalled: Bool {
        ChildProcess.isSupported && (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }

    /// Whether `python3` can import all of `modules` (asked once, when a test's condition is evaluated).
    static func has(_ modules: String...) -> Bool {
        guard isInstalled else { return false }
        #if os(macOS) || os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import " + modules.joined(separator: ", ")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
        #else
        return false
        #endif
    }

    /// Runs `python3 -c script arguments…` with `input` on standard input; its standard output, or `nil` when it
    /// could not run or exited with a failure.
    static func run(_ script: String, input: Data, arguments: [String] = []) async -> Data? {
        guard let outcome = await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments,
                                                   input: input, mergeErrors: false, seconds: 120),
              outcome.status == 0 else { return nil }
        return outcome.output
    }
}
