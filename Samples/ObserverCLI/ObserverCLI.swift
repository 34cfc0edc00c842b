import BMLTDemoServer
import BMLTKit
import Foundation

/// The `bmlt-observer` program: connects to a root server (the embedded demo server unless `--server` is
/// given), prints every BMLTKit notification as it arrives, and runs one command.
///
/// Exit codes: 0 success, 1 server or operation failure, 2 usage error.
public enum ObserverCLI {
    /// The grammar: global options and commands.
    public static let parser = ArgumentParser(
        globalOptions: [
            .value("server", "URL", "a root server URL (default: the embedded offline demo server)"),
            .flag("json", "print one JSON object per notification (for jq)"),
            .flag("insecure", "allow http:// to hosts other than loopback"),
            .value("timeout", "SECONDS", "seconds to wait for each request (default 30)"),
            .flag("no-spinner", "never draw the progress spinner"),
        ],
        commands: CommandCatalog.specs,
        defaultCommand: "info"
    )

    /// Runs the program with `arguments` (without the program name) and returns the exit code.
    @MainActor
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        let commandLine: ParsedCommandLine
        do {
            commandLine = try parser.parse(arguments)
        } catch {
            Spinner.writeError("bmlt-observer: \(error.message)\nRun 'bmlt-observer --help' for usage.\n")
            return 2
        }
        if commandLine.command == "help" {
            print(parser.help(for: commandLine.positionals.first, program: "bmlt-observer"))
            return 0
        }
        guard let command = CommandCatalog.command(named: commandLine.command) else {
            Spinner.writeError("bmlt-observer: '\(commandLine.command)' is not implemented\n")
            return 2
        }

        var configuration = BMLTConfiguration()
        configuration.allowsInsecureHTTP = commandLine.flag("insecure")
        if let timeout = commandLine.value("timeout") {
            guard let seconds = Double(timeout), seconds > 0 else {
                Spinner.writeError("bmlt-observer: --timeout needs a number of seconds\n")
                return 2
            }
            configuration.timeout = seconds
        }
        let rootURL: URL
        if let server = commandLine.value("server") {
            guard let url = URL(string: server) else {
                Spinner.writeError("bmlt-observer: --server needs a URL\n")
                return 2
            }
            rootURL = url
        } else {
            rootURL = BMLTDemoServer.rootURL
            configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration()
            if !commandLine.flag("json") {
                print("Using the embedded DEMO root server (demo data written for BMLTKit, not real meetings). Use --server URL for a real one.")
            }
        }

        let connection = BMLTConnection(rootServerURL: rootURL, configuration: configuration)
        let spinner = Spinner(connection: connection, enabled: !commandLine.flag("no-spinner") && Spinner.isTerminal)
        let printer = NotificationPrinter(connection: connection, json: commandLine.flag("json")) { line in
            spinner.clearLine()
            print(line)
        }
        defer {
            spinner.finish()
            printer.stop()
        }
        let context = CommandContext(connection: connection, commandLine: commandLine, environment: environment,
                                     json: commandLine.flag("json"))
        do {
            try await command.run(context)
            return 0
        } catch let error as UsageError {
            Spinner.writeError("bmlt-observer: \(error.message)\nRun 'bmlt-observer \(commandLine.command) --help' for usage.\n")
            return 2
        } catch {
            // The failure has already been printed as a notification; say it once more on stderr for scripts.
            Spinner.writeError("bmlt-observer: \((error as? BMLTError)?.localizedDescription ?? String(describing: error))\n")
            return 1
        }
    }
}

/// What a command gets to work with.
@MainActor
struct CommandContext {
    let connection: BMLTConnection
    let commandLine: ParsedCommandLine
    let environment: [String: String]
    let json: Bool

    /// Prints a result line (stdout), unless `--json` asked for notifications only.
    func output(_ line: String) {
        if !json { print(line) }
    }
}

/// A runnable command.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @MainActor @Sendable (CommandContext) async throws -> Void
}
