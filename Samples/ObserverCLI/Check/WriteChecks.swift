import BMLTDemoServer
import BMLTKit
import Foundation

/// The checks that write, with an administrator, in the sandbox service body only: log in; refuse a service body this
/// login cannot edit before anything is sent; create a meeting published and one unpublished and read each back equal
/// to its draft; what the public sees of them; one field of every kind changed (`WriteEdits`); a second login's change
/// and the edit conflict it must give; a list brought up to date across the writes; delete, and restore where BMLTKit
/// offers it. Everything made is deleted again by `WriteSandbox.cleanUp`.
@MainActor
struct WriteChecks {
    let runner: CheckRunner
    let connection: BMLTConnection
    let probe: WireProbe
    let findings: CheckFindings
    let settings: CheckSettings
    let sandbox: WriteSandbox?

    /// The meetings this run made: published (`published`) and not (`unpublished`).
    final class Made {
        var published: BMLTMeeting?
        var unpublished: BMLTMeeting?
        var list: BMLTSearchResults?
    }

    static let writeTitles: [(String, String)] = [
        ("sandbox", "the sandbox service body"), ("create-published", "create a meeting, published"),
        ("create-unpublished", "create a meeting, unpublished"), ("public-view", "what the public sees of them"),
        ("way.hidden-fields-proved", "way: hidden fields, proved"),
        ("way.change-clock-measured", "way: change records' clock, measured"),
    ] + WriteEdits.titles + [
        ("edit-conflict", "a second login's change and the edit conflict it must give"),
        ("refresh-after-writes", "the sandbox's list brought up to date across the writes"),
        ("delete", "delete"), ("restore", "restore a deleted meeting"),
    ]

    /// The checks that write, logged in as `user` (after the read-only ones, which validated the server).
    func run(user: String, password: String) async throws {
        sandbox?.credentials = (user, password)
        let login = try await runner.run("login", "log in", .write) {
            try await connection.login(username: user, password: password)
            let admin = connection.admin
            let editable = admin.permissions.filter(\.canEditMeetings).map { "#\($0.serviceBodyID)" }
            return .passed("as \(admin.user?.displayName ?? user) (\(admin.user?.role.rawValue ?? "?")); may edit meetings of "
                           + (editable.isEmpty ? "no service body" : editable.prefix(12).joined(separator: ", ") + (editable.count > 12 ? " …" : "")),
                           ["user": JSONRecords.user(admin.user, permissions: admin.permissions)])
        }
        guard let sandbox else {
            for (id, title) in Self.writeTitles { runner.skip(id, title, .write, because: "no --service-body given (writes happen only in a sandbox service body)") }
            return
        }
        guard login.status == .passed else {
            for (id, title) in Self.writeTitles { runner.skip(id, title, .write, because: "the login failed") }
            return
        }
        let made = Made()
        let refusal = try await runner.run("sandbox", "the sandbox service body", .write) { try await sandboxVerdict(sandbox, made) }
        guard refusal.status == .passed else {
            for (id, title) in Self.writeTitles.dropFirst() { runner.skip(id, title, .write, because: "nothing is written outside a service body this login may edit") }
            return
        }
        try await create(published: true, made: made, sandbox: sandbox)
        try await create(published: false, made: made, sandbox: sandbox)
        try await publicView(made)
        try await measuredClock(made)
        let edits = WriteEdits(runner: runner, connection: connection, findings: findings, sandbox: sandbox)
        try await edits.run(made)
        try await edits.conflict(made, password: password)
        try await runner.run("refresh-after-writes", "the sandbox's list brought up to date across the writes", .write) {
            guard let previous = made.list else { return .skipped("the list was not read before the writes") }
            var criteria = BMLTSearchCriteria()
            criteria.serviceBodyIDs = [sandbox.serviceBodyID]
            return try await RefreshCheck.verdict(connection, criteria: criteria, previous: previous, tally: runner.tally,
                                                  what: "service body #\(sandbox.serviceBodyID)'s list")
        }
        try await edits.deleteAndRestore(made)
    }

    /// The user from `--user` (the demo account offline); the password from `BMLT_PASSWORD`, a prompt that does not
    /// echo, or (offline) the demo account's — never from the command line.
    func credentials() throws -> (String, String) {
        let context = runner.context
        guard let user = settings.user else { throw UsageError("--user is needed") }
        if let password = context.environment["BMLT_PASSWORD"], !password.isEmpty { return (user, password) }
        if context.isDemo && user == BMLTDemoServer.adminUsername { return (user, BMLTDemoServer.adminPassword) }
        guard let typed = context.io.readPassword("Password for \(user): "), !typed.isEmpty else {
            throw UsageError("no password: set BMLT_PASSWORD or type it at the prompt (it is never taken from the command line)")
        }
        return (user, typed)
    }

