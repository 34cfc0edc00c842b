import Foundation

/// Runs the independent checkers written in Python (zoneinfo, icalendar, recurring_ical_events).
enum Python {
    /// Whether `python3` is on the PATH.
    static var isInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }

    /// Whether `python3` can import all of `modules`.
    static func has(_ modules: String...) -> Bool {
        isInstalled && run("import " + modules.joined(separator: ", "), input: Data()) != nil
    }

    /// Runs `python3 -c script arguments…` with `input` on standard input; its standard output, or `nil` when it
    /// could not run or exited with a failure.
    static func run(_ script: String, input: Data, arguments: [String] = []) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }
}
