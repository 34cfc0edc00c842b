import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ObserverCLI {
    /// Ctrl-C: clears the spinner's line on standard error (no `⠸ working…^C` left behind), says the program
    /// was interrupted, and exits 130 (128 + SIGINT) as shells expect. Keep the returned source alive.
    ///
    /// ```swift
    /// let interrupt = ObserverCLI.clearLineOnInterrupt()
    /// let status = await ObserverCLI.run(arguments)
    /// withExtendedLifetime(interrupt) { exit(status) }
    /// ```
    public static func clearLineOnInterrupt() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            // Taken and never given back: a spinner frame due now waits for the lock instead of being drawn
            // after this line (it was, now and then: the frame ran on the main actor while this ran here).
            TerminalLine.lock.lock()
            let clear = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
            FileHandle.standardError.write(Data((clear + "bmlt-observer: interrupted\n").utf8))
            exit(130)
        }
        source.resume()
        return source
    }
}

/// The spinner's terminal line is written under this lock, so that the Ctrl-C handler (on another thread) has the
/// last word: once it holds the lock, no frame can follow its message.
enum TerminalLine {
    static let lock = NSLock()
}
