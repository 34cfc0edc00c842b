@testable import BMLTKit
@testable import BMLTDemoServer
import Foundation
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// `bmlt-observer meeting ID` on the demo server's joining examples (`DemoJoinExamples`).
    @Suite("bmlt-observer meeting")
    @MainActor
    struct MeetingCommandTests {
        /// The demo meetings the examples went to, in the order `DemoJoinExamples.examples` lists them.
        static let ids = DemoJoinExamples.ids(in: DemoData.make().meetings.filter { !DemoData.deletedIDs.contains($0.key) })

        static func meeting(_ run: ObserverRun) throws -> [String: Any] {
            try #require(run.result?["meeting"] as? [String: Any])
        }

        @Test("--json: the Zoom vanity example carries its https link, ID, passcode, app link, tel: link and weekly slot; no directions")
        func zoomJSON() async throws {
            try #require(Self.ids.count == DemoJoinExamples.examples.count)
            let run = await observe(["--json", "meeting", "\(Self.ids[0])", "--time-zone", "America/Chicago", "--local-time-zone", "Europe/London"])
            #expect(run.status == 0, "\(run.errors)")
            let record = try Self.meeting(run)
            #expect(record["id"] as? Int == Self.ids[0])
            let join = try #require(record["virtualMeeting"] as? [String: Any])
            #expect(join["link"] as? String == "https://stonebridge-na.zoom.us/j/85212345678?pwd=dEmO1bMlTkIt2")
            #expect(join["service"] as? String == "zoom")
            #expect(join["meetingID"] as? String == "85212345678")
            #expect(join["passcode"] as? String == "246810")
            #expect(join["appURL"] as? String == "zoomus://stonebridge-na.zoom.us/join?confno=85212345678&pwd=dEmO1bMlTkIt2")
            #expect(join["desktopAppURL"] as? String == "zoommtg://stonebridge-na.zoom.us/join?action=join&confno=85212345678&pwd=dEmO1bMlTkIt2")
            let phone = try #require(record["dialIn"] as? [String: Any])
            #expect(phone["number"] as? String == "+16125550142")
            #expect(phone["url"] as? String == "tel:+16125550142,,85212345678%23,,,,*246810%23")
            #expect(record["directions"] == nil, "a virtual meeting has no directions")
            // The weekly slot is the library's, for the meeting's weekday and time seen from London.
            let slot = try #require(record["weeklySlot"] as? [String: Any])
            var meeting = BMLTMeeting(id: 1, serviceBodyID: 1, weekday: BMLTWeekday(rawValue: record["weekdayNumber"] as? Int ?? 0))
            let clock = (record["startTime"] as? String ?? "").split(separator: ":").compactMap { Int($0) }
            meeting.startTime = clock.count == 2 ? BMLTTimeOfDay(hour: clock[0], minute: clock[1]) : nil
            meeting.timeZone = (record["timeZone"] as? String).flatMap(TimeZone.init(identifier:))
            let expected = try #require(meeting.weeklySlot(in: TimeZone(identifier: "Europe/London")!,
                                                           defaultTimeZone: TimeZone(identifier: "America/Chicago")!))
            #expect(slot["weekday"] as? String == expected.weekday.name)
            #expect(slot["startTime"] as? String == FieldWords.clock(expected.startTime))
            #expect(slot["timeZone"] as? String == "Europe/London")
        }

        @Test("--json: the Webex hybrid has directions to its coordinate and an address; Meet, Teams, French Zoom dial their codes")
        func otherServices() async throws {
            let hybrid = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[5])"]))
            let join = try #require(hybrid["virtualMeeting"] as? [String: Any])
            #expect(join["service"] as? String == "webex" && join["passcode"] as? String == "Esperanza")
            #expect(join["meetingID"] as? String == "23456789012" && join["appURL"] == nil)
            #expect((hybrid["dialIn"] as? [String: Any])?["number"] as? String == "+525555550134")
            let directions = try #require(hybrid["directions"] as? [String: Any])
            let latitude = try #require(hybrid["latitude"] as? Double), longitude = try #require(hybrid["longitude"] as? Double)
            #expect(directions["appleMaps"] as? String == "https://maps.apple.com/?daddr=\(BMLTMeeting.degrees(latitude)),\(BMLTMeeting.degrees(longitude))")
            #expect((directions["geo"] as? String)?.hasPrefix("geo:\(BMLTMeeting.degrees(latitude)),") == true)
            #expect((hybrid["addressText"] as? String)?.hasSuffix(", Demoland") == true)

            let meet = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[1])"]))
            #expect((meet["virtualMeeting"] as? [String: Any])?["meetingID"] as? String == "dmo-bmlt-kit")
            #expect((meet["dialIn"] as? [String: Any])?["url"] as? String == "tel:+12605550100,,123456789%23")
            let teams = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[2])"]))
            #expect((teams["virtualMeeting"] as? [String: Any])?["service"] as? String == "microsoftTeams")
            #expect((teams["dialIn"] as? [String: Any])?["url"] as? String == "tel:+13235550123,,987654321%23")
            let french = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[3])"]))
            #expect((french["virtualMeeting"] as? [String: Any])?["link"] as? String == "https://zoom.us/j/81234567890")
            #expect((french["dialIn"] as? [String: Any])?["url"] as? String == "tel:+442079460958,,81234567890%23,,,,*97531%23")
            let tollFree = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[6])"]))
            #expect((tollFree["virtualMeeting"] as? [String: Any])?["link"] as? String == "https://us02web.zoom.us/j/91234567890")
            #expect((tollFree["dialIn"] as? [String: Any])?["url"] as? String == "tel:+18005550199,,12,,91234567890%23,,,,*1357%23")
        }

        @Test("the junk example: no join link and no dial-in in --json; the text says the fields hold nothing usable")
        func junk() async throws {
            let record = try Self.meeting(await observe(["--json", "meeting", "\(Self.ids[4])"]))
            #expect(record["virtualMeeting"] == nil && record["dialIn"] == nil)
            #expect(record["virtualMeetingLink"] as? String == "javascript:alert('not a link')", "the raw field is still shown as it is")
            let text = await observe(["meeting", "\(Self.ids[4])"])
            #expect(text.status == 0, "\(text.errors)")
            #expect(text.lines.contains { $0.hasPrefix("  join") && $0.contains("none usable") })
            #expect(text.lines.contains { $0.hasPrefix("  dial-in") && $0.contains("none usable") })
        }

        @Test("text: one row per item, the weekly slot in the local zone given")
        func text() async throws {
            let run = await observe(["meeting", "\(Self.ids[0])", "--local-time-zone", "Asia/Tokyo"])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.lines.contains("#\(Self.ids[0]) " + (run.lines.first { $0.hasPrefix("#") }?.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "")))
            for label in ["when", "your time", "venue", "join", "meeting ID", "passcode", "app link", "desktop app", "dial-in", "tap to dial"] {
                #expect(run.lines.contains { $0.hasPrefix("  " + label + " ") }, "no \(label) row")
            }
            #expect(run.lines.contains { $0.hasPrefix("  your time") && $0.contains("Asia/Tokyo") })
            #expect(!run.lines.contains { $0.hasPrefix("  directions") })
        }

        @Test("errors: a meeting that is not there (exit 1), and an ID that is no number (exit 2)")
        func errors() async {
            let missing = await observe(["meeting", "\(DemoData.deletedIDs[0])"])
            #expect(missing.status == 1 && missing.errors.contains("There is no published meeting \(DemoData.deletedIDs[0])"))
            let usage = await observe(["meeting", "twelve"])
            #expect(usage.status == 2 && usage.errors.contains("meeting needs a whole number above 0"))
            let zone = await observe(["meeting", "1", "--local-time-zone", "Mars/Olympus"])
            #expect(zone.status == 2 && zone.errors.contains("--local-time-zone needs an IANA name"))
        }
    }
}
