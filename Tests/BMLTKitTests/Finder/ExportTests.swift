import Foundation
import Testing
@testable import BMLTKit

/// The TSML and iCalendar exports, checked by independent programs: Python's `json` and `zoneinfo` against Meeting
/// Guide's field rules, the `icalendar` package (a strict RFC 5545 parser) and `recurring_ical_events` (which expands
/// the RRULE through our VTIMEZONE: its occurrences must be BMLTKit's own), and against the real 4.1.0 server's TSML.
@Suite("Exports: Meeting Guide JSON (TSML) and iCalendar")
struct ExportTests {
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// Meetings with what exports must handle: zones with and without DST (and a half-hour one), a virtual and a
    /// hybrid meeting, text with commas, semicolons, newlines and long UTF-8, and three that must be skipped.
    static let meetings: [BMLTMeeting] = {
        var inPerson = BMLTMeeting(id: 11, serviceBodyID: 1002, name: "Hope, Faith; Love", weekday: .sunday,
                                   startTime: BMLTTimeOfDay(hour: 2, minute: 30), duration: 5400)
        inPerson.timeZone = newYork
        inPerson.street = "130 Jerusalem Avenue"; inPerson.municipality = "Hicksville"; inPerson.province = "NY"
        inPerson.postalCode = "11801"; inPerson.nation = "USA"; inPerson.locationText = "Holy Trinity"
        inPerson.coordinate = BMLTCoordinate(latitude: 40.763264, longitude: -73.524295)
        inPerson.comments = "Use the side door,\nupstairs; bring a book"
        inPerson.formats = [BMLTFormat(id: 1, key: "O", name: "Open", worldID: "OPEN"), BMLTFormat(id: 2, key: "Sp", name: "Speaker", worldID: "SPK"),
                            BMLTFormat(id: 3, key: "XX", name: "Unknown", worldID: "NOPE")]
        inPerson.formatKeys = ["O", "Sp", "XX"]; inPerson.formatIDs = [1, 2, 3]
        inPerson.serviceBodyName = "Nassau Area Service"
        var virtual = BMLTMeeting(id: 12, serviceBodyID: 1002, name: "Zoom-Meeting für Frühaufsteher — Über die Schritte und Traditionen, täglich 😀",
                                  weekday: .saturday, startTime: BMLTTimeOfDay(hour: 23, minute: 30), duration: 5400)
        virtual.venueType = .virtual
        virtual.virtualMeetingLink = "https://zoom.example/j/123456789?pwd=abc"
        virtual.virtualMeetingAdditionalInfo = "ID 123 456 789, passcode 12"
        virtual.phoneMeetingNumber = "+1 929 205 6099"
        virtual.timeZone = TimeZone(identifier: "Europe/Berlin")
        var hybrid = BMLTMeeting(id: 13, serviceBodyID: 1002, name: "Lord Howe Hybrid", weekday: .sunday,
                                 startTime: BMLTTimeOfDay(hour: 2, minute: 15), duration: 3600)
        hybrid.venueType = .hybrid
        hybrid.timeZone = TimeZone(identifier: "Australia/Lord_Howe")
        hybrid.street = "1 Lagoon Rd"; hybrid.municipality = "Lord Howe Island"; hybrid.virtualMeetingLink = "https://meet.example/x"
        var defaulted = BMLTMeeting(id: 14, serviceBodyID: 1002, name: "No zone", weekday: .wednesday,
                                    startTime: BMLTTimeOfDay(hour: 19))
        defaulted.coordinate = BMLTCoordinate(latitude: 40.7, longitude: -73.9)
        let noDay = BMLTMeeting(id: 21, serviceBodyID: 1002, name: "No day", startTime: BMLTTimeOfDay(hour: 19))
        let noTime = BMLTMeeting(id: 22, serviceBodyID: 1002, name: "No time", weekday: .monday)
        let nowhere = BMLTMeeting(id: 23, serviceBodyID: 1002, name: "Nowhere", weekday: .monday, startTime: BMLTTimeOfDay(hour: 19))
        return [inPerson, virtual, hybrid, defaulted, noDay, noTime, nowhere]
    }()

    static var hasPython: Bool { Python.isInstalled }
    static var hasICalendar: Bool { Python.has("icalendar", "recurring_ical_events") }

