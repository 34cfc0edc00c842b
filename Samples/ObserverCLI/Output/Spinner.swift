import BMLTKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress spinner on standard error, driven only by `.bmltProgressDidStart/Stop` through
/// `BMLTProgressIndicator`. It draws only when standard error is a terminal, so pipes stay clean.
@MainActor
final class Spinner {
    private var indicator: BMLTProgressIndicator?
    private var ticker: Task<Void, Never>?
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Whether standard error is a terminal.
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    init(connection: BMLTConnection, enabled: Bool = Spinner.isTerminal) {
        guard enabled else { return }
        indicator = BMLTProgressIndicator(connection: connection, startDelay: 0.15, stopDelay: 0.1) { [weak self] visible in
            visible ? self?.start() : self?.stop()
        }
    }

    private func start() {
        ticker?.cancel()
        ticker = Task { @MainActor in
            var frame = 0
            while !Task.isCancelled {
                Self.writeError("\r\(Self.frames[frame % Self.frames.count]) working…")
                frame += 1
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }

    private func stop() {
        ticker?.cancel()
        ticker = nil
        Self.writeError("\r\u{1B}[K")
    }

    /// Clears the spinner's line if it is showing, so a line printed now starts clean; the next frame redraws it.
    func clearLine() {
        if ticker != nil { Self.writeError("\r\u{1B}[K") }
    }

    /// Stops drawing and clears the line.
    func finish() {
        indicator?.invalidate()
        if ticker != nil { stop() }
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
