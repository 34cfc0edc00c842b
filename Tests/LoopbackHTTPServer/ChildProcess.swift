import Foundation

/// Test support beside the loopback server: runs a child process (a sample program, a Python checker) and waits
/// for it **without blocking a thread**. Swift's cooperative pool has one thread per core (two here); a test that
/// blocks one in `waitUntilExit()` or a semaphore for seconds delays every other test's continuations — which
/// showed as 0.5 s deadlines observed after 10 s under the thread sanitizer.
public enum ChildProcess {
    /// What a finished child printed (standard output, and standard error unless kept apart) and its status.
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: Data
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, writes `input` to its standard input, and returns when it has ended,
    /// or `nil` when it could not start or did not end within `seconds` (it is then terminated).
    public static func run(_ executable: URL, _ arguments: [String], input: Data = Data(), mergeErrors: Bool = true,
                           seconds: TimeInterval = 60) async -> Outcome? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = mergeErrors ? stdout : FileHandle.nullDevice
        let collected = Collected()
        // Read as the child writes, on the file handle's own thread, so a full pipe never stalls it.
        stdout.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
            let once = Once(continuation)
            process.terminationHandler = { ended in
                stdout.fileHandleForReading.readabilityHandler = nil
                let rest = stdout.fileHandleForReading.readDataToEndOfFile()
                collected.append(rest)
                once.resume(Outcome(status: ended.terminationStatus, output: collected.data))
            }
            do { try process.run() } catch { once.resume(nil); return }
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if process.isRunning { process.terminate() }
                once.resume(nil)
            }
        }
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        func append(_ data: Data) { lock.lock(); bytes.append(data); lock.unlock() }
        var data: Data { lock.lock(); defer { lock.unlock() }; return bytes }
    }

    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome?, Never>?
        init(_ continuation: CheckedContinuation<Outcome?, Never>) { self.continuation = continuation }
        func resume(_ outcome: Outcome?) {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: outcome)
        }
    }
}
