import BMLTKit
import Foundation

/// `changes`, `deleted`, `field-keys`, `field-values`, `coverage` and `naws`: the other reads, each printed
/// after its notification.
enum ReadCommands {
    static let changes = Command(
        spec: CommandSpec("changes", "the change history, newest first, with what changed", options: [
            .value("from", "YYYY-MM-DD", "first day"), .value("to", "YYYY-MM-DD", "last day"),
            .value("meeting", "ID", "one meeting's changes"), .value("service-body", "ID", "one service body's changes"),
            .value("limit", "N", "print at most N changes (default 20)"),
        ]),
        run: { context in
            let line = context.commandLine
            let changes = try await context.connection.changes(
                from: try line.value("from").map { try day($0, "--from") }, to: try line.value("to").map { try day($0, "--to") },
                meetingID: try line.value("meeting").map { try SearchCommand.integer($0, "--meeting") },
                serviceBodyID: try line.value("service-body").map { try SearchCommand.integer($0, "--service-body") })
            printChanges(changes, limit: Int(line.value("limit") ?? "20") ?? 20, context: context)
        }
    )

    static let deleted = Command(
        spec: CommandSpec("deleted", "meetings deleted and not restored since (the latest deletion of each)", options: [
            .value("from", "YYYY-MM-DD", "first day"), .value("to", "YYYY-MM-DD", "last day"),
            .value("service-body", "ID", "service body id; repeat for several", repeats: true),
        ]),
        run: { context in
            let line = context.commandLine
            let ids = try line.values("service-body").map { try SearchCommand.integer($0, "--service-body") }
            let deletions = try await context.connection.deletedMeetings(
                from: try line.value("from").map { try day($0, "--from") }, to: try line.value("to").map { try day($0, "--to") },
                serviceBodyIDs: ids.isEmpty ? nil : ids)
            printChanges(deletions, limit: .max, context: context)
        }
    )

    static let fieldKeys = Command(
        spec: CommandSpec("field-keys", "the fields the server's meetings have"),
        run: { context in
            let keys = try await context.connection.fieldKeys()
            context.output("")
            for key in keys { context.output("  " + key.key.padding(toLength: 34, withPad: " ", startingAt: 0) + key.description) }
        }
    )

    static let fieldValues = Command(
        spec: CommandSpec("field-values", "every value of one field and how many meetings have it", positionals: ["KEY"]),
        run: { context in
            guard let key = context.commandLine.positionals.first else { throw UsageError("field-values needs a field KEY (see field-keys)") }
            let values = try await context.connection.fieldValues(forKey: key)
            context.output("")
            for value in values.sorted(by: { $0.meetingIDs.count > $1.meetingIDs.count }) {
                context.output("  " + String(value.meetingIDs.count).padding(toLength: 6, withPad: " ", startingAt: 0) + (value.value ?? "(none)"))
            }
        }
    )

    static let coverage = Command(
        spec: CommandSpec("coverage", "the box that holds all the server's meetings"),
        run: { context in
            let area = try await context.connection.coverageArea()
            context.output("")
            context.output("  north-west \(area.northWest.latitude), \(area.northWest.longitude)")
            context.output("  south-east \(area.southEast.latitude), \(area.southEast.longitude)")
        }
    )

    static let naws = Command(
        spec: CommandSpec("naws", "the NAWS export of a service body (CSV, parsed)", positionals: ["SERVICE_BODY_ID"]),
        run: { context in
            guard let text = context.commandLine.positionals.first else { throw UsageError("naws needs a SERVICE_BODY_ID") }
            let export = try await context.connection.nawsExport(serviceBodyID: try SearchCommand.integer(text, "SERVICE_BODY_ID"))
            context.output("")
            context.output("\(export.rows.count) rows, \(export.columns.count) columns")
            for row in export.rows.prefix(20) {
                context.output("  " + ["bmlt_id", "Day", "Time", "CommitteeName", "City"].map { row[$0] ?? "" }.joined(separator: " | "))
            }
        }
    )

    /// `YYYY-MM-DD` → noon of that day in the local time zone.
    static func day(_ text: String, _ option: String) throws -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else {
            throw UsageError("\(option) needs a date as YYYY-MM-DD")
        }
        return date
    }

    @MainActor
    static func printChanges(_ changes: [BMLTChange], limit: Int, context: CommandContext) {
        context.output("")
        context.output("\(changes.count) change\(changes.count == 1 ? "" : "s")")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        for change in changes.prefix(limit) {
            let when = change.date.map(formatter.string(from:)) ?? "?"
            context.output("  \(when)  \(change.type.rawValue.replacingOccurrences(of: "comdef_change_type_", with: ""))  #\(change.meetingID ?? 0) \(change.meetingName ?? "")  by \(change.userName ?? "?")")
            if let before = change.before, let after = change.after {
                var draft = before.editable()
                draft.meeting = after
                for field in draft.changes.prefix(5) {
                    context.output("      \(field.key): \(field.before ?? "—") → \(field.after ?? "—")")
                }
            }
        }
    }
}
