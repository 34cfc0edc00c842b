import BMLTKit
import Foundation

/// `watch` (repeat a search and print what changed between rounds) and `send-message` (to a meeting's contact).
enum WatchAndMessageCommands {
    static let watch = Command(
        spec: CommandSpec("watch", "repeat a search every N seconds and print only the meetings added, removed or changed (Ctrl-C stops)",
                          options: SearchCommand.options + [
                              .value("interval", "SECONDS", "seconds between rounds (default 60, at most 86400)"),
                              .value("count", "N", "stop after N rounds (default: until Ctrl-C)"),
                              .value("heartbeat", "N", "a quiet line on stderr after N rounds without change (default 10; 0: never)"),
                          ]),
        run: { context in
            let line = context.commandLine
            _ = try SearchCommand.criteria(from: line)
            // At most a day between rounds (`--interval inf` would trap converting to nanoseconds).
            guard let interval = Double(line.value("interval") ?? "60"), interval > 0, interval <= 86_400 else {
                throw UsageError("--interval needs a number of seconds, at most 86400")
            }
            let rounds = try line.value("count").map { try SearchCommand.integer($0, "--count") } ?? .max
            let heartbeat = try SearchCommand.integer(line.value("heartbeat") ?? "10", "--heartbeat")
            _ = try await context.connection.validate()
            let criteria = try SearchCommand.criteria(from: line, formats: context.connection.server.formats)
            var previous: [Int: BMLTMeeting]?
            var list: BMLTSearchResults?
            var quietRounds = 0
            for round in 0..<rounds {
                if round > 0 { try await Task.sleep(nanoseconds: UInt64(interval * 1e9)) }
                // After the first complete list, each round brings it up to date from the server's change log (a few
                // kilobytes), or downloads it whole where the log cannot answer; one line on stderr says which.
                let results: BMLTSearchResults
                if let last = list {
                    results = try await context.connection.meetings(matching: criteria, extent: .meetingsOnly, updating: last)
                    context.note(refreshLine(results.delta))
                } else {
                    results = try await context.connection.meetings(matching: criteria, extent: .meetingsOnly)
                }
                list = results
                let meetings = results.meetings
                let current = Dictionary(meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                defer { previous = current }
                guard let before = previous else {
                    context.note("watching \(current.count) meetings every \(ErrorWords.number(interval)) s; "
                                 + "only changes are printed. Press Ctrl-C to stop.")
                    continue
                }
                let report = differences(from: before, to: current)
                guard !report.isEmpty else {
                    quietRounds += 1
                    if heartbeat > 0, quietRounds % heartbeat == 0 {
                        context.note("· \(quietRounds) rounds without change, \(current.count) meetings (Ctrl-C to stop)")
                    }
                    continue
                }
                quietRounds = 0
                context.result(record(from: before, to: current, unit: context.distanceUnit))
                context.output("")
                for text in report { context.output(text) }
            }
        }
    )

    /// What a round's refresh did, in one line: the counts read from the change log, or that the list was
    /// downloaded whole (`--verbose` shows the library's reason).
    static func refreshLine(_ delta: BMLTSearchDelta?) -> String {
        guard let delta else { return "· downloaded whole (--verbose says why)" }
        return "· from the change log: \(delta.added.count) added, \(delta.changed.count) changed, \(delta.removed.count) removed"
    }

    /// One line per meeting added, removed or changed (with the fields that changed, in people's words).
    static func differences(from before: [Int: BMLTMeeting], to after: [Int: BMLTMeeting]) -> [String] {
        var lines: [String] = []
        for id in after.keys.sorted() where before[id] == nil { lines.append("+ " + MeetingLine.describe(after[id]!)) }
        for id in before.keys.sorted() where after[id] == nil { lines.append("- " + MeetingLine.describe(before[id]!)) }
        for id in after.keys.sorted() {
            guard let old = before[id], let new = after[id], old != new else { continue }
            let fields = fieldChanges(old, new).map(FieldWords.describe)
            lines.append("~ #\(id) \(new.name): " + (fields.isEmpty ? "changed" : fields.joined(separator: "; ")))
        }
        return lines
    }

    /// The `--json` record of one round's differences: `added` and `removed` meetings, `changed` with fields.
    static func record(from before: [Int: BMLTMeeting], to after: [Int: BMLTMeeting], unit: BMLTDistanceUnit?) -> [String: Any] {
        let added = after.keys.sorted().filter { before[$0] == nil }.map { JSONRecords.meeting(after[$0]!, unit: unit) }
        let removed = before.keys.sorted().filter { after[$0] == nil }.map { JSONRecords.meeting(before[$0]!, unit: unit) }
        let changed = after.keys.sorted().compactMap { id -> [String: Any]? in
            guard let old = before[id], let new = after[id], old != new else { return nil }
            return ["meeting": JSONRecords.meeting(new, unit: unit), "fields": fieldChanges(old, new).map(JSONRecords.fieldChange)]
        }
        return ["added": added, "removed": removed, "changed": changed]
    }

    private static func fieldChanges(_ old: BMLTMeeting, _ new: BMLTMeeting) -> [BMLTFieldChange] {
        var draft = old.editable()
        draft.meeting = new
        return FieldWords.readable(draft.changes)
    }

    static let sendMessage = Command(
        spec: CommandSpec("send-message", "send a message to a meeting's contact through the server", options: [
            .value("from", "EMAIL", "your email address (required)"), .value("body", "TEXT", "the message (required)"),
        ], positionals: ["MEETING_ID"]),
        run: { context in
            let line = context.commandLine
            guard let text = line.positionals.first else { throw UsageError("send-message needs a MEETING_ID") }
            guard let from = line.value("from"), let body = line.value("body") else {
                throw UsageError("send-message needs --from EMAIL and --body TEXT")
            }
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = [try SearchCommand.integer(text, "MEETING_ID")]
            _ = try await context.connection.validate()
            guard let meeting = try await context.connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first else {
                throw CLIFailure("The server has no published meeting \(text).")
            }
            try await context.connection.sendMessageAndWait(toContactOf: meeting, from: from, body: body)
            context.output("")
            context.output("Sent to the contact of #\(meeting.id) \(meeting.name)")
            context.result(["sent": true, "meetingID": meeting.id])
        }
    )
}
