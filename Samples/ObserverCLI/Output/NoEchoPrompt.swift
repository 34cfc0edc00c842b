import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A password prompt that does not echo what is typed, with termios (Linux and Apple platforms alike): the terminal is
/// standard input when it is one, else the controlling terminal (`/dev/tty`, as `sudo` asks when its input is a pipe);
/// `ECHO` is turned off before the prompt shows and back on after the line is read — also when Ctrl-C ends the program
/// during the prompt (`restoreTerminal`).
/// Nothing typed is kept beyond the returned string.
enum NoEchoPrompt {
    /// Writes `prompt` on the terminal (standard error when there is none), reads one line without echo; nil when no
    /// terminal is there to ask or nothing was typed before the end of input.
    static func ask(_ prompt: String) -> String? {
        var descriptor = STDIN_FILENO
        var owned = false
        if isatty(STDIN_FILENO) != 1 {
            descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
            guard descriptor >= 0 else { return nil }
            owned = true
        }
        defer { if owned { close(descriptor) } }
        let promptOut = owned ? descriptor : STDERR_FILENO
        // The echo goes off before the prompt shows: nothing typed after the prompt can be echoed.
        var saved = termios()
        let canTurnOff = tcgetattr(descriptor, &saved) == 0
        if canTurnOff {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ICANON)
            state.remember(descriptor, saved)
            tcsetattr(descriptor, TCSAFLUSH, &quiet)
        }
        put(promptOut, prompt)
        let typed = line(from: descriptor)
        if canTurnOff {
            tcsetattr(descriptor, TCSAFLUSH, &saved)
            state.forget()
        }
        put(promptOut, "\n")
        return typed
    }

    /// Whether a prompt is waiting for its line (with the echo off).
    static var isAsking: Bool { state.isHolding }

    /// Gives the terminal its echo back if a prompt had turned it off (the Ctrl-C handler calls this before exiting).
    static func restoreTerminal() {
        guard let (descriptor, settings) = state.take() else { return }
        var saved = settings
        tcsetattr(descriptor, TCSANOW, &saved)
    }

    /// One line from `descriptor`, without its end; nil at the end of input with nothing read.
    private static func line(from descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    private static func put(_ descriptor: Int32, _ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    private static let state = State()

    /// The terminal settings to give back. `@unchecked Sendable`: `saved` is only read and written under `lock`.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var saved: (Int32, termios)?
        func remember(_ descriptor: Int32, _ settings: termios) { lock.withLock { saved = (descriptor, settings) } }
        func forget() { lock.withLock { saved = nil } }
        func take() -> (Int32, termios)? { lock.withLock { defer { saved = nil }; return saved } }
        var isHolding: Bool { lock.withLock { saved != nil } }
    }
}
