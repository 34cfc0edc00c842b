import Foundation

extension BMLTExport {
    /// Meeting Guide JSON (the TSML format read by the Meeting Guide app, tsml-ui and 12 Step Meeting List): an
    /// array with one object per meeting — `day` (0 = Sunday), `time` and `end_time` (`HH:MM`), `name`, a `slug`
    /// (stable: the name and the id), `timezone` (the meeting's own, else `defaultTimeZone`: BMLT's own TSML output
    /// has none), `types` (see `tsmlTypes(of:)`), the address fields, `latitude`/`longitude`, `conference_url`,
    /// `conference_phone` and their notes, `region` (the service body's name where known). Meetings without a
    /// weekday, a start time or any place are left out (see `tsmlReport(_:defaultTimeZone:updated:)`).
    /// ```swift
    /// let json = try BMLTExport.tsml(results.meetings, defaultTimeZone: .current)
    /// try json.write(to: URL(fileURLWithPath: "meetings.json"))
    /// ```
    public static func tsml(_ meetings: [BMLTMeeting], defaultTimeZone: TimeZone) throws -> Data {
        try tsmlReport(meetings, defaultTimeZone: defaultTimeZone).output
    }

    /// `tsml(_:defaultTimeZone:)` with what was left out and why. `updated` gives the date each meeting was last
    /// changed (from `connection.changes(…)`), written as Meeting Guide's `updated`; a meeting not in it has none.
    /// ```swift
    /// let report = try BMLTExport.tsmlReport(meetings, defaultTimeZone: .current)
    /// report.skipped.forEach { print("left out #\($0.meetingID): \($0.reason)") }
    /// ```
    public static func tsmlReport(_ meetings: [BMLTMeeting], defaultTimeZone: TimeZone,
                                  updated: [Int: Date] = [:]) throws -> Report<Data> {
        var records: [[String: Any]] = []
        var exported: [Int] = [], skipped: [Skipped] = [], defaulted: [Int] = []
        let updatedFormat = DateFormatter()
        updatedFormat.locale = Locale(identifier: "en_US_POSIX")
        updatedFormat.timeZone = TimeZone(identifier: "UTC")
        updatedFormat.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for meeting in meetings {
            if let skip = missingTime(meeting) { skipped.append(skip); continue }
            guard let record = tsmlRecord(meeting, defaultTimeZone: defaultTimeZone) else {
                skipped.append(Skipped(meetingID: meeting.id, reason: "It has no place: no coordinates, address, virtual link or phone."))
                continue
            }
            var object = record
            if let date = updated[meeting.id] { object["updated"] = updatedFormat.string(from: date) }
            records.append(object)
            exported.append(meeting.id)
            if meeting.timeZone == nil { defaulted.append(meeting.id) }
        }
        let data = try JSONSerialization.data(withJSONObject: records, options: [.sortedKeys, .withoutEscapingSlashes])
        return Report(output: data, exportedIDs: exported, skipped: skipped, defaultedTimeZoneIDs: defaulted)
    }

    /// One meeting's Meeting Guide object, or `nil` when it has no place at all.
    static func tsmlRecord(_ meeting: BMLTMeeting, defaultTimeZone: TimeZone) -> [String: Any]? {
        guard let weekday = meeting.weekday, let start = meeting.startTime else { return nil }
        let url = conferenceURL(meeting), phone = text(meeting.phoneMeetingNumber)
        let hasAddress = text(meeting.street) != nil || text(meeting.municipality) != nil
        guard meeting.placedCoordinate != nil || hasAddress || url != nil || phone != nil else { return nil }
        var object: [String: Any] = [
            "name": text(meeting.name) ?? "Meeting \(meeting.id)",
            "slug": slug(meeting),
            "day": weekday.rawValue - 1,
            "time": clock(start.secondsSinceMidnight),
            "end_time": clock(start.secondsSinceMidnight + Int(meeting.occurrenceLength)),
            "timezone": meeting.effectiveTimeZone(default: defaultTimeZone).identifier,
            "types": tsmlTypes(of: meeting),
        ]
        let optional: [String: String?] = [
            "location": text(meeting.locationText), "location_notes": text(meeting.locationInfo),
            "address": text(meeting.street), "city": text(meeting.municipality), "state": text(meeting.province),
            "postal_code": text(meeting.postalCode), "country": text(meeting.nation),
            "formatted_address": hasAddress ? address(meeting) : nil, "notes": text(meeting.comments),
            "conference_url": url, "conference_url_notes": url == nil ? nil : text(meeting.virtualMeetingAdditionalInfo),
            "conference_phone": phone, "region": text(meeting.serviceBodyName),
        ]
        for case let (key, value?) in optional { object[key] = value }
        if let coordinate = meeting.placedCoordinate {
            object["latitude"] = coordinate.latitude
            object["longitude"] = coordinate.longitude
        }
        return object
    }

    /// A stable, unique slug: the name in lower-case ASCII words joined by hyphens, then the meeting's id.
    static func slug(_ meeting: BMLTMeeting) -> String {
        let folded = meeting.name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let words = folded.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return (words.prefix(8).map(String.init) + [String(meeting.id)]).joined(separator: "-")
    }

    /// Meeting Guide type codes for a meeting: from each format's NA World Services id (`worldID`: OPEN → O,
    /// CLOSED → C, BEG → BE, DISC → D, SPK → SP, STEP → ST, TRAD → TR, MED → MED, M, W, Y, GL → LGBTQ,
    /// WCHR → X, CW → CF, CAN → CAN, SMOK → SM, BT/IW/JFT/LC/SWG/LIT → LIT, TC → TC), else from the key for the
    /// keys every server shares (O, C, WC, VM, TC); `ONL` for virtual and hybrid meetings. Formats with no Meeting
    /// Guide equivalent are left out. Sorted, without repeats.
    /// ```swift
    /// let types = BMLTExport.tsmlTypes(of: meeting)     // ["O", "ONL", "SP"]
    /// ```
    public static func tsmlTypes(of meeting: BMLTMeeting) -> [String] {
        var types = Set<String>()
        let worldIDs = Dictionary(meeting.formats.map { ($0.key, $0.worldID) }, uniquingKeysWith: { first, _ in first })
        for key in meeting.formatKeys {
            if let world = worldIDs[key].flatMap({ $0 }), let type = worldTypes[world.uppercased()] { types.insert(type) }
            else if let type = keyTypes[key] { types.insert(type) }
        }
        if meeting.venueType == .virtual || meeting.venueType == .hybrid { types.insert("ONL") }
        return types.sorted()
    }

    private static let worldTypes: [String: String] = [
        "OPEN": "O", "CLOSED": "C", "BEG": "BE", "DISC": "D", "SPK": "SP", "STEP": "ST", "TRAD": "TR", "MED": "MED",
        "M": "M", "W": "W", "Y": "Y", "GL": "LGBTQ", "WCHR": "X", "CW": "CF", "CAN": "CAN", "SMOK": "SM",
        "BT": "LIT", "IW": "LIT", "JFT": "LIT", "LC": "LIT", "SWG": "LIT", "LIT": "LIT", "TC": "TC", "VM": "ONL",
    ]
    private static let keyTypes: [String: String] = ["O": "O", "C": "C", "WC": "X", "VM": "ONL", "TC": "TC"]
}
