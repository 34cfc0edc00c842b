import BMLTKit
import Foundation

/// `next` and `export`: what meeting finders do with a search — the meetings starting soonest, and the meetings
/// as Meeting Guide JSON or an iCalendar file.
enum FinderCommands {
    static let zoneOption: OptionSpec = .value("time-zone", "NAME",
                                                "the zone for meetings that name none (IANA, e.g. America/Chicago; default: this computer's)")

    static let next = Command(
        spec: CommandSpec("next", "the meetings in progress now and those starting soonest, in this computer's time",
                          options: SearchCommand.options + [zoneOption]),
        run: { context in
            let limit = try context.limit(default: 10)
            let zone = try defaultZone(context)
            let meetings = try await search(context)
            let now = Date()
            let upcoming = meetings.byNextOccurrence(after: now, defaultTimeZone: zone).filter { $0.occurrence != nil }
            let local = DateFormatter()
            local.locale = Locale(identifier: "en_US_POSIX")
            local.dateFormat = "EEE HH:mm"
            context.result(JSONRecords.limited(upcoming, limit: limit, key: "meetings") { entry in
                var record = JSONRecords.meeting(entry.meeting)
                record["start"] = entry.occurrence.map { ISO8601DateFormatter().string(from: $0.start) }
                record["end"] = entry.occurrence.map { ISO8601DateFormatter().string(from: $0.end) }
                record["inProgress"] = entry.occurrence.map { $0.start <= now }
                return record
            })
            context.output("")
            context.output("\(upcoming.count) meeting\(upcoming.count == 1 ? "" : "s") by when they next meet, in "
                           + "\(TimeZone.current.identifier) time" + shownNote(upcoming.count, limit: limit))
            let rows = upcoming.prefix(limit).map { entry -> [String] in
                let start = entry.occurrence!.start
                let when = start <= now ? "now (since \(local.string(from: start)))" : local.string(from: start)
                let minutes = Int(start.timeIntervalSince(now) / 60)
                let soon = start > now && minutes < 120 ? "in \(minutes) min" : ""
                return ["#\(entry.meeting.id)", when, soon, MeetingLine.text(entry.meeting)]
            }
            for line in Columns.lines(Array(rows), rightAligned: [0]) { context.output(line) }
        }
    )

    static let export = Command(
        spec: CommandSpec("export", "print the meetings a search finds as Meeting Guide JSON (tsml) or iCalendar (ics)",
                          options: SearchCommand.options + [zoneOption,
                                                            .value("weeks", "N", "ics: how many weeks of meetings, from today (default 12)")],
                          positionals: ["tsml|ics"]),
        run: { context in
            guard let kind = context.commandLine.positionals.first, ["tsml", "ics"].contains(kind) else {
                throw UsageError("export needs tsml or ics")
            }
            let zone = try defaultZone(context)
            var weeks = 12
            if let text = context.commandLine.value("weeks") {
                guard let value = Int(text), value > 0, value <= 520 else { throw UsageError("--weeks needs a whole number from 1 to 520") }
                weeks = value
            }
            let meetings = try await search(context)
            let exported: [Int], skipped: [BMLTExport.Skipped], defaulted: [Int]
            if kind == "tsml" {
                let report = try BMLTExport.tsmlReport(meetings, defaultTimeZone: zone)
                context.io.line(String(decoding: report.output, as: UTF8.self))
                (exported, skipped, defaulted) = (report.exportedIDs, report.skipped, report.defaultedTimeZoneIDs)
            } else {
                let start = Date()
                let host = context.connection.rootServerURL.host ?? "bmlt"
                let report = BMLTExport.iCalendarReport(meetings, defaultTimeZone: zone, from: start,
                                                        to: start.addingTimeInterval(Double(weeks) * 7 * 86_400), host: host)
                // Each line keeps its CR: the line writer adds the LF, so the file has RFC 5545's CRLF.
                for line in report.output.components(separatedBy: "\r\n").dropLast() { context.io.line(line + "\r") }
                (exported, skipped, defaulted) = (report.exportedIDs, report.skipped, report.defaultedTimeZoneIDs)
            }
            context.io.error("bmlt-observer: exported \(exported.count) meeting\(exported.count == 1 ? "" : "s")"
                             + zoneNote(defaulted.count, of: exported.count, zone: zone,
                                        chosen: context.commandLine.value("time-zone") != nil)
                             + (skipped.isEmpty ? "" : "; left out \(skipped.count): "
                                + skipped.prefix(5).map { "#\($0.meetingID) \($0.reason)" }.joined(separator: " ")
                                + (skipped.count > 5 ? " …" : "")) + "\n")
        }
    )

    /// "; N of them name no time zone: written in Z (…)" when the export used the default zone for any meeting.
    static func zoneNote(_ defaulted: Int, of exported: Int, zone: TimeZone, chosen: Bool) -> String {
        guard defaulted > 0 else { return "" }
        let source = chosen ? "from --time-zone" : "this computer's zone; --time-zone NAME chooses another"
        return "; \(defaulted == exported && exported > 1 ? "all \(defaulted)" : "\(defaulted)") of them name\(defaulted == 1 ? "s" : "")"
            + " no time zone: written in \(zone.identifier) (\(source))"
    }

    /// `--time-zone`, or this computer's zone.
    static func defaultZone(_ context: CommandContext) throws -> TimeZone {
        guard let name = context.commandLine.value("time-zone") else { return .current }
        guard let zone = TimeZone(identifier: name) else { throw UsageError("--time-zone needs an IANA name, e.g. America/Chicago") }
        return zone
    }

    /// Validates, then searches with the search flags (meetings only; the aggregator filter rule applies).
    @MainActor
    static func search(_ context: CommandContext) async throws -> [BMLTMeeting] {
        _ = try SearchCommand.criteria(from: context.commandLine)
        _ = try await context.connection.validate()
        let criteria = try SearchCommand.criteria(from: context.commandLine, formats: context.connection.server.formats)
        if context.connection.capabilities.contains(.aggregator), !criteria.satisfiesAggregatorFilterRule {
            throw UsageError(RootServersCommand.filterAdvice)
        }
        return try await context.connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
    }
}
