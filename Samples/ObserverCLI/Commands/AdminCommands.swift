import BMLTDemoServer
import BMLTKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `admin login|edit|create|delete|restore|rollback|logout`: each logs in (user from `--user`, password from
/// `BMLT_PASSWORD` or a prompt that does not echo — never from the command line), does its work, and logs out,
/// so every notification of the session is printed. On the demo server the demo account is used by default.
enum AdminCommands {
    static let login: [OptionSpec] = [.value("user", "NAME", "the administrator's user name (demo server: demo)")]
    static let edits: [OptionSpec] = [
        .value("name", "TEXT", "meeting name"), .value("weekday", "DAY", "sun…sat or 1–7"),
        .value("start", "HH:MM", "start time"), .value("duration", "MINUTES", "length in minutes"),
        .value("comments", "TEXT", "comments"), .value("town", "TEXT", "town"), .value("published", "yes|no", "published"),
        .value("at", "LAT,LONG", "where the meeting is (a new meeting needs it)"),
        .value("street", "TEXT", "street address"), .value("state", "TEXT", "state or province"),
        .value("zip", "TEXT", "postal code"), .value("venue", "KIND", "in-person, virtual or hybrid"),
        .value("link", "URL", "virtual meeting link"), .value("phone", "NUMBER", "phone meeting dial-in number"),
        .value("time-zone", "NAME", "IANA time zone, e.g. America/New_York"),
        .value("email", "ADDRESS", "the meeting's contact email (server administrators see it)"),
        .value("world-id", "ID", "NA World Services id (up to 30 characters)"),
        .value("format", "KEY|ID", "the meeting's formats, replacing the ones it has (O, BT… or ids); repeat for several", repeats: true),
        .flag("skip-location-check", "edits only: let the server skip its venue-type location rules"),
    ]

    /// The option that sets each field a draft can have a problem with.
    static let flags: [String: String] = [
        "meeting_name": "--name", "weekday_tinyint": "--weekday", "start_time": "--start", "duration_time": "--duration",
        "latitude": "--at", "longitude": "--at", "location_municipality": "--town", "location_street": "--street",
        "location_province": "--state", "location_postal_code_1": "--zip", "venue_type": "--venue",
        "virtual_meeting_link": "--link", "phone_meeting_number": "--phone", "time_zone": "--time-zone",
        "service_body_bigint": "--service-body", "comments": "--comments", "email_contact": "--email",
        "worldid_mixed": "--world-id", "formats": "--format",
    ]

    /// Refuses a draft the server would refuse, before anything is sent: each problem with the option to use
    /// (exit status 2, like other usage errors).
    @MainActor
    static func checkProblems(_ draft: BMLTMeetingDraft, _ connection: BMLTConnection, options: BMLTSaveOptions) throws {
        let problems = connection.problems(in: draft, options: options)
        guard !problems.isEmpty else { return }
        var lines = ["the server would refuse this meeting; nothing was sent:"]
        for problem in problems {
            let flag = flags[problem.key].map { " (use \($0))" } ?? ""
            lines.append("  \(problem.key): \(problem.message)\(flag)")
        }
        throw UsageError(lines.joined(separator: "\n"))
    }

    static let all: [Command] = [
        Command(spec: CommandSpec("admin login", "log in, print the user and permissions, log out", options: login)) { context in
            try await session(context) { connection in
                let admin = connection.admin
                context.output("")
                context.output("Logged in as \(admin.user?.displayName ?? admin.user?.username ?? "?") (\(admin.user?.role.rawValue ?? "?"))")
                let rows = admin.permissions.map { ["#\($0.serviceBodyID)", $0.serviceBodyName ?? "", FieldWords.level($0.level)] }
                for line in Columns.lines(rows, rightAligned: [0]) { context.output(line) }
                context.result(["user": JSONRecords.user(admin.user, permissions: admin.permissions)])
            }
        },
        Command(spec: CommandSpec("admin edit", "change fields of a meeting and save (prints the field changes)",
                                  options: login + edits, positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            var probe = BMLTMeetingDraft(serviceBodyID: 0)
            try apply(context.commandLine, to: &probe)      // usage errors before logging in
            try await session(context) { connection in
                var draft = try await meeting(id, connection).editable()
                try apply(context.commandLine, to: &draft, formats: connection.server.formats)
                guard draft.hasChanges else { throw UsageError("nothing to change: give --name, --weekday, --start, …") }
                let options = BMLTSaveOptions(skipVenueTypeLocationValidation: context.commandLine.flag("skip-location-check"))
                try checkProblems(draft, connection, options: options)
                let result = try await connection.saveAndWait(draft, options: options)
                printFieldChanges(result.fieldChanges, meetingID: id, context: context)
            }
        },
        Command(spec: CommandSpec("admin create", "create a meeting (prints its new id)",
                                  options: login + edits + [.value("service-body", "ID", "its service body (required)")])) { context in
            guard let body = context.commandLine.value("service-body") else { throw UsageError("admin create needs --service-body") }
            var draft = BMLTMeetingDraft(serviceBodyID: try SearchCommand.integer(body, "--service-body"))
            try apply(context.commandLine, to: &draft)
            guard !draft.name.isEmpty else { throw UsageError("admin create needs --name") }
            try await session(context) { connection in
                try apply(context.commandLine, to: &draft, formats: connection.server.formats)
                try checkProblems(draft, connection, options: BMLTSaveOptions())
                let result = try await connection.saveAndWait(draft)
                context.output("")
                context.output("Created meeting #\(result.meeting.id)")
                context.result(["meeting": JSONRecords.meeting(result.meeting)])
            }
        },
        Command(spec: CommandSpec("admin delete", "delete a meeting (asks first at a terminal; --yes does not ask)",
                                  options: login + [.flag("yes", "delete without asking (needed when not at a terminal)")],
                                  positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            let confirmed = context.commandLine.flag("yes")
            guard confirmed || context.io.canAsk else { throw UsageError("admin delete needs --yes when no one is at a terminal to confirm") }
            try await session(context) { connection in
                if !confirmed {
                    let target = try await meeting(id, connection)
                    context.io.error("Delete meeting #\(id) “\(target.name)”? It can be restored later (admin restore \(id)). [y/N] ")
                    guard let answer = context.io.readAnswer(), ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces)) else {
                        throw CLIFailure("Not deleted: meeting #\(id) is as it was.")
                    }
                }
                try await connection.deleteMeetingAndWait(id: id)
                context.output("")
                // A meeting already gone is a success that says so (who deleted it and when, where the change list says).
                if let done = connection.admin.lastDeletion, done.meetingID == id, done.wasAlreadyDeleted {
                    context.output(done.description)
                } else {
                    context.output("Deleted meeting #\(id) (admin restore \(id) brings it back)")
                }
                context.result(["deletedMeetingID": id, "wasAlreadyDeleted": connection.admin.lastDeletion?.wasAlreadyDeleted == true])
            }
        },
        Command(spec: CommandSpec("admin restore", "restore a deleted meeting from its latest deletion", options: login,
                                  positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            try await session(context) { connection in
                guard let deletion = try await connection.deletedMeetings().first(where: { $0.meetingID == id }) else {
                    throw CLIFailure("Meeting \(id) is not among the deleted meetings, so there is nothing to restore "
                                     + "(it was never deleted, or was restored already). Run 'bmlt-observer deleted' to list them.")
                }
                let meeting = try await connection.restoreDeletedMeetingAndWait(deletion)
                context.output("")
                // 3.x and 4.x create the meeting again from its deletion record, under a new id.
                context.output(meeting.id == id ? "Restored meeting #\(id)"
                               : "Restored meeting #\(id): restored as #\(meeting.id) (the server gave it a new id; use #\(meeting.id) from now on)")
                context.result(["meeting": JSONRecords.meeting(meeting)])
            }
        },
        Command(spec: CommandSpec("admin rollback", "put a meeting back as it was before its latest change", options: login,
                                  positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            try await session(context) { connection in
                guard let change = try await connection.changes(meetingID: id).first(where: { $0.before != nil && $0.after != nil }) else {
                    throw CLIFailure("Meeting \(id) has no recorded edit to roll back (its history holds no change with a before and "
                                     + "an after). Run 'bmlt-observer changes --meeting \(id)' to see its history.")
                }
                let result = try await connection.rollbackAndWait(meetingID: id, toBefore: change)
                printFieldChanges(result.fieldChanges, meetingID: id, context: context)
            }
        },
        Command(spec: CommandSpec("admin logout", "log in and out again (checks the credentials end to end)", options: login)) { context in
            try await session(context) { _ in }
        },
    ]

    /// Logs in, runs `body`, and logs out even when `body` fails.
    @MainActor
    static func session(_ context: CommandContext, _ body: (BMLTConnection) async throws -> Void) async throws {
        let connection = context.connection
        if context.commandLine.value("user") == nil && !context.isDemo {
            throw UsageError("--user is needed (the password comes from BMLT_PASSWORD or a prompt)")
        }
        _ = try await connection.validate()       // a wrong --server fails before anyone types a password
        let (user, password) = try credentials(context)
        try await connection.login(username: user, password: password)
        do {
            try await body(connection)
        } catch {
            try? await connection.logoutAndWait()
            throw error
        }
        try await connection.logoutAndWait()
    }

    /// The user name from `--user`; the password from `BMLT_PASSWORD` or a no-echo prompt. The demo server's
    /// account is the default when no server was given.
    @MainActor
    static func credentials(_ context: CommandContext) throws -> (String, String) {
        let isDemo = context.commandLine.value("server") == nil
        let user = context.commandLine.value("user") ?? (isDemo ? BMLTDemoServer.adminUsername : nil)
        guard let user else { throw UsageError("--user is needed (the password comes from BMLT_PASSWORD or a prompt)") }
        if let password = context.environment["BMLT_PASSWORD"], !password.isEmpty { return (user, password) }
        if isDemo { return (user, BMLTDemoServer.adminPassword) }
        guard let typed = context.io.readPassword("Password for \(user): "), !typed.isEmpty else {
            throw UsageError("no password: set BMLT_PASSWORD or type it at the prompt")
        }
        return (user, typed)
    }

    static func meetingID(_ context: CommandContext) throws -> Int {
        guard let text = context.commandLine.positionals.first else { throw UsageError("a MEETING_ID is needed") }
        return try SearchCommand.integer(text, "MEETING_ID")
    }

    /// The meeting as the server holds it now (published or not).
    @MainActor
    static func meeting(_ id: Int, _ connection: BMLTConnection) async throws -> BMLTMeeting {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [id]
        criteria.publishedStatus = .both
        guard let meeting = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first else {
            throw CLIFailure("The server has no meeting \(id) that this login can see.")
        }
        return meeting
    }

    /// The fields a save changed, in people's words (and as records with `--json`).
    @MainActor
    static func printFieldChanges(_ changes: [BMLTFieldChange], meetingID: Int, context: CommandContext) {
        let readable = FieldWords.readable(changes)
        context.result(["meetingID": meetingID, "fields": readable.map(JSONRecords.fieldChange)])
        context.output("")
        context.output("Meeting #\(meetingID) saved" + (readable.isEmpty ? " (no field changed)" : ":"))
        for change in readable { context.output("  " + FieldWords.describe(change)) }
    }

    /// Sets the draft's fields from the flags. `--format` keys are looked up among `formats` (the server's); without
    /// them only the syntax is checked (before logging in), and the formats are set once the server's are known.
    static func apply(_ line: ParsedCommandLine, to draft: inout BMLTMeetingDraft, formats: [BMLTFormat]? = nil) throws {
        if let name = line.value("name") { draft.name = name }
        if let day = line.value("weekday") { draft.weekday = try SearchCommand.weekday(day) }
        if let start = line.value("start") { draft.startTime = try SearchCommand.time(start, "--start") }
        if let minutes = line.value("duration") { draft.duration = TimeInterval(try SearchCommand.integer(minutes, "--duration") * 60) }
        if let comments = line.value("comments") { draft.comments = comments }
        if let town = line.value("town") { draft.municipality = town }
        if let street = line.value("street") { draft.street = street }
        if let state = line.value("state") { draft.province = state }
        if let zip = line.value("zip") { draft.postalCode = zip }
        if let link = line.value("link") { draft.virtualMeetingLink = link }
        if let phone = line.value("phone") { draft.phoneMeetingNumber = phone }
        if let venue = line.value("venue") {
            switch venue.lowercased() {
            case "in-person", "inperson", "1": draft.venueType = .inPerson
            case "virtual", "2": draft.venueType = .virtual
            case "hybrid", "3": draft.venueType = .hybrid
            default: throw UsageError("--venue needs in-person, virtual or hybrid")
            }
        }
        if let zone = line.value("time-zone") {
            guard let timeZone = TimeZone(identifier: zone) else { throw UsageError("--time-zone needs an IANA name, e.g. America/New_York") }
            draft.timeZone = timeZone
        }
        if let at = line.value("at") {
            let parts = at.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
                throw UsageError("--at needs LAT,LONG in degrees")
            }
            draft.coordinate = BMLTCoordinate(latitude: parts[0], longitude: parts[1])
        }
        if let email = line.value("email") { draft.emailContact = email }
        if let world = line.value("world-id") { draft.worldID = world }
        let formatValues = line.values("format")
        if !formatValues.isEmpty {
            let ids = try SearchCommand.formatIDs(formatValues, known: formats)
            if let formats {
                draft.setFormats(ids.compactMap { id in formats.first { $0.id == id } })
            }
        }
        if let published = line.value("published") {
            switch published.lowercased() {
            case "yes", "true", "1": draft.isPublished = true
            case "no", "false", "0": draft.isPublished = false
            default: throw UsageError("--published needs yes or no")
            }
        }
    }
}
