import BMLTKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress spinner on standard error, driven only by `.bmltProgressDidStart/Stop` through
/// `BMLTProgressIndicator`. It draws only when its output is a terminal, so pipes stay clean.
@MainActor
final class Spinner {
    private var indicator: BMLTProgressIndicator?
    private var ticker: Task<Void, Never>?
    private let output: FileHandle
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Whether standard error is a terminal.
    static var isTerminal: Bool { isTerminal(STDERR_FILENO) }

    /// Whether `descriptor` is a terminal (a pipe or a file is not).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// A spinner drawn on `output` (standard error by default) while the connection is busy; `enabled` defaults
    /// to whether `output` is a terminal.
    init(connection: BMLTConnection, output: Int32 = STDERR_FILENO, enabled: Bool? = nil) {
        self.output = FileHandle(fileDescriptor: output, closeOnDealloc: false)
        guard enabled ?? Self.isTerminal(output) else { return }
        indicator = BMLTProgressIndicator(connection: connection, startDelay: 0.15, stopDelay: 0.1) { [weak self] visible in
            visible ? self?.start() : self?.stop()
        }
    }

    private func start() {
        ticker?.cancel()
        ticker = Task { @MainActor in
            var frame = 0
            while !Task.isCancelled {
                self.write("\r\(Self.frames[frame % Self.frames.count]) working…")
                frame += 1
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }

    private func stop() {
        ticker?.cancel()
        ticker = nil
        write("\r\u{1B}[K")
    }

    /// Clears the spinner's line if it is showing, so a line printed now starts clean; the next frame redraws it.
    func clearLine() {
        if ticker != nil { write("\r\u{1B}[K") }
    }

    /// Stops drawing and clears the line.
    func finish() {
        indicator?.invalidate()
        if ticker != nil { stop() }
    }

    private func write(_ text: String) {
        TerminalLine.lock.withLock { output.write(Data(text.utf8)) }
    }

    /// Writes a message to standard error.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
