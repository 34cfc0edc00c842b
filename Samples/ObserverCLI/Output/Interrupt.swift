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
    /// While a command has something to finish first (`check` deletes the meetings it made: `Interrupt.divert`), the
    /// first Ctrl-C only tells it to stop; the command ends the program itself (130), and a second Ctrl-C exits at once.
    /// A password prompt's terminal gets its echo back before the program exits.
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
            let clear = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
            // At a password prompt nothing is written yet, and the main thread waits for the line: quit at once.
            if !NoEchoPrompt.isAsking, let stop = Interrupt.takeDiversion() {
                TerminalLine.lock.withLock {
                    FileHandle.standardError.write(Data((clear + "bmlt-observer: interrupted: stopping, then deleting what the check made "
                                                         + "(Ctrl-C again quits at once and leaves it)\n").utf8))
                }
                stop()
                return
            }
            NoEchoPrompt.restoreTerminal()
            // Taken and never given back: a spinner frame due now waits for the lock instead of being drawn
            // after this line (it was, now and then: the frame ran on the main actor while this ran here).
            TerminalLine.lock.lock()
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

/// Where the first Ctrl-C goes while a command must finish something before the program ends (`check` deletes what it
/// made): the command's `stop` is called once instead of exiting; it is forgotten when the command says `end()`.
enum Interrupt {
    /// A diversion in place; `end()` removes it (the next Ctrl-C exits at once again).
    struct Diversion {
        fileprivate let token: UUID
        func end() { Interrupt.state.end(token) }
    }

    /// The first Ctrl-C from now on calls `stop` (on the signal handler's queue) instead of exiting.
    static func divert(_ stop: @escaping @Sendable () -> Void) -> Diversion {
        Diversion(token: state.set(stop))
    }

    /// The diversion to call for this Ctrl-C (forgotten: the next one exits), or nil when none is in place.
    static func takeDiversion() -> (@Sendable () -> Void)? { state.take() }

    fileprivate static let state = State()

    /// `@unchecked Sendable`: `current` is only read and written under `lock`.
    fileprivate final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var current: (token: UUID, stop: @Sendable () -> Void)?

        func set(_ stop: @escaping @Sendable () -> Void) -> UUID {
            let token = UUID()
            lock.withLock { current = (token, stop) }
            return token
        }

        func end(_ token: UUID) { lock.withLock { if current?.token == token { current = nil } } }

        func take() -> (@Sendable () -> Void)? {
            lock.withLock {
                defer { current = nil }
                return current?.stop
            }
        }
    }
}
