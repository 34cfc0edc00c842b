import BMLTKit
import Foundation

/// `changes`, `deleted`, `field-keys`, `field-values`, `coverage` and `naws`: the other reads, each printed
/// after its notification.
enum ReadCommands {
    static let changes = Command(
        spec: CommandSpec("changes", "the change history, newest first, with what changed", options: [
            .value("from", "YYYY-MM-DD", "first day"), .value("to", "YYYY-MM-DD", "last day"),
            .value("meeting", "ID", "one meeting's changes"), .value("service-body", "ID", "one service body's changes"),
            .value("limit", "N", "print at most N changes (default 20; with --json all)"),
        ]),
        run: { context in
            let line = context.commandLine
            let limit = try context.limit(default: 20)
            let changes = try await context.connection.changes(
                from: try line.value("from").map { try day($0, "--from") }, to: try line.value("to").map { try day($0, "--to") },
                meetingID: try line.value("meeting").map { try SearchCommand.integer($0, "--meeting") },
                serviceBodyID: try line.value("service-body").map { try SearchCommand.integer($0, "--service-body") })
            printChanges(changes, limit: limit, context: context)
        }
    )

    static let deleted = Command(
        spec: CommandSpec("deleted", "meetings deleted and not restored since (the latest deletion of each)", options: [
            .value("from", "YYYY-MM-DD", "first day"), .value("to", "YYYY-MM-DD", "last day"),
            .value("service-body", "ID", "service body id; repeat for several", repeats: true),
            .value("limit", "N", "print at most N deletions (default 20; with --json all)"),
        ]),
        run: { context in
            let line = context.commandLine
            let limit = try context.limit(default: 20)
            let ids = try line.values("service-body").map { try SearchCommand.integer($0, "--service-body") }
            let deletions = try await context.connection.deletedMeetings(
                from: try line.value("from").map { try day($0, "--from") }, to: try line.value("to").map { try day($0, "--to") },
                serviceBodyIDs: ids.isEmpty ? nil : ids)
            printChanges(deletions, limit: limit, context: context)
        }
    )

    static let fieldKeys = Command(
        spec: CommandSpec("field-keys", "the fields the server's meetings have"),
        run: { context in
            let keys = try await context.connection.fieldKeys()
            context.result(["fieldKeys": keys.map { ["key": $0.key, "description": $0.description] }, "count": keys.count])
            context.output("")
            for line in Columns.lines(keys.map { [$0.key, $0.description] }) { context.output(line) }
        }
    )

    static let fieldValues = Command(
        spec: CommandSpec("field-values", "every value of one field, how many meetings have it, and which", options: [
            .value("limit", "N", "print at most N values (default 50; with --json all)"),
        ], positionals: ["KEY"]),
        run: { context in
            guard let key = context.commandLine.positionals.first else { throw UsageError("field-values needs a field KEY (see field-keys)") }
            let limit = try context.limit(default: 50)
            let values: [BMLTFieldValue]
            do {
                values = try await context.connection.fieldValues(forKey: key)
            } catch let error as BMLTError {
                // Say what is true: the server refused the key (a 4xx), it is not a passing trouble.
                guard case .httpStatus(let code, _) = error, (400..<500).contains(code) else { throw error }
                throw CLIFailure("The server has no field '\(key)' it will list values of (HTTP \(code)). Run 'bmlt-observer field-keys' for its fields.")
            }
            let sorted = values.sorted { $0.meetingIDs.count > $1.meetingIDs.count }
            var record = JSONRecords.limited(sorted, limit: limit, key: "values", JSONRecords.fieldValue)
            record["key"] = key
            context.result(record)
            context.output("")
            context.output("\(values.count) value\(values.count == 1 ? "" : "s") of \(key)" + shownNote(values.count, limit: limit))
            let rows = sorted.prefix(limit).map { value -> [String] in
                let ids = value.meetingIDs.prefix(6).map { "#\($0)" }.joined(separator: " ") + (value.meetingIDs.count > 6 ? " …" : "")
                return [String(value.meetingIDs.count), value.value ?? "(none)", ids]
            }
            for line in Columns.lines(rows, rightAligned: [0]) { context.output(line) }
        }
    )

    static let coverage = Command(
        spec: CommandSpec("coverage", "the box that holds all the server's meetings"),
        run: { context in
            let area = try await context.connection.coverageArea()
            context.result([
                "northWest": ["latitude": area.northWest.latitude, "longitude": area.northWest.longitude],
                "southEast": ["latitude": area.southEast.latitude, "longitude": area.southEast.longitude],
            ])
            context.output("")
            context.output("  north-west \(area.northWest.latitude), \(area.northWest.longitude)")
            context.output("  south-east \(area.southEast.latitude), \(area.southEast.longitude)")
        }
    )

    static let naws = Command(
        spec: CommandSpec("naws", "the NAWS export of a service body (CSV, parsed)", options: [
            .value("limit", "N", "print at most N rows (default 20; with --json all)"),
        ], positionals: ["SERVICE_BODY_ID"]),
        run: { context in
            guard let text = context.commandLine.positionals.first else { throw UsageError("naws needs a SERVICE_BODY_ID") }
            let id = try SearchCommand.integer(text, "SERVICE_BODY_ID")
            let limit = try context.limit(default: 20)
            let export = try await context.connection.nawsExport(serviceBodyID: id)
            var record = JSONRecords.limited(export.rows, limit: limit, key: "rows") { $0 }
            record["columns"] = export.columns
            context.result(record)
            context.output("")
            context.output("\(export.rows.count) rows, \(export.columns.count) columns" + shownNote(export.rows.count, limit: limit))
            let columns = ["bmlt_id", "Day", "Time", "CommitteeName", "City"]
            for line in Columns.lines([columns] + export.rows.prefix(limit).map { row in columns.map { row[$0] ?? "" } }) {
                context.output(line)
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

    /// The changes, newest first: one line each (when, what, meeting, who) and the fields in people's words;
    /// with `--json` one result record `{"changes": […], "count": N, "shown": N}`.
    @MainActor
    static func printChanges(_ changes: [BMLTChange], limit: Int, context: CommandContext) {
        context.result(JSONRecords.limited(changes, limit: limit, key: "changes", JSONRecords.change))
        context.output("")
        context.output("\(changes.count) change\(changes.count == 1 ? "" : "s")" + shownNote(changes.count, limit: limit))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let shown = Array(changes.prefix(limit))
        let heads = Columns.lines(shown.map { change in
            [change.date.map(formatter.string(from:)) ?? "?", FieldWords.changeType(change.type),
             "#\(change.meetingID.map(String.init) ?? "?")", (change.meetingName ?? change.before?.name ?? change.after?.name ?? "") + "  by \(change.userName ?? "?")"]
        })
        for (change, head) in zip(shown, heads) {
            context.output(head)
            let fields = FieldWords.fieldChanges(of: change)
            for field in fields.prefix(5) { context.output("      " + FieldWords.describe(field)) }
            if fields.count > 5 { context.output("      … (first 5 of \(fields.count) fields shown)") }
        }
    }
}
