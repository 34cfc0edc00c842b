import BMLTKit
import Foundation

/// Runs the checks one after the other: times each, counts its requests and bytes, turns a thrown error into ✘ with
/// what to do, and prints each record as soon as it is made (lines, or one JSON record a line with `--json`).
@MainActor
final class CheckRunner {
    let context: CommandContext
    let tally: RequestTally
    private(set) var records: [CheckRecord] = []

    init(context: CommandContext, tally: RequestTally) {
        self.context = context
        self.tally = tally
    }

    /// The checks that did not hold.
    var failures: [CheckRecord] { records.filter { $0.status == .failed } }

    /// Runs one check and records its verdict. Cancellation (Ctrl-C) is not a verdict: it is thrown on.
    @discardableResult
    func run(_ id: String, _ title: String, _ group: CheckRecord.Group = .read,
             _ body: @MainActor () async throws -> Verdict) async throws -> Verdict {
        try Task.checkCancellation()
        let clock = ContinuousClock()
        let start = clock.now
        let before = tally.snapshot
        var verdict: Verdict
        do {
            verdict = try await body()
        } catch {
            if Task.isCancelled || error is CancellationError || (error as? BMLTError) == .cancelled { throw CancellationError() }
            verdict = .failed(ErrorWords.sentence(error, timeout: context.timeout), advice: Self.advice(for: error))
        }
        let elapsed = start.duration(to: clock.now)
        let after = tally.snapshot
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        record(CheckRecord(id: id, title: title, group: group, status: verdict.status, detail: verdict.detail,
                           advice: verdict.advice, seconds: seconds, bytes: after.bytes - before.bytes,
                           requests: after.requests - before.requests, facts: verdict.facts))
        return verdict
    }

    /// Records a check that could not be made, and why (nothing sent).
    func skip(_ id: String, _ title: String, _ group: CheckRecord.Group = .read, because why: String) {
        record(CheckRecord(id: id, title: title, group: group, status: .skipped, detail: why, advice: nil,
                           seconds: 0, bytes: 0, requests: 0))
    }

    private func record(_ record: CheckRecord) {
        records.append(record)
        if context.json {
            context.clearSpinner()
            context.io.line(JSONRecords.line(record.json))
        } else {
            for line in record.lines { context.output(line) }
        }
    }

    /// What to do about an error a check ended with, in the CLI's words.
    static func advice(for error: any Error) -> String {
        guard let error = error as? BMLTError else {
            return "Run the check again with --verbose to see each request and its answer."
        }
        switch error {
        case .timeout:
            return "Check that the server is up and that --server is its root URL; if it is only slow, give a longer --timeout."
        case .transport:
            return "Check the address and the network: the server could not be reached."
        case .httpStatus(let code, _) where code >= 500:
            return "The server failed (HTTP \(code)): its administrator should look at the web server's and PHP's error logs."
        case .httpStatus(let code, _):
            return "The server refused the request (HTTP \(code)): check the --server URL, or ask its administrator whether it blocks such requests."
        case .malformedResponse, .brokenReply:
            return "The server's answer is not what a root server sends (an error page, or PHP messages in place of JSON): "
                + "its administrator should look at the server's error log and turn PHP's display_errors off."
        case .notARootServer, .invalidURL:
            return "Check the --server URL: give the address of the folder that holds client_interface, e.g. https://example.org/main_server."
        case .insecureURLRefused:
            return "Use https://, or add --insecure if you really mean it."
        case .unauthorized:
            return "Check --user and the password (BMLT_PASSWORD or the prompt)."
        case .forbidden:
            return "This login may not do that: ask the server's administrator for the permission, or use another --service-body."
        case .responseTooLarge:
            return "The answer is larger than BMLTKit takes by default: apps on this server should search narrower lists."
        default:
            return "Run the check again with --verbose to see each request and its answer."
        }
    }
}
