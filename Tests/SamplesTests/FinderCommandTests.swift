import BMLTKit
import Foundation
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// `next` and `export` against the demo server.
    @Suite("bmlt-observer next and export")
    @MainActor
    struct FinderCommandTests {
        @Test("next: meetings by when they next meet, the first starting no earlier than the rest, in progress marked; --json has start and end")
        func next() async throws {
            let before = Date()
            let run = await observe(["--json", "next", "--limit", "30", "--time-zone", "America/Chicago"])
            let after = Date()
            #expect(run.status == 0, "\(run.errors)")
            let result = try #require(run.result)
            let meetings = try #require(result["meetings"] as? [[String: Any]])
            #expect(meetings.count == 30 && (result["count"] as? Int ?? 0) > 300)
            let formatter = ISO8601DateFormatter()
            let starts = meetings.compactMap { ($0["start"] as? String).flatMap(formatter.date(from:)) }
            #expect(starts.count == 30 && starts == starts.sorted())
            for meeting in meetings {
                // The command's "now" lies between `before` and `after` (ISO 8601 drops the fraction of a second).
                let start = try #require((meeting["start"] as? String).flatMap(formatter.date(from:)))
                let end = try #require((meeting["end"] as? String).flatMap(formatter.date(from:)))
                #expect(end.addingTimeInterval(1) > before)
                if meeting["inProgress"] as? Bool == true { #expect(start <= after) } else { #expect(start.addingTimeInterval(1) > before) }
            }
            let text = await observe(["next", "--limit", "3"])
            #expect(text.status == 0 && text.lines.contains { $0.contains("by when they next meet") && $0.contains("(first 3 of") })
        }

        @Test("export tsml: a JSON array on stdout (notifications on stderr) that Meeting Guide readers take; left-out meetings said on stderr")
        func exportTSML() async throws {
            let run = await observe(["export", "tsml", "--weekday", "tue", "--time-zone", "America/Chicago"])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.lines.count == 1, "only the export on stdout")
            let records = try #require(try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [[String: Any]])
            #expect(!records.isEmpty && records.allSatisfy { $0["day"] as? Int == 2 && $0["timezone"] as? String == "America/Chicago" })
            #expect(run.errors.contains("searchMeetings") && run.errors.contains("exported \(records.count) meetings"))
            // The demo's meetings name no time zone: the export says so, and for how many.
            #expect(run.errors.contains("all \(records.count) of them name no time zone: written in America/Chicago (from --time-zone)"))
            let usage = await observe(["export", "pdf"])
            #expect(usage.status == 2 && usage.errors.contains("export needs tsml or ics"))
        }

        @Test("export ics: CRLF lines, one VEVENT per meeting, each weekly until the end of --weeks")
        func exportICS() async throws {
            let run = await observe(["export", "ics", "--service-body", "1002", "--weeks", "4"])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.lines.first == "BEGIN:VCALENDAR\r" && run.lines.last == "END:VCALENDAR\r")
            #expect(run.lines.allSatisfy { $0.hasSuffix("\r") && $0.utf8.count <= 76 })
            let events = run.lines.filter { $0 == "BEGIN:VEVENT\r" }.count
            #expect(events > 10 && run.lines.filter { $0.hasPrefix("RRULE:FREQ=WEEKLY;BYDAY=") }.count == events)
            #expect(run.errors.contains("exported \(events) meetings"))
        }

        @Test("--cache-policy needs --cache and one of the four policies")
        func cacheFlags() async {
            #expect(await observe(["--cache-policy", "network-only", "info"]).errors.contains("--cache-policy needs --cache DIR"))
            let bad = await observe(["--cache", FileManager.default.temporaryDirectory.path, "--cache-policy", "sometimes", "info"])
            #expect(bad.status == 2 && bad.errors.contains("--cache-policy needs network-else-cache"))
        }
    }
}
