import Foundation

extension BMLTExport {
    /// RFC 5545 iCalendar text: `VERSION:2.0`, a `PRODID`, a `VTIMEZONE` for each zone used (its offsets and
    /// changes over the range, from the system's time-zone data), and one `VEVENT` per meeting that meets in the
    /// range — `UID` (`bmlt-meeting-<id>@<host>`, stable), `DTSTAMP`, `DTSTART;TZID=…` (the first occurrence from
    /// `from` on, in the meeting's own zone or `defaultTimeZone`), `DURATION`, a weekly `RRULE` ending at `to`,
    /// `SUMMARY`, `LOCATION`, `GEO`, `URL` (the virtual link) and a `DESCRIPTION` (comments, virtual details,
    /// phone). Lines end in CRLF and are folded at 75 octets, never inside a UTF-8 sequence. Meetings without a
    /// weekday or start time are left out (see `iCalendarReport(_:defaultTimeZone:from:to:host:)`).
    /// ```swift
    /// let text = BMLTExport.iCalendar(meetings, defaultTimeZone: .current, from: .now,
    ///                                 to: .now.addingTimeInterval(90 * 86_400))
    /// ```
    public static func iCalendar(_ meetings: [BMLTMeeting], defaultTimeZone: TimeZone, from: Date, to: Date) -> String {
        iCalendarReport(meetings, defaultTimeZone: defaultTimeZone, from: from, to: to).output
    }

    /// `iCalendar(_:defaultTimeZone:from:to:)` with what was left out and why. `host` goes into each `UID` (use the
    /// root server's host so two servers' meeting 12 stay apart); `now` is the `DTSTAMP`.
    /// ```swift
    /// let report = BMLTExport.iCalendarReport(meetings, defaultTimeZone: .current, from: start, to: end, host: "bmlt.example.org")
    /// ```
    public static func iCalendarReport(_ meetings: [BMLTMeeting], defaultTimeZone: TimeZone, from: Date, to: Date,
                                       host: String = "bmltkit.invalid", now: Date = Date()) -> Report<String> {
        var events: [[String]] = [], zones: [String: TimeZone] = [:]
        var exported: [Int] = [], skipped: [Skipped] = [], defaulted: [Int] = []
        for meeting in meetings {
            if let skip = missingTime(meeting) { skipped.append(skip); continue }
            let zone = meeting.effectiveTimeZone(default: defaultTimeZone)
            guard let first = meeting.nextOccurrence(after: from, defaultTimeZone: defaultTimeZone), first.start < to else {
                skipped.append(Skipped(meetingID: meeting.id, reason: "It does not meet between the dates given."))
                continue
            }
            zones[zone.identifier] = zone
            events.append(event(meeting, first: first, zone: zone, until: to, host: host, now: now))
            exported.append(meeting.id)
            if meeting.timeZone == nil { defaulted.append(meeting.id) }
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//BMLTKit//BMLTKit \(BMLTKitVersion.current)//EN",
                     "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
        for identifier in zones.keys.sorted() {
            lines += ICalendarZone(zone: zones[identifier]!).lines(from: from.addingTimeInterval(-366 * 86_400), to: to)
        }
        lines += events.flatMap { $0 }
        lines.append("END:VCALENDAR")
        let text = lines.map(folded).joined(separator: "\r\n") + "\r\n"
        return Report(output: text, exportedIDs: exported, skipped: skipped, defaultedTimeZoneIDs: defaulted)
    }

    /// One meeting's `VEVENT`.
    static func event(_ meeting: BMLTMeeting, first: DateInterval, zone: TimeZone, until: Date, host: String, now: Date) -> [String] {
        let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        var lines = ["BEGIN:VEVENT", "UID:bmlt-meeting-\(meeting.id)@\(host)", "DTSTAMP:\(ICalendarZone.utcStamp(now))",
                     "DTSTART;TZID=\(zone.identifier):\(ICalendarZone.localStamp(first.start, in: zone))",
                     "DURATION:\(duration(first.duration))",
                     "RRULE:FREQ=WEEKLY;BYDAY=\(days[meeting.weekday!.rawValue - 1]);UNTIL=\(ICalendarZone.utcStamp(until))",
                     "SUMMARY:\(escaped(text(meeting.name) ?? "Meeting \(meeting.id)"))"]
        let place = [text(meeting.locationText), address(meeting)].compactMap { $0 }.joined(separator: ", ")
        if !place.isEmpty { lines.append("LOCATION:\(escaped(place))") }
        if let coordinate = meeting.placedCoordinate {      // 0,0 is "not geocoded": no GEO
            lines.append(String(format: "GEO:%.6f;%.6f", coordinate.latitude, coordinate.longitude))
        }
        if let url = conferenceURL(meeting) { lines.append("URL:\(url)") }
        let details = [text(meeting.comments), text(meeting.locationInfo), text(meeting.virtualMeetingLink),
                       text(meeting.virtualMeetingAdditionalInfo), text(meeting.phoneMeetingNumber).map { "Phone: \($0)" },
                       meeting.formatKeys.isEmpty ? nil : "Formats: " + meeting.formatKeys.joined(separator: ", ")].compactMap { $0 }
        if !details.isEmpty { lines.append("DESCRIPTION:\(escaped(details.joined(separator: "\n")))") }
        lines.append("END:VEVENT")
        return lines
    }

    /// An RFC 5545 duration: `PT1H30M`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = WireTime.wholeSeconds(seconds), hours = total / 3600, minutes = total % 3600 / 60
        return "PT" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 || hours == 0 ? "\(minutes)M" : "")
    }

    /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line ends.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A content line folded at 75 octets (continuation lines start with a space), never inside a character.
    static func folded(_ line: String) -> String {
        var lines: [String] = [], current = "", octets = 0, limit = 75
        for character in line {
            let size = String(character).utf8.count
            if octets + size > limit {
                lines.append(current)
                current = " "
                octets = 1
                limit = 75
            }
            current.append(character)
            octets += size
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }
}
