import Foundation

/// Test support beside the loopback server: runs a child process (a sample program, a Python checker) and waits
/// for it **without blocking a thread**. Swift's cooperative pool has one thread per core (two here); a test that
/// blocks one in `waitUntilExit()` or a semaphore for seconds delays every other test's continuations — which
/// showed as 0.5 s deadlines observed after 10 s under the thread sanitizer.
///
/// `Process` exists on macOS and Linux only (not on iOS, tvOS or watchOS): there `run` starts nothing and returns `nil`,
/// and every suite that runs a child process is disabled with `.enabled(if: ChildProcess.isSupported, …)`, so the test
/// targets still build for a simulator.
///
/// ```swift
/// let outcome = await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["true"])
/// ```
public enum ChildProcess {
    /// Whether child processes can run on this platform (macOS and Linux).
    public static var isSupported: Bool {
        #if os(macOS) || os(Linux)
        true
        #else
        false
        #endif
    }

    /// What a finished child printed (standard output, and standard error unless kept apart) and its status.
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: Data
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, writes `input` to its standard input, and returns when it has ended,
    /// or `nil` when it could not start or did not end within `seconds` (it is then terminated). `environment` is
    /// added to this process's environment for the child.
    public static func run(_ executable: URL, _ arguments: [String], input: Data = Data(), mergeErrors: Bool = true,
                           environment: [String: String] = [:], seconds: TimeInterval = 900) async -> Outcome? {
        #if os(macOS) || os(Linux)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = mergeErrors ? stdout : FileHandle.nullDevice
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
            let join = Join(continuation)
            process.terminationHandler = { ended in join.ended(ended.terminationStatus) }
            do { try process.run() } catch { join.giveUp(); return }
            // All of the output, read on a thread of its own until the child's end of the pipe closes (a full pipe
            // never stalls the child). One reader only: reading the rest in the termination handler while a
            // readability handler was still appending its last piece lost that piece (an exit status 0 with no output,
            // seen once in eight runs of the suite with a core kept busy).
            Thread { join.read(stdout.fileHandleForReading.readDataToEndOfFile()) }.start()
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if process.isRunning { process.terminate() }
                join.giveUp()
            }
        }
        #else
        return nil   // no Process on iOS, tvOS, watchOS: see `isSupported`
        #endif
    }

    /// The outcome once both halves are in — the exit status and the whole output — or `nil` when given up first.
    private final class Join: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome?, Never>?
        private var status: Int32?
        private var output: Data?
        init(_ continuation: CheckedContinuation<Outcome?, Never>) { self.continuation = continuation }

        func ended(_ status: Int32) { settle { $0.status = status } }
        func read(_ output: Data) { settle { $0.output = output } }
        func giveUp() {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: nil)
        }

        private func settle(_ change: (Join) -> Void) {
            lock.lock()
            change(self)
            var ready: (CheckedContinuation<Outcome?, Never>, Outcome)?
            if let status, let output, let waiting = continuation {
                continuation = nil
                ready = (waiting, Outcome(status: status, output: output))
            }
            lock.unlock()
            if let (waiting, outcome) = ready { waiting.resume(returning: outcome) }
        }
    }
}
