import BMLTDemoServer
import BMLTKit
import Foundation

/// The `bmlt-observer` program: connects to a root server (the embedded demo server unless `--server` is
/// given), prints every BMLTKit notification as it arrives, and runs one command.
///
/// Exit codes: 0 success, 1 server or operation failure, 2 usage error.
public enum ObserverCLI {
    /// The program's own version: BMLTKit's, from its one source (`BMLTKitVersion.current`).
    ///
    /// ```swift
    /// print(ObserverCLI.version)   // bmlt-observer 2.0.0 (BMLTKit 2.0.0)
    /// ```
    public static var version: String { "bmlt-observer \(BMLTKitVersion.current) (BMLTKit \(BMLTKitVersion.current))" }

    /// The grammar: global options and commands.
    public static let parser = ArgumentParser(
        globalOptions: [
            .value("server", "URL", "a root server URL (default: the embedded offline demo server)"),
            .flag("json", "print one JSON object per line: each notification and the command's result, with their records"),
            .flag("insecure", "allow http:// to hosts other than loopback"),
            .value("timeout", "SECONDS", "the most one request may take in all (given: no retries; default 30 s a try, 2 retries)"),
            .flag("verbose", "print each HTTP request on stderr (method, URL without secrets, status, time)", short: "v"),
            .flag("no-spinner", "never draw the progress spinner"),
            .value("cache", "DIR", "keep the server's answers in DIR (a persistent cache shared between runs)"),
            .value("cache-policy", "POLICY", "with --cache: network-else-cache (default), cache-else-network, cache-then-network or network-only"),
            .flag("version", "print the version and exit"),
        ],
        commands: CommandCatalog.specs,
        defaultCommand: "info"
    )

    /// Runs the program with `arguments` (without the program name) and returns the exit code. `output` is
    /// where it writes (standard output and error unless a test passes its own).
    ///
    /// ```swift
    /// let status = await ObserverCLI.run(["search", "--near", "44.9,-93.2", "--format", "O"])
    /// ```
    @MainActor
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           output io: CLIOutput = .standard) async -> Int32 {
        let commandLine: ParsedCommandLine
        do {
            commandLine = try parser.parse(arguments)
        } catch {
            let topic = error.command.map { " " + $0 } ?? ""
            io.error("bmlt-observer: \(error.message)\nRun 'bmlt-observer help\(topic)' for usage.\n")
            return 2
        }
        if commandLine.flag("version") {
            io.line(version)
            return 0
        }
        if commandLine.command == "help" {
            let topic = commandLine.positionals.first
            guard topic == nil || parser.knows(topic!) else {
                io.error("bmlt-observer: no command '\(topic!)'. Run 'bmlt-observer help' for the list.\n")
                return 2
            }
            for line in parser.help(for: topic, program: "bmlt-observer").split(separator: "\n", omittingEmptySubsequences: false) {
                io.line(String(line))
            }
            return 0
        }
        guard let command = CommandCatalog.command(named: commandLine.command) else {
            io.error("bmlt-observer: '\(commandLine.command)' is not implemented\n")
            return 2
        }

        var configuration = BMLTConfiguration()
        configuration.locale = Locale(identifier: "en")   // the CLI speaks English whatever LANG says (ErrorWords)
        configuration.allowsInsecureHTTP = commandLine.flag("insecure")
        var timeout: Double?
        // BMLT_OBSERVER_DEADLINE only moves the whole call's deadline (slow machines, tests under a sanitizer): the
        // retries and the words stay those of a run without --timeout. --timeout, when given, wins.
        var deadline: Double?
        if let text = environment["BMLT_OBSERVER_DEADLINE"], commandLine.value("timeout") == nil {
            guard let seconds = Double(text), seconds > 0 else {
                io.error("bmlt-observer: BMLT_OBSERVER_DEADLINE needs a number of seconds\n")
                return 2
            }
            configuration.timeout = seconds
            deadline = seconds
        }
        if let text = commandLine.value("timeout") {
            guard let seconds = Double(text), seconds > 0 else {
                io.error("bmlt-observer: --timeout needs a number of seconds\n")
                return 2
            }
            // --timeout is the whole budget of a request: one try of at most that long, no retries after it.
            configuration.timeout = seconds
            configuration.retryPolicy = .none
            timeout = seconds
        }
        if let directory = commandLine.value("cache") {
            configuration.cache = BMLTResponseCache(directory: URL(fileURLWithPath: directory), maximumBytes: 200 * 1024 * 1024)
            let policies: [String: BMLTCachePolicy] = ["network-else-cache": .networkElseCache, "cache-else-network": .cacheElseNetwork,
                                                       "cache-then-network": .cacheThenNetwork, "network-only": .networkOnly]
            guard let policy = policies[commandLine.value("cache-policy") ?? "network-else-cache"] else {
                io.error("bmlt-observer: --cache-policy needs network-else-cache, cache-else-network, cache-then-network or network-only\n")
                return 2
            }
            configuration.cachePolicy = policy
        } else if commandLine.value("cache-policy") != nil {
            io.error("bmlt-observer: --cache-policy needs --cache DIR\n")
            return 2
        }
        let verbose = commandLine.flag("verbose")
        if verbose {
            configuration.logLevel = .requests
            configuration.logHandler = { _, line in io.error("bmlt-observer: \(line)\n") }
        }
        // `check` counts each check's requests and bytes from BMLTKit's request log (printed only with --verbose).
        let isCheck = commandLine.command == "check"
        let tally = isCheck ? RequestTally() : nil
        if let tally {
            configuration.logLevel = .requests
            configuration.logHandler = { _, line in
                tally.take(line)
                if verbose { io.error("bmlt-observer: \(line)\n") }
            }
        }
        // The demo banner goes to stderr with the first notification, so a usage error is not preceded by it.
        let banner = Banner()
        let rootURL: URL
        if let server = commandLine.value("server") {
            guard let url = URL(string: server), url.scheme != nil else {
                io.error("bmlt-observer: --server needs a URL such as https://example.org/main_server\n")
                return 2
            }
            rootURL = url
        } else {
            rootURL = BMLTDemoServer.rootURL
            configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration()
            banner.text = "Using the embedded DEMO root server (demo data written for BMLTKit, not real meetings). Use --server URL for a real one.\n"
        }

        let connection = BMLTConnection(rootServerURL: rootURL, configuration: configuration)
        let json = commandLine.flag("json")
        let spinner = Spinner(connection: connection, enabled: !commandLine.flag("no-spinner") && Spinner.isTerminal)
        // `export` writes a file's text to standard output: its notifications go to standard error instead. `check` prints
        // its own records: its notifications (hundreds) only with --verbose, on standard error.
        let exportsToStandardOutput = commandLine.command == "export" || isCheck
        let printer = NotificationPrinter(connection: connection, json: json, timeout: timeout, deadline: deadline) { line in
            spinner.clearLine()
            banner.show(io)
            if isCheck && !verbose { return }
            if exportsToStandardOutput { io.error(line + "\n") } else { io.line(line) }
        }
        if isCheck { banner.show(io) }
        defer {
            spinner.finish()
            printer.stop()
        }
        let context = CommandContext(connection: connection, commandLine: commandLine, environment: environment,
                                     json: json, io: io, timeout: timeout, clearSpinner: { spinner.clearLine() },
                                     holdSearchEvents: { printer.holdSearchEvents() },
                                     releaseHeldEvents: { printer.releaseHeldEvents(showingSearch: $0) }, tally: tally)
        do {
            try await command.run(context)
            return 0
        } catch is CheckInterrupted {
            spinner.clearLine()
            io.error("bmlt-observer: interrupted\n")
            return 130
        } catch let error as UsageError {
            spinner.clearLine()
            io.error("bmlt-observer: \(error.message)\nRun 'bmlt-observer help \(commandLine.command)' for usage.\n")
            return 2
        } catch {
            // The one place a failure is said in words (the notification line names only its kind).
            spinner.clearLine()
            io.error("bmlt-observer: \(ErrorWords.sentence(error, timeout: timeout, deadline: deadline))\n")
            return 1
        }
    }
}