    static let tsmlChecker = """
    import json, re, sys
    from zoneinfo import ZoneInfo
    known = set("11 12x12 A ABSI AL AL-AN ASL B BA BE BI BRK C CAN CF D DB DD DR EN FF FR G GR H HE JA KOR L LGBTQ LIT LS M MED N NDG O ONL OUT P POA POC POL POR PUN RUS S SEN SM SP ST T TC TR W X XB XT Y".split())
    problems, slugs = [], set()
    for m in json.load(sys.stdin):
        name = m.get("name") or "?"
        for key in ("name", "slug", "day", "time", "timezone", "types"):
            if key not in m: problems.append(f"{name}: no {key}")
        if m.get("slug") in slugs: problems.append(f"{name}: slug repeated")
        slugs.add(m.get("slug"))
        if not re.fullmatch(r"[a-z0-9-]+", m.get("slug", "")): problems.append(f"{name}: bad slug")
        if not (isinstance(m.get("day"), int) and 0 <= m["day"] <= 6): problems.append(f"{name}: bad day")
        for key in ("time", "end_time"):
            if key in m and not re.fullmatch(r"([01][0-9]|2[0-3]):[0-5][0-9]", m[key]): problems.append(f"{name}: bad {key}")
        ZoneInfo(m["timezone"])
        if any(t not in known for t in m["types"]): problems.append(f"{name}: unknown types {m['types']}")
        if ("latitude" in m) != ("longitude" in m): problems.append(f"{name}: half a coordinate")
        if "latitude" in m and not (-90 <= m["latitude"] <= 90 and -180 <= m["longitude"] <= 180): problems.append(f"{name}: bad coordinate")
        if "conference_url" in m and not re.match(r"https?://", m["conference_url"]): problems.append(f"{name}: bad conference_url")
        if not ("latitude" in m or "address" in m or "city" in m or "conference_url" in m or "conference_phone" in m): problems.append(f"{name}: no place")
    print(json.dumps(problems))
    """

