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
    ]

    static let all: [Command] = [
        Command(spec: CommandSpec("admin login", "log in, print the user and permissions, log out", options: login)) { context in
            try await session(context) { connection in
                let admin = connection.admin
                context.output("")
                context.output("Logged in as \(admin.user?.displayName ?? admin.user?.username ?? "?") (\(admin.user?.role.rawValue ?? "?"))")
                for permission in admin.permissions {
                    context.output("  #\(permission.serviceBodyID) \(permission.serviceBodyName ?? "")  \(permission.level)")
                }
            }
        },
        Command(spec: CommandSpec("admin edit", "change fields of a meeting and save (prints the field changes)",
                                  options: login + edits, positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            var probe = BMLTMeetingDraft(serviceBodyID: 0)
            try apply(context.commandLine, to: &probe)      // usage errors before logging in
            try await session(context) { connection in
                var draft = try await meeting(id, connection).editable()
                try apply(context.commandLine, to: &draft)
                guard draft.hasChanges else { throw UsageError("nothing to change: give --name, --weekday, --start, …") }
                let result = try await connection.saveMeeting(draft)
                context.output("")
                for change in result.fieldChanges { context.output("  \(change.key): \(change.before ?? "—") → \(change.after ?? "—")") }
            }
        },
        Command(spec: CommandSpec("admin create", "create a meeting (prints its new id)",
                                  options: login + edits + [.value("service-body", "ID", "its service body (required)")])) { context in
            guard let body = context.commandLine.value("service-body") else { throw UsageError("admin create needs --service-body") }
            var draft = BMLTMeetingDraft(serviceBodyID: try SearchCommand.integer(body, "--service-body"))
            try apply(context.commandLine, to: &draft)
            guard !draft.name.isEmpty else { throw UsageError("admin create needs --name") }
            try await session(context) { connection in
                let result = try await connection.saveMeeting(draft)
                context.output("")
                context.output("Created meeting #\(result.meeting.id)")
            }
        },
        Command(spec: CommandSpec("admin delete", "delete a meeting", options: login, positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            try await session(context) { connection in try await connection.removeMeeting(id: id) }
        },
        Command(spec: CommandSpec("admin restore", "restore a deleted meeting from its latest deletion", options: login,
                                  positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            try await session(context) { connection in
                guard let deletion = try await connection.deletedMeetings().first(where: { $0.meetingID == id }) else {
                    throw BMLTError.notFound(message: "no deletion of meeting \(id) that has not been restored")
                }
                let meeting = try await connection.restoreMeeting(from: deletion)
                context.output("")
                context.output("Restored as meeting #\(meeting.id)")
            }
        },
        Command(spec: CommandSpec("admin rollback", "put a meeting back as it was before its latest change", options: login,
                                  positionals: ["MEETING_ID"])) { context in
            let id = try meetingID(context)
            try await session(context) { connection in
                guard let change = try await connection.changes(meetingID: id).first(where: { $0.before != nil && $0.after != nil }) else {
                    throw BMLTError.notFound(message: "no change of meeting \(id) to roll back")
                }
                let result = try await connection.rollBackMeeting(id: id, toBefore: change)
                context.output("")
                for field in result.fieldChanges { context.output("  \(field.key): \(field.before ?? "—") → \(field.after ?? "—")") }
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
        let (user, password) = try credentials(context)
        try await connection.login(username: user, password: password)
        do {
            try await body(connection)
        } catch {
            try? await connection.logOut()
            throw error
        }
        try await connection.logOut()
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
        guard let typed = getpass("Password for \(user): ").map({ String(cString: $0) }), !typed.isEmpty else {
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
            throw BMLTError.notFound(message: "meeting \(id)")
        }
        return meeting
    }

    static func apply(_ line: ParsedCommandLine, to draft: inout BMLTMeetingDraft) throws {
        if let name = line.value("name") { draft.name = name }
        if let day = line.value("weekday") { draft.weekday = try SearchCommand.weekday(day) }
        if let start = line.value("start") { draft.startTime = try SearchCommand.time(start, "--start") }
        if let minutes = line.value("duration") { draft.duration = TimeInterval(try SearchCommand.integer(minutes, "--duration") * 60) }
        if let comments = line.value("comments") { draft.comments = comments }
        if let town = line.value("town") { draft.municipality = town }
        if let at = line.value("at") {
            let parts = at.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
                throw UsageError("--at needs LAT,LONG in degrees")
            }
            draft.coordinate = BMLTCoordinate(latitude: parts[0], longitude: parts[1])
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
