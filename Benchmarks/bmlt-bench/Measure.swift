import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Timing and memory helpers.
enum Measure {
    /// Median wall-clock seconds of `runs` calls.
    static func median(runs: Int, _ body: () -> Int) -> (seconds: Double, result: Int) {
        var times: [Double] = []
        var result = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            result = body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        return (times[times.count / 2], result)
    }

    /// The process's peak resident memory in bytes (VmHWM), or 0 where it cannot be read.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// The resident memory after glibc has given its free heap pages back (`malloc_trim`, looked up at run
    /// time: it is not in the Glibc module), so the figure is what is still in use rather than allocator
    /// fragmentation.
    static func residentBytesInUse() -> Int {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
        return residentBytes()
    }

    /// The bytes malloc has handed out and not had back, in every arena (glibc's `mallinfo2`), or 0 where there is no
    /// such count: what the process holds, as against what it keeps resident (`residentBytesInUse`), which also counts
    /// pages the allocator keeps and cannot give back because a chunk still in use lies in them.
    static func mallocBytesInUse() -> Int {
        Int(bench_malloc_in_use())
    }

    /// Runs this executable again with `arguments` (a child mode, so a measurement starts on a fresh heap) and returns
    /// the integers it printed, or `nil` when it failed.
    static func child(_ arguments: [String], environment: [String: String]? = nil) -> [Int]? {
        childOutput(arguments, environment: environment)?.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    /// Runs this executable again with `arguments` and returns what it printed, or `nil` when it failed.
    static func childOutput(_ arguments: [String], environment: [String: String]? = nil) -> String? {
        #if os(macOS) || os(Linux)   // Process: the benchmark only runs on macOS and Linux
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return output
        #else
        return nil
        #endif
    }

    /// Starts the peak (VmHWM) again from the current resident memory (Linux: `/proc/self/clear_refs`).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The current resident memory in bytes (VmRSS).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
    }
}