    @Test("TSML: Meeting Guide's field rules hold (checked in Python), skipped meetings are counted, not invented",
          .enabled(if: hasPython, "python3 is not installed"))
    func tsmlRules() async throws {
        let report = try BMLTExport.tsmlReport(Self.meetings, defaultTimeZone: Self.newYork, updated: [11: Date(timeIntervalSince1970: 1_767_225_600)])
        #expect(report.exportedIDs == [11, 12, 13, 14])
        #expect(report.skipped.map(\.meetingID) == [21, 22, 23])
        #expect(report.skipped.map(\.reason) == ["It has no weekday.", "It has no start time.",
                                                 "It has no place: no coordinates, address, virtual link or phone."])
        #expect(report.defaultedTimeZoneIDs == [14])
        let problems = try #require(await Python.run(Self.tsmlChecker, input: report.output), "the checker ran")
        #expect(String(decoding: problems, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let records = try #require(try JSONSerialization.jsonObject(with: report.output) as? [[String: Any]])
        let first = records[0]
        #expect(first["day"] as? Int == 0 && first["time"] as? String == "02:30" && first["end_time"] as? String == "04:00")
        #expect(first["timezone"] as? String == "America/New_York" && first["slug"] as? String == "hope-faith-love-11")
        #expect(first["types"] as? [String] == ["O", "SP"], "OPEN → O, SPK → SP, an unknown world id left out")
        #expect(first["formatted_address"] as? String == "130 Jerusalem Avenue, Hicksville, NY 11801, USA")
        #expect(first["region"] as? String == "Nassau Area Service" && first["updated"] as? String == "2026-01-01 00:00:00")
        let virtual = records[1]
        #expect(virtual["types"] as? [String] == ["ONL"] && virtual["conference_phone"] as? String == "+1 929 205 6099")
        #expect(virtual["end_time"] as? String == "01:00" && virtual["day"] as? Int == 6, "passes midnight: ends 01:00")
        #expect(records[3]["timezone"] as? String == "America/New_York", "no zone of its own: the default is written")
        #expect(records.allSatisfy { $0["updated"] == nil || $0["slug"] as? String == "hope-faith-love-11" }, "no invented dates")
    }

    @Test("TSML of the real 4.1.0 meetings agrees with the 4.1.0 server's own TSML of the same search, and adds the zone",
          .needsCorpus)
    func tsmlAgreesWithTheServer() throws {
        let formats = try WireFormat.decodeList(WireValue.parse(try FixtureCorpus.data(FixtureCorpus.server4x, "002-GetFormats.json"), what: .formats))
        let results = try WireSearchStream.decode(try FixtureCorpus.data(FixtureCorpus.server4x, "005-GetSearchResults-services-weekday.json"),
                                                  serverFormats: formats)
        let ours = try #require(try JSONSerialization.jsonObject(with: BMLTExport.tsml(results.meetings, defaultTimeZone: Self.newYork)) as? [[String: Any]])
        let server = try #require(try FixtureCorpus.raw(FixtureCorpus.server4x, "025-tsml-GetSearchResults-services-weekday.json") as? [[String: Any]])
        #expect(ours.count == server.count && ours.count == 8)
        let bySlug = Dictionary(uniqueKeysWithValues: ours.map { ($0["slug"] as? String ?? "", $0) })
        for theirs in server {
            let slug = try #require(theirs["slug"] as? String)
            let mine = try #require(bySlug[slug], "slug \(slug) (name and id, like the server's)")
            for key in ["day", "time", "end_time", "name", "location", "address", "city", "state", "postal_code", "country"] {
                let expected = theirs[key].flatMap { $0 is NSNull ? nil : "\($0)" }.flatMap { $0.isEmpty ? nil : $0 }
                #expect(mine[key].map { "\($0)" } == expected, "\(slug) \(key)")
            }
            let coordinates = (theirs["coordinates"] as? String)?.split(separator: ",").compactMap { Double($0) }
            #expect(coordinates == [mine["latitude"] as? Double, mine["longitude"] as? Double].compactMap { $0 }, "\(slug) coordinates")
            let serverTypes = Set((theirs["types"] as? [String] ?? []).map { ["DISC": "D", "SPK": "SP", "BEG": "BE", "STEP": "ST"][$0] ?? $0 })
            #expect(Set(mine["types"] as? [String] ?? []).isSubset(of: serverTypes.union(["LIT"])), "\(slug) types")
            #expect(mine["timezone"] as? String == "America/New_York")
        }
    }

    static let iCalendarChecker = """
    import json, sys
    from datetime import datetime, timezone
    import icalendar, recurring_ical_events
    raw = sys.stdin.buffer.read()
    lines = raw.split(b"\\r\\n")
    problems = []
    if not raw.endswith(b"\\r\\n"): problems.append("does not end with CRLF")
    if any(b"\\n" in line or b"\\r" in line for line in lines): problems.append("a bare line end")
    problems += [f"line of {len(l)} octets" for l in lines if len(l) > 75]
    cal = icalendar.Calendar.from_ical(raw)
    for key in ("VERSION", "PRODID"):
        if key not in cal: problems.append(f"no {key}")
    zones = {str(z["TZID"]) for z in cal.walk("VTIMEZONE")}
    events = {}
    for e in cal.walk("VEVENT"):
        for key in ("UID", "DTSTAMP", "DTSTART", "RRULE", "SUMMARY"):
            if key not in e: problems.append(f"event without {key}")
        if e["DTSTART"].params.get("TZID") not in zones: problems.append("DTSTART names no VTIMEZONE of the calendar")
        events[str(e["UID"])] = str(e["SUMMARY"])
    start = datetime.fromisoformat(sys.argv[1]); end = datetime.fromisoformat(sys.argv[2])
    occurrences = {}
    for o in recurring_ical_events.of(cal).between(start, end):
        occurrences.setdefault(str(o["UID"]), []).append(o["DTSTART"].dt.astimezone(timezone.utc).timestamp())
    print(json.dumps({"problems": problems, "summaries": events, "occurrences": {k: sorted(v) for k, v in occurrences.items()}}))
    """

    @Test("iCalendar: parsed by Python's icalendar, lines CRLF and ≤ 75 octets, and recurring_ical_events expands each RRULE through our VTIMEZONE to exactly BMLTKit's occurrences",
          .enabled(if: hasICalendar, "python3 with icalendar and recurring_ical_events is not installed (CI: pip install icalendar recurring-ical-events)"))
    func iCalendarValidates() async throws {
        let from = ISO8601DateFormatter().date(from: "2026-02-01T00:00:00Z")!, to = ISO8601DateFormatter().date(from: "2026-12-01T00:00:00Z")!
        let report = BMLTExport.iCalendarReport(Self.meetings, defaultTimeZone: Self.newYork, from: from, to: to, host: "bmlt.example.org",
                                                now: from)
        #expect(report.exportedIDs == [11, 12, 13, 14, 23], "a calendar entry needs no place")
        #expect(report.skipped.map(\.meetingID) == [21, 22])
        let output = try #require(await Python.run(Self.iCalendarChecker, input: Data(report.output.utf8),
                                             arguments: ["2026-02-01T00:00:00+00:00", "2026-12-01T00:00:00+00:00"]), "the checker ran")
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any], "\(String(decoding: output, as: UTF8.self))")
        #expect(result["problems"] as? [String] == [])
        let summaries = try #require(result["summaries"] as? [String: String])
        #expect(summaries["bmlt-meeting-11@bmlt.example.org"] == "Hope, Faith; Love", "escaping undone by the parser")
        #expect(summaries["bmlt-meeting-12@bmlt.example.org"] == Self.meetings[1].name, "folded UTF-8 joined back whole")
        let occurrences = try #require(result["occurrences"] as? [String: [Double]])
        for meeting in Self.meetings.prefix(4) {
            let expected = meeting.occurrences(from: from, to: to, defaultTimeZone: Self.newYork)
                .filter { $0.start >= from }.map(\.start.timeIntervalSince1970)
            #expect(occurrences["bmlt-meeting-\(meeting.id)@bmlt.example.org"] == expected, "meeting \(meeting.id)")
            #expect(expected.count > 35)
        }
    }

    @Test("folding never splits a character; escaping covers backslash, semicolon, comma and line ends")
    func foldingAndEscaping() {
        let line = "SUMMARY:" + String(repeating: "é", count: 60) + String(repeating: "😀", count: 10)
        let folded = BMLTExport.folded(line)
        let parts = folded.components(separatedBy: "\r\n")
        #expect(parts.count > 1 && parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(parts.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
        #expect(BMLTExport.escaped("a\\b;c,d\ne") == "a\\\\b\\;c\\,d\\ne")
        #expect(BMLTExport.duration(5400) == "PT1H30M" && BMLTExport.duration(3600) == "PT1H" && BMLTExport.duration(1800) == "PT30M")
    }
}