/// What a command gets to work with, and the one way it prints: `output` for lines a person reads, `result`
/// for the record `--json` prints, `note` for everything that is neither (standard error).
@MainActor
struct CommandContext {
    let connection: BMLTConnection
    let commandLine: ParsedCommandLine
    let environment: [String: String]
    let json: Bool
    let io: CLIOutput
    /// `--timeout`, when given.
    let timeout: Double?
    let clearSpinner: @MainActor () -> Void
    /// Holds back the meeting search's notification lines (see `NotificationPrinter.holdSearchEvents`).
    var holdSearchEvents: @MainActor () -> Void = {}
    /// Prints what was held back; the search's lines only when `true` (the server was valid).
    var releaseHeldEvents: @MainActor (Bool) -> Void = { _ in }
    /// `check`'s count of requests and bytes (from BMLTKit's request log).
    var tally: RequestTally? = nil

    /// Whether the embedded demo server is in use (no `--server`).
    var isDemo: Bool { commandLine.value("server") == nil }

    /// The server's distance unit, once validated.
    var distanceUnit: BMLTDistanceUnit? { connection.serverInfo?.distanceUnits }

    /// Prints a result line (stdout), unless `--json` asked for records.
    func output(_ line: String) {
        guard !json else { return }
        clearSpinner()
        io.line(line)
    }

    /// With `--json`, prints the command's result: `{"event":"result","command":…, …fields}` on one line.
    func result(_ fields: [String: Any]) {
        guard json else { return }
        var object = fields
        object["event"] = "result"
        object["command"] = commandLine.command
        clearSpinner()
        io.line(JSONRecords.line(object))
    }

    /// A line on standard error (status, prompts, heartbeats): never mixed into the results.
    func note(_ text: String) {
        clearSpinner()
        io.error(text + "\n")
    }

    /// The value of a `--limit`-style option: a usage error unless a whole number above 0. Without it, `value`
    /// for people and everything for `--json`.
    func limit(_ option: String = "limit", default value: Int) throws -> Int {
        guard let text = commandLine.value(option) else { return json ? .max : value }
        guard let number = Int(text), number > 0 else { throw UsageError("--\(option) needs a whole number above 0") }
        return number
    }
}

/// A line for standard error, written once, the first time `show` is called.
@MainActor
private final class Banner {
    var text: String?
    func show(_ io: CLIOutput) {
        guard let text else { return }
        self.text = nil
        io.error(text)
    }
}

/// A runnable command.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @MainActor @Sendable (CommandContext) async throws -> Void
}

/// "(first 20 of 324 shown)" when a limit cut the list, else "".
func shownNote(_ count: Int, limit: Int) -> String {
    count > limit ? " (first \(limit) of \(count) shown)" : ""
}
