import Foundation
@testable import ObserverCLI

/// What one in-process run of `bmlt-observer` wrote: its exit status, each line of standard output, standard
/// error as text, and the prompts it asked (a password prompt is recorded, never answered unless asked to).
struct ObserverRun {
    var status: Int32
    var lines: [String]
    var errors: String
    var passwordPrompts: [String]

    /// Standard output lines parsed as JSON objects (nil for a line that is not one).
    var objects: [[String: Any]?] {
        lines.map { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] }
    }

    /// The `--json` result record (`"event": "result"`).
    var result: [String: Any]? { objects.compactMap { $0 }.first { $0["event"] as? String == "result" } }
}

/// Collects what the program writes; locked because the sinks are `@Sendable`.
private final class Sink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var errors = ""
    private var prompts: [String] = []

    func line(_ text: String) { lock.withLock { lines.append(text) } }
    func error(_ text: String) { lock.withLock { errors += text } }
    func prompt(_ text: String) { lock.withLock { prompts.append(text) } }
    var snapshot: ([String], String, [String]) { lock.withLock { (lines, errors, prompts) } }
}

/// The environment the CLI tests run `bmlt-observer` in: `BMLT_OBSERVER_DEADLINE` makes the whole call's deadline a
/// hang guard (900 s) instead of the default 30 s, which a busy machine or the thread sanitizer can use up on a
/// trivial command. Unlike `--timeout` it keeps the retries and the words of a run without it, which tests check.
let hangGuardEnvironment = ["BMLT_OBSERVER_DEADLINE": "900"]

/// Runs `bmlt-observer --no-spinner ARGUMENTS` in-process with its output captured (in `hangGuardEnvironment`). `answer` is what a person
/// at a terminal types to a question (only asked when `canAsk`).
@MainActor
func observe(_ arguments: [String], environment: [String: String] = [:], canAsk: Bool = false, answer: String? = nil,
             password: String? = nil) async -> ObserverRun {
    let sink = Sink()
    let output = CLIOutput(line: sink.line, error: sink.error, canAsk: canAsk, readAnswer: { answer },
                           readPassword: { prompt in
                               sink.prompt(prompt)
                               return password
                           })
    let status = await ObserverCLI.run(["--no-spinner"] + arguments, environment: environment.merging(hangGuardEnvironment) { given, _ in given },
                                       output: output)
    let (lines, errors, prompts) = sink.snapshot
    return ObserverRun(status: status, lines: lines, errors: errors, passwordPrompts: prompts)
}
