import BMLTKit
import Foundation

/// `check`: what works on a server, what the server does differently, and what BMLTKit does about it — before anyone
/// trusts it. Read-only by default; with `--user` and a sandbox `--service-body` it also writes there (and deletes again
/// everything it made). Exit status 0 only when every check holds.
enum CheckCommand {
    static let options: [OptionSpec] = [
        .value("user", "NAME", "an administrator: adds the login, and with --service-body the checks that write"),
        .value("service-body", "ID", "the sandbox: the only service body the check writes in (required for any write)"),
        .flag("plan", "print what the check would send, reads and writes, and send nothing"),
        .value("write-spacing", "SECONDS", "the pause between two writes (default 1; at most 20 writes in a run)"),
    ]

    static let command = Command(
        spec: CommandSpec("check", "check a server before you trust it: ✔, ✘ or skipped for each thing apps need (exit 0 only when all hold)",
                          options: options),
        run: { context in try await run(context) }
    )

    @MainActor
    static func run(_ context: CommandContext) async throws {
        let settings = try CheckSettings(context.commandLine, isDemo: context.isDemo, timeout: context.timeout)
        if settings.plan {
            CheckPlan.show(settings, context: context)
            return
        }
        let tally = context.tally ?? RequestTally()
        let runner = CheckRunner(context: context, tally: tally)
        let connection = context.connection
        let probe = WireProbe(root: connection.rootServerURL, configuration: connection.configuration,
                              timeout: settings.requestTimeout, tally: tally)
        let findings = CheckFindings()
        let clock = ContinuousClock()
        let start = clock.now
        context.output("Checking \(connection.rootServerURL.absoluteString) with \(ObserverCLI.version)")
        context.output("")
        let sandbox = settings.writes ? WriteSandbox(context: context, settings: settings) : nil
        let writes = WriteChecks(runner: runner, connection: connection, probe: probe, findings: findings, settings: settings, sandbox: sandbox)
        let work = Task { @MainActor in
            // The password is asked once the server has answered as a root server, before the other checks begin.
            var credentials: (String, String)?
            try await readChecks(runner: runner, connection: connection, probe: probe, findings: findings) {
                if settings.user != nil { credentials = try writes.credentials() }
            }
            if let credentials {
                try await writes.run(user: credentials.0, password: credentials.1)
            } else if settings.user != nil {
                runner.skip("login", "log in", .write, because: "the server did not validate")
            }
        }
        let divert = Interrupt.divert { Task { @MainActor in work.cancel() } }
        let outcome = await work.result
        divert.end()
        var failure: (any Error)?
        if case .failure(let error) = outcome { failure = error }
        let interrupted = failure is CancellationError
        if let sandbox { await sandbox.cleanUp(runner: runner, interrupted: interrupted) }
        let elapsed = start.duration(to: clock.now)
        summarize(runner, context: context, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                  sandbox: sandbox)
        if interrupted { throw CheckInterrupted() }
        if let failure { throw failure }
        let failures = runner.failures
        if !failures.isEmpty {
            throw CLIFailure("\(plural(failures.count, "check")) did not hold: " + failures.map(\.title).joined(separator: "; ")
                             + ". What to do is under each ✘ above.")
        }
    }

    /// Every read-only check, in order; if the server does not validate, the rest are skipped.
    @MainActor
    static func readChecks(runner: CheckRunner, connection: BMLTConnection, probe: WireProbe, findings: CheckFindings,
                           afterValidation: () throws -> Void = {}) async throws {
        let reads = ReadChecks(runner: runner, connection: connection, probe: probe, findings: findings)
        let ways = ServerWays(runner: runner, connection: connection, probe: probe, findings: findings)
        let lengths = QueryLengthChecks(runner: runner, connection: connection, probe: probe, findings: findings)
        guard try await reads.validation() else {
            for (id, title) in readCheckNames.dropFirst() { runner.skip(id, title, id.hasPrefix("way.") ? .way : .read, because: "the server did not validate") }
            return
        }
        try afterValidation()
        try await reads.serverInfo()
        try await ways.generation()
        try await reads.formats()
        try await reads.serviceBodies()
        try await reads.fieldKeysAndValues()
        try await reads.wholeRegion()
        try await ways.searchByIDs()
        try await reads.nearest()
        try await reads.changes()
        try await reads.coverage()
        try await reads.nawsExport()
        try await ways.hiddenFields()
        try await ways.sortKey()
        try await ways.changeClock()
        try await ways.compression()
        try await lengths.longestQuery()
        try await lengths.longIDSearch()
        try await runner.run("refresh", "a list brought up to date from the change log") {
            guard let previous = findings.region else { return .skipped("the region could not be read") }
            return try await RefreshCheck.verdict(connection, criteria: findings.regionCriteria, previous: previous,
                                                  tally: runner.tally, what: "the region")
        }
    }

    /// The read-only checks by id and title, in the order they run (what `--plan` lists and a failed validation skips).
    static let readCheckNames: [(String, String)] = [
        ("validation", "validation"), ("server-info", "server info and capabilities"), ("way.generation", "way: generation"),
        ("formats", "formats"), ("service-bodies", "service bodies (the tree)"), ("field-keys", "field keys and values"),
        ("whole-region", "whole-region search"), ("search-by-ids", "a search by ids (with a weekday)"),
        ("way.by-id-search", "way: a search by ids"), ("nearest", "nearest 10"), ("changes", "changes (the last 7 days)"),
        ("coverage", "coverage area"), ("naws", "NAWS export"), ("way.hidden-fields", "way: hidden fields"),
        ("way.sort-key", "way: default order"), ("way.change-clock", "way: change records' clock"),
        ("way.compression", "way: compression"), ("way.longest-query", "way: the longest query taken"),
        ("long-id-search", "a search of \(QueryLengthChecks.idCount) ids"), ("refresh", "a list brought up to date from the change log"),
    ]

    /// The last lines: how many held, failed, were skipped; with `--json` the result record.
    @MainActor
    static func summarize(_ runner: CheckRunner, context: CommandContext, seconds: Double, sandbox: WriteSandbox?) {
        let records = runner.records
        let passed = records.filter { $0.status == .passed }.count, failed = runner.failures.count
        let skipped = records.filter { $0.status == .skipped }.count
        let totals = runner.tally.snapshot
        context.output("")
        if let sandbox { for line in sandbox.changeLogLines { context.output(line) } }
        context.output("\(plural(records.count, "check")): \(passed) ✔, \(failed) ✘, \(skipped) skipped ("
                       + CheckRecord.time(seconds) + ", \(CheckRecord.size(totals.bytes)) in \(plural(totals.requests, "request")))")
        var result: [String: Any] = ["server": context.connection.rootServerURL.absoluteString, "count": records.count,
                                     "passed": passed, "failed": failed, "skipped": skipped,
                                     "failedChecks": runner.failures.map(\.id), "seconds": (seconds * 1000).rounded() / 1000,
                                     "bytes": totals.bytes, "requests": totals.requests]
        if let sandbox { result["sandbox"] = sandbox.resultRecord }
        context.result(result)
    }
}

/// The check was interrupted (Ctrl-C): what it made was deleted again; exit 130.
struct CheckInterrupted: Error {}
