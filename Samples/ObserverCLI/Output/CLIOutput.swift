import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the program writes and reads. Standard output holds only notifications and results (one line each);
/// standard error holds everything else: the demo banner, the spinner, `--verbose` request lines, heartbeats,
/// prompts and errors. Tests pass their own sinks to `ObserverCLI.run` and read what was written.
///
/// ```swift
/// let output = CLIOutput(line: { print("out:", $0) }, error: { print("err:", $0, terminator: "") })
/// let status = await ObserverCLI.run(["--json", "formats"], output: output)
/// ```
public struct CLIOutput: Sendable {
    /// Writes one line of results or notifications (the newline is added).
    public var line: @Sendable (String) -> Void
    /// Writes text to standard error as it is (add the newline yourself).
    public var error: @Sendable (String) -> Void
    /// Whether a person is at the keyboard (standard input is a terminal): only then does the program ask.
    public var canAsk: Bool
    /// Reads one answer from standard input (nil at end of input).
    public var readAnswer: @Sendable () -> String?
    /// Asks for a password without echoing it (the prompt is given); nil when none was typed.
    public var readPassword: @Sendable (String) -> String?

    /// Sinks of your own.
    public init(line: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
                canAsk: Bool = false, readAnswer: @escaping @Sendable () -> String? = { nil },
                readPassword: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.line = line
        self.error = error
        self.canAsk = canAsk
        self.readAnswer = readAnswer
        self.readPassword = readPassword
    }

    /// Standard output and standard error.
    public static var standard: CLIOutput {
        CLIOutput(line: { text in
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }, error: { text in
            FileHandle.standardError.write(Data(text.utf8))
        }, canAsk: isatty(STDIN_FILENO) == 1, readAnswer: { Swift.readLine() },
           readPassword: { prompt in NoEchoPrompt.ask(prompt) })
    }
}
