import BMLTKit
import Foundation

/// `watch` (repeat a search and print what changed between rounds) and `send-message` (to a meeting's contact).
enum WatchAndMessageCommands {
    static let watch = Command(
        spec: CommandSpec("watch", "repeat a search every N seconds and print meetings added, removed or changed",
                          options: SearchCommand.options + [
                              .value("interval", "SECONDS", "seconds between rounds (default 60)"),
                              .value("count", "N", "stop after N rounds (default: until interrupted)"),
                          ]),
        run: { context in
            let line = context.commandLine
            let criteria = try SearchCommand.criteria(from: line)
            guard let interval = Double(line.value("interval") ?? "60"), interval > 0 else {
                throw UsageError("--interval needs a number of seconds")
            }
            let rounds = try line.value("count").map { try SearchCommand.integer($0, "--count") } ?? .max
            var previous: [Int: BMLTMeeting]?
            for round in 0..<rounds {
                if round > 0 { try await Task.sleep(nanoseconds: UInt64(interval * 1e9)) }
                let meetings = try await context.connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
                let current = Dictionary(meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                context.output("")
                guard let before = previous else {
                    context.output("\(current.count) meetings; watching every \(Int(interval)) s")
                    previous = current
                    continue
                }
                let report = differences(from: before, to: current)
                context.output(report.isEmpty ? "no change" : report.joined(separator: "\n"))
                previous = current
            }
        }
    )

    /// One line per meeting added, removed or changed (with the fields that changed).
    static func differences(from before: [Int: BMLTMeeting], to after: [Int: BMLTMeeting]) -> [String] {
        var lines: [String] = []
        for id in after.keys.sorted() where before[id] == nil { lines.append("+ " + MeetingLine.describe(after[id]!)) }
        for id in before.keys.sorted() where after[id] == nil { lines.append("- " + MeetingLine.describe(before[id]!)) }
        for id in after.keys.sorted() {
            guard let old = before[id], let new = after[id], old != new else { continue }
            var draft = old.editable()
            draft.meeting = new
            let fields = draft.changes.map { "\($0.key): \($0.before ?? "—") → \($0.after ?? "—")" }
            lines.append("~ #\(id) \(new.name): " + (fields.isEmpty ? "changed" : fields.joined(separator: "; ")))
        }
        return lines
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
                throw BMLTError.notFound(message: "meeting \(text)")
            }
            try await context.connection.messageContact(of: meeting, from: from, body: body)
            context.output("")
            context.output("Sent to the contact of #\(meeting.id) \(meeting.name)")
        }
    )
}