    /// The service body must exist and this login must be able to edit its meetings; nothing is sent otherwise. Reads
    /// what it holds (to compare at the end) and its published list (to bring up to date across the writes).
    private func sandboxVerdict(_ sandbox: WriteSandbox, _ made: Made) async throws -> Verdict {
        let id = sandbox.serviceBodyID
        if findings.isAggregator {
            return .failed("refused before anything was sent: an aggregator takes no writes (4.x answers 403 to every meeting write "
                           + "in aggregator mode)", advice: "Check writes against a root server: give its URL to --server.")
        }
        guard let body = connection.server.serviceBodies.first(where: { $0.id == id }) else {
            return .failed("refused before anything was sent: the server has no service body #\(id)",
                           advice: "Give --service-body the id of a service body of this server (bmlt-observer --server URL service-bodies).")
        }
        let editable = connection.admin.permissions.filter(\.canEditMeetings)
        guard editable.contains(where: { $0.serviceBodyID == id }) else {
            let others = editable.map { "#\($0.serviceBodyID)" }.prefix(12).joined(separator: ", ")
            return .failed("refused before anything was sent: \(connection.admin.user?.username ?? "this login") may not edit the meetings of "
                           + "\(body.name) #\(id)", advice: "Give --service-body a service body this login may edit"
                               + (others.isEmpty ? " (it may edit none: ask the server's administrator)" : ": \(others)") + ".")
        }
        let held = try await sandbox.meetings(connection)
        sandbox.before = Set(held.map(\.id))
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [id]
        made.list = try await connection.meetings(matching: criteria)
        return .passed("\(body.name) #\(id): this login may edit it; it holds \(plural(held.count, "meeting")) "
                       + "(at most \(CheckSettings.writeBudget) writes, \(ErrorWords.number(settings.spacing)) s apart; everything made is deleted again)",
                       ["serviceBodyID": id, "meetingsBefore": held.count])
    }

    /// A new meeting's draft, in the sandbox, placed like one of its meetings (so a REST server's location rules hold).
    func draft(published: Bool, sandbox: WriteSandbox) -> BMLTMeetingDraft {
        let info = findings.info
        let template = (findings.region?.meetings ?? []).first { $0.serviceBodyID == sandbox.serviceBodyID && $0.coordinate != nil && $0.street != nil }
            ?? (findings.region?.meetings ?? []).first { $0.coordinate != nil && $0.street != nil && $0.municipality != nil }
        var draft = BMLTMeetingDraft(serviceBodyID: sandbox.serviceBodyID)
        draft.name = sandbox.mark + (published ? " published" : " unpublished")
        draft.weekday = .wednesday
        draft.startTime = BMLTTimeOfDay(hour: 19, minute: 15)
        draft.duration = 75 * 60
        draft.coordinate = template?.coordinate ?? info?.center ?? BMLTCoordinate(latitude: 40.7, longitude: -73.6)
        draft.street = template?.street ?? "1 Main Street"
        draft.municipality = template?.municipality ?? "Anytown"
        draft.province = template?.province ?? info?.statesAndProvinces.first ?? "NY"
        if let postal = template?.postalCode, !postal.isEmpty { draft.postalCode = postal }
        draft.locationText = "A test meeting (bmlt-observer check), deleted again"
        draft.comments = "Made by bmlt-observer check to test this server; it deletes it again within minutes."
        draft.contactName1 = sandbox.mark + " contact"
        if !findings.isLegacy { draft.venueType = .inPerson }
        if let format = WriteEdits.formats(connection, findings).first { draft.setFormats([format]) }
        draft.isPublished = published
        return draft
    }

    private func create(published: Bool, made: Made, sandbox: WriteSandbox) async throws {
        let id = published ? "create-published" : "create-unpublished"
        try await runner.run(id, published ? "create a meeting, published" : "create a meeting, unpublished", .write) {
            let draft = draft(published: published, sandbox: sandbox)
            let problems = connection.problems(in: draft)
            guard problems.isEmpty else {
                return .failed("BMLTKit refuses the check's draft: " + problems.map { "\($0.key): \($0.message)" }.joined(separator: "; "),
                               advice: "Report it: the check's draft follows this server's rules as BMLTKit knows them.")
            }
            let saved = try await sandbox.write { try await connection.saveAndWait(draft) }
            sandbox.made(saved.meeting)
            if published { made.published = saved.meeting } else { made.unpublished = saved.meeting }
            let wrong = MeetingFields.mismatches(wanted: draft.meeting, held: saved.meeting)
            let facts: [String: Any] = ["meetingID": saved.meeting.id]
            guard wrong.isEmpty else {
                let publishing = wrong.contains { $0.hasPrefix("published:") } && findings.isLegacy
                return .failed("#\(saved.meeting.id) read back unlike its draft: " + wrong.joined(separator: "; "),
                               advice: publishing
                                   ? "On this server a new meeting stays unpublished whatever the draft says (2.x ignores published when it "
                                       + "creates a meeting). BMLTKit publishes it with a second write, so this is a BMLTKit bug: report it "
                                       + "with the --verbose output; meanwhile apps can publish it with a second save."
                                   : "Apps would show values nobody saved: report it with the server's answers (--verbose).", facts)
            }
            return .passed("#\(saved.meeting.id), read back equal to its draft (\(MeetingFields.all.count) fields compared)", facts)
        }
    }

