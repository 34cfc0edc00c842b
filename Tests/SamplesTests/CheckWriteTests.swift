import CaptureReplay
import Foundation
import Testing
@testable import ObserverCLI

/// `bmlt-observer check --user … --service-body …` against `CheckStandIn` of the four root-server generations (issue 58):
/// the writes stay in the sandbox, are bounded and spaced, everything made is deleted again (the sandbox holds the
/// same meetings before and after, also after a failure midway), what the change log keeps is said; a service body the
/// login cannot edit is refused before anything is sent; `--plan` sends nothing.
@Suite("bmlt-observer check with an administrator and a sandbox", .needsCaptures, .serialized)
@MainActor
struct CheckWriteTests {
    static let user = ["--user", "nasc_admin"]
    /// The write checks that depend only on the server and hold on every stand-in.
    static let serverChecks = ["login", "sandbox", "create-unpublished", "way.hidden-fields-proved", "way.change-clock-measured",
                               "edit-text", "edit-weekday", "edit-start", "edit-duration", "edit-coordinates", "edit-formats",
                               "edit-published", "edit-conflict", "delete", "restore", "cleanup", "sandbox-unchanged"]

    @Test("every write check; the sandbox holds the same meetings before and after; at most 20 writes; BMLTKit's checks agree with BMLTKit",
          arguments: [CheckStandIn.Generation.v216, .v312, .v410, .v427])
    func sandbox(generation: CheckStandIn.Generation) async throws {
        let standIn = try CheckStandIn(generation)
        defer { standIn.stop() }
        let before = standIn.meetingIDs(inServiceBody: 1002)
        let check = await runCheck(standIn.rootURL, Self.user + ["--service-body", "1002", "--write-spacing", "0"], password: CheckStandIn.password)
        #expect(check.allLinesAreJSON)
        for id in Self.serverChecks { #expect(check.status(id) == "passed", "\(id): \(check.summary)") }
        #expect(check.status("edit-venue") == (generation == .v216 ? "skipped" : "passed"), "\(check.summary)")
        #expect(standIn.meetingIDs(inServiceBody: 1002) == before, "the sandbox holds what it held")
        #expect(!standIn.names.values.contains { $0.hasPrefix("bmlt-observer check") }, "every meeting made was deleted again")
        #expect(standIn.writes <= CheckSettings.writeBudget && standIn.writes >= 14, "\(standIn.writes) writes")
        let made = Set(standIn.changeRecords.map(\.meetingID))
        let result = try #require(check.run.result?["sandbox"] as? [String: Any])
        #expect(result["changeLogRecords"] as? Int == standIn.changeRecords.count && Set(result["meetingsMade"] as? [Int] ?? []) == made,
                "\(result)")
        #expect(check.run.status == (check.failed.isEmpty ? 0 : 1))

        // BMLTKit's own verdicts, held to BMLTKit asked directly on a server of the same generation.
        let oracle = try CheckStandIn(generation)
        defer { oracle.stop() }
        let publishes = try await LibraryOracle.createsPublished(oracle.rootURL, user: "nasc_admin", password: CheckStandIn.password, serviceBody: 1002)
        let showsUnpublished = try await LibraryOracle.showsUnpublishedByID(oracle.rootURL, id: 6)
        let hiddenSaves = try await LibraryOracle.hiddenEditFromSearchSaves(oracle.rootURL, user: "nasc_admin", password: CheckStandIn.password,
                                                                            serviceBody: 1002)
        #expect(check.status("create-published") == (publishes ? "passed" : "failed"), "\(check.summary)")
        #expect(check.status("public-view") == (publishes && !showsUnpublished ? "passed" : "failed"), "\(check.summary)")
        #expect(check.status("edit-hidden") == (hiddenSaves ? "passed" : "failed"), "\(check.summary)")
        #expect(check.status("refresh-after-writes") == (publishes || !showsUnpublished ? "passed" : "failed"), "\(check.summary)")
        if !publishes { #expect(check.detail("create-published").contains("published: “yes” saved, the server holds “no”")) }
        if !hiddenSaves { #expect(check.detail("edit-hidden").contains("edit conflict on contact_name_1")) }
    }

    @Test("for people: ✔ lines, the clean-up, what the change log keeps; no password anywhere in the output")
    func humanOutput() async throws {
        let standIn = try CheckStandIn(.v427)
        defer { standIn.stop() }
        let human = await observe(["--server", standIn.rootURL.absoluteString, "check"] + Self.user + ["--service-body", "1002", "--write-spacing", "0"],
                                  environment: ["BMLT_PASSWORD": CheckStandIn.password])
        #expect(human.lines.contains { $0.hasPrefix("✔ create a meeting, unpublished: #") && $0.contains(" s, ") }, "\(human.lines)")
        #expect(human.lines.contains { $0.hasPrefix("The server's change log keeps") && $0.contains("no one can erase them") }, "\(human.lines)")
        #expect(human.lines.contains { $0.hasPrefix("✔ clean-up: every meeting made is deleted again: ") })
        #expect(human.lines.last?.contains(" checks: ") == true, "\(human.lines.last ?? "")")
        #expect(!human.lines.joined().contains(CheckStandIn.password) && !human.errors.contains(CheckStandIn.password))
    }

    @Test("a service body the login cannot edit is refused before anything is sent; the other write checks are skipped; exit 1",
          arguments: [CheckStandIn.Generation.v216, .v312])
    func refused(generation: CheckStandIn.Generation) async throws {
        let standIn = try CheckStandIn(generation)
        defer { standIn.stop() }
        let check = await runCheck(standIn.rootURL, Self.user + ["--service-body", "1003"], password: CheckStandIn.password)
        #expect(check.status("login") == "passed" && check.status("sandbox") == "failed", "\(check.summary)")
        #expect(check.detail("sandbox").hasPrefix("refused before anything was sent"), "\(check.detail("sandbox"))")
        #expect(check.records.filter { $0["group"] as? String == "write" && $0["check"] as? String != "login" && $0["check"] as? String != "sandbox" }
            .allSatisfy { $0["status"] as? String == "skipped" })
        #expect(standIn.writes == 0 && check.run.status == 1)
    }

    @Test("a write that fails midway (HTTP 500): that check ✘, everything made deleted again, the sandbox as before, exit 1")
    func failureMidway() async throws {
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        let before = standIn.meetingIDs(inServiceBody: 1002)
        standIn.failWrite(4, status: 500)
        let check = await runCheck(standIn.rootURL, Self.user + ["--service-body", "1002", "--write-spacing", "0"], password: CheckStandIn.password)
        let failed = check.records.filter { $0["status"] as? String == "failed" }.compactMap { $0["check"] as? String }
        #expect(failed.contains("edit-weekday"), "the fourth write is the day's edit: \(check.summary)")
        #expect(check.status("cleanup") == "passed" && check.status("sandbox-unchanged") == "passed", "\(check.summary)")
        #expect(standIn.meetingIDs(inServiceBody: 1002) == before && check.run.status == 1)
    }

    @Test("a database on another clock (records 5 h early, as MySQL on New York time under 3.x/4.x: R10): measured on the check's own write, ✘ with what to do; records ahead show read-only too")
    func changeClock() async throws {
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        standIn.recordClockOffset = -5 * 3600
        let check = await runCheck(standIn.rootURL, Self.user + ["--service-body", "1002", "--write-spacing", "0"], password: CheckStandIn.password)
        #expect(check.status("way.change-clock-measured") == "failed", "\(check.summary)")
        #expect(check.detail("way.change-clock-measured").contains("5.0 h before the server's own clock"), "\(check.summary)")
        let advice = check.record("way.change-clock-measured")?["advice"] as? String ?? ""
        #expect(advice.contains("time zone to UTC") && check.run.status == 1)

        let ahead = try CheckStandIn(.v312)
        defer { ahead.stop() }
        ahead.recordClockOffset = 3 * 3600
        _ = try await LibraryOracle.createsPublished(ahead.rootURL, user: "nasc_admin", password: CheckStandIn.password, serviceBody: 1002)
        let reads = await runCheck(ahead.rootURL)
        #expect(reads.status("way.change-clock") == "failed" && reads.detail("way.change-clock").contains("3.0 h after"), "\(reads.summary)")
    }

    @Test("writes are spaced: --write-spacing 0.3 leaves at least 0.3 s between two writes")
    func spacing() async throws {
        let standIn = try CheckStandIn(.v427)
        defer { standIn.stop() }
        _ = await runCheck(standIn.rootURL, Self.user + ["--service-body", "1002", "--write-spacing", "0.3"], password: CheckStandIn.password)
        let times = standIn.writeTimes
        #expect(times.count >= 14)
        let gaps = zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(gaps.allSatisfy { $0 >= 0.29 }, "\(gaps)")
    }

    @Test("--plan prints every step, reads and writes, and sends nothing (not even the validation)")
    func plan() async throws {
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        let human = await observe(["--server", standIn.rootURL.absoluteString, "check", "--plan"] + Self.user + ["--service-body", "1002"])
        #expect(human.status == 0 && human.passwordPrompts.isEmpty)
        #expect(human.lines.contains { $0.contains("[write] create a test meeting, published, in #1002") }, "\(human.lines)")
        #expect(human.lines.contains { $0.contains("[read] whole-region search") })
        let json = await runCheck(standIn.rootURL, ["--plan"] + Self.user + ["--service-body", "1002"])
        let steps = json.run.objects.compactMap { $0 }.filter { $0["event"] as? String == "plan" }
        #expect(steps.count > 30 && json.run.result?["sent"] as? Int == 0)
        #expect(standIn.server.requests.isEmpty, "\(standIn.server.requests.map(\.target))")
    }

    @Test("no write without --service-body: --user alone logs in and skips every write; --service-body without --user, or --cache, is a usage error")
    func safety() async throws {
        let standIn = try CheckStandIn(.v312)
        defer { standIn.stop() }
        let check = await runCheck(standIn.rootURL, Self.user, password: CheckStandIn.password)
        #expect(check.status("login") == "passed" && check.status("create-published") == "skipped" && standIn.writes == 0, "\(check.summary)")
        #expect(check.detail("create-published").contains("no --service-body given"))
        let usage = await runCheck(standIn.rootURL, ["--service-body", "1002"])
        #expect(usage.run.status == 2 && usage.run.errors.contains("--service-body needs --user"), "\(usage.run.errors)")
        let sent = standIn.server.requests.count
        let refused = await observe(["--server", standIn.rootURL.absoluteString, "--cache", NSTemporaryDirectory(), "check"])
        #expect(refused.status == 2 && refused.errors.contains("--cache would answer some checks"), "\(refused.errors)")
        #expect(standIn.server.requests.count == sent, "a usage error sends nothing")
        #expect(standIn.writes == 0)
    }

    @Test("at most 20 writes: the 21st is refused before it is sent")
    func budget() async throws {
        let context = CommandContext(connection: LibraryOracle.connection(nil), commandLine: ParsedCommandLine(command: "check", options: [:], positionals: []),
                                     environment: [:], json: true, io: CLIOutput(line: { _ in }, error: { _ in }), timeout: nil, clearSpinner: {})
        let settings = try CheckSettings(ParsedCommandLine(command: "check", options: ["service-body": ["1002"], "write-spacing": ["0"]], positionals: []),
                                         isDemo: true, timeout: nil)
        let sandbox = WriteSandbox(context: context, settings: settings)
        var sent = 0
        for _ in 0..<CheckSettings.writeBudget { try await sandbox.write { sent += 1 } }
        await #expect(throws: CLIFailure.self) { try await sandbox.write { sent += 1 } }
        #expect(sent == CheckSettings.writeBudget)
    }
}