    /// What an anonymous reader gets for the two new meetings: the server's answer (raw) and BMLTKit's.
    private func publicView(_ made: Made) async throws {
        try await runner.run("public-view", "what the public sees of them", .write) {
            guard let published = made.published, let unpublished = made.unpublished else { return .skipped("the two meetings were not both made") }
            let ids = [published.id, unpublished.id]
            let raw = try await probe.semantic([("switcher", "GetSearchResults")] + ids.map { ("meeting_ids[]", String($0)) })
            let rawIDs = Set(raw.meetingIDs ?? [])
            if let shown = raw.meetings?.first(where: { WireProbe.Reply.int($0["id_bigint"]) == published.id }) {
                let contact = "\(shown["contact_name_1"] ?? "")".trimmingCharacters(in: .whitespaces)
                findings.hiddenFieldProof = contact.isEmpty ? "the server blanks hidden fields in public searches (#\(published.id) holds a "
                    + "contact name; the public gets \"\")" : "the server shows hidden fields to the public (#\(published.id)'s contact name)"
            }
            let anonymous = BMLTConnection(rootServerURL: connection.rootServerURL, configuration: connection.configuration)
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = ids
            let seen = Set(try await anonymous.meetings(matching: criteria, extent: .meetingsOnly).meetings.map(\.id))
            let server = "the server itself returns " + (rawIDs.isEmpty ? "neither" : rawIDs.sorted().map { "#\($0)" }.joined(separator: " and "))
            var wrong: [String] = []
            if !seen.contains(published.id) { wrong.append("the published #\(published.id) is not shown") }
            if seen.contains(unpublished.id) { wrong.append("the unpublished #\(unpublished.id) is shown to anyone") }
            guard wrong.isEmpty else {
                return .failed("through BMLTKit " + wrong.joined(separator: " and ") + " (\(server))",
                               advice: seen.contains(unpublished.id)
                                   ? "Apps on this server show unpublished meetings found by id. BMLTKit hides them from a search by id on "
                                       + "every generation, so this is a BMLTKit bug: report it with the --verbose output; meanwhile filter "
                                       + "out isPublished == false."
                                   : "The meeting saved as published is not public: look at its published state (bmlt-observer --server URL meeting \(published.id)).",
                               ["rawIDs": rawIDs.sorted(), "bmltkitIDs": seen.sorted()])
            }
            return .passed("through BMLTKit only the published #\(published.id) (\(server))", ["rawIDs": rawIDs.sorted(), "bmltkitIDs": seen.sorted()])
        }
        try await runner.run("way.hidden-fields-proved", "way: hidden fields, proved", .way) {
            guard let proof = findings.hiddenFieldProof else { return .skipped("the published meeting was not in the public's answer") }
            return .passed(proof)
        }
    }

    /// The change record of the published meeting's creation against the server's clock (its `Date` header) right after.
    private func measuredClock(_ made: Made) async throws {
        try await runner.run("way.change-clock-measured", "way: change records' clock, measured", .way) {
            guard let meeting = made.published ?? made.unpublished else { return .skipped("no meeting was made") }
            let records = try await connection.changes(meetingID: meeting.id)
            let reply = try await probe.semantic([("switcher", "GetServerInfo")])
            guard let recorded = records.compactMap(\.date).max() else { return .skipped("the server recorded no change for #\(meeting.id)") }
            guard let now = WireProbe.date(reply.headers["date"]) else { return .skipped("the server sent no Date header") }
            let offset = recorded.timeIntervalSince(now)
            guard abs(offset) < 600 else {
                return .failed("the record of #\(meeting.id)'s creation is dated \(ServerWays.duration(abs(offset))) "
                               + (offset > 0 ? "after" : "before") + " the server's own clock (its Date header) seconds later",
                               advice: "The server's database runs on another clock or time zone than its web server: set the database's "
                                   + "time zone to UTC. Until then apps that bring lists up to date from the change log can miss changes.",
                               ["offsetSeconds": ServerWays.wholeSeconds(offset)])
            }
            return .passed("the record of #\(meeting.id)'s creation is dated \(ServerWays.wholeSeconds(abs(offset))) s from the server's clock",
                           ["offsetSeconds": ServerWays.wholeSeconds(offset)])
        }
    }
}
