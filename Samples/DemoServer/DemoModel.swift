import Foundation

/// One format, with its translations keyed by language (`en`, `es`).
struct DemoFormat: Sendable {
    struct Translation: Sendable {
        var key: String
        var name: String
        var description: String
    }

    var id: Int
    var worldID: String
    /// The semantic `format_type_enum` code: FC1, FC2, FC3, O or LANG.
    var typeCode: String
    var translations: [String: Translation]

    /// The REST `type` name for `typeCode`.
    var restType: String? {
        switch typeCode {
        case "FC1": return "MEETING_FORMAT"
        case "FC2": return "LOCATION"
        case "FC3": return "COMMON_NEEDS_OR_RESTRICTION"
        case "O": return "OPEN_OR_CLOSED"
        case "LANG": return "LANGUAGE"
        default: return nil
        }
    }

    func translation(_ lang: String) -> Translation? { translations[lang] ?? translations["en"] }
}

/// One service body of the demo tree.
struct DemoServiceBody: Sendable {
    var id: Int
    var parentID: Int
    var name: String
    var description: String
    var type: String
    var url: String
    var helpline: String
    var worldID: String
    var adminUserID: Int
    var assignedUserIDs: [Int]
}

/// One user of the REST admin API.
struct DemoUser: Sendable {
    var id: Int
    var username: String
    /// admin, serviceBodyAdmin, observer or deactivated.
    var type: String
    var displayName: String
    var description: String
    var email: String
    var ownerID: Int?
    /// nil = cannot log in.
    var password: String?
}

/// One meeting, stored with real types; the renderers turn it into the semantic (all strings) or REST shape.
struct DemoMeeting: Sendable {
    var id: Int
    var worldID: String = ""
    var serviceBodyID: Int
    /// 1 = Sunday … 7 = Saturday.
    var weekday: Int
    /// 1 in person, 2 virtual, 3 hybrid.
    var venueType: Int
    var startMinutes: Int
    var durationMinutes: Int
    var timeZone: String = ""
    /// Format ids in stored order (the order their keys appear in `formats`).
    var formatIDs: [Int]
    var lang: String = "en"
    var latitude: Double
    var longitude: Double
    var published: Bool = true
    var email: String = ""
    /// Data-field values by key (see `DemoFields.dataKeys`); missing = empty.
    var fields: [String: String] = [:]

    subscript(field key: String) -> String {
        get { fields[key] ?? "" }
        set { fields[key] = newValue.isEmpty ? nil : newValue }
    }

    var name: String { self[field: "meeting_name"] }
    var endMinutes: Int { startMinutes + durationMinutes }
}

/// One change record (GetChanges / REST `meetings/{id}/changes`).
struct DemoChange: Sendable {
    /// comdef_change_type_new, _change, _delete or _rollback without the prefix.
    enum Kind: String, Sendable { case new, change, delete, rollback }

    var id: Int
    var date: Date
    var kind: Kind
    var meetingID: Int
    var userID: Int
    var serviceBodyID: Int
    var before: DemoMeeting?
    var after: DemoMeeting?
}

/// The whole mutable data set of the demo server.
struct DemoDataSet: Sendable {
    var formats: [DemoFormat]
    var serviceBodies: [DemoServiceBody]
    var users: [DemoUser]
    /// Live meetings by id.
    var meetings: [Int: DemoMeeting]
    /// Deleted meetings by id (still listed by GetChanges and the NAWS dump).
    var deletedMeetings: [Int: DemoMeeting]
    var changes: [DemoChange]
    var nextMeetingID: Int
    var nextChangeID: Int

    var sortedMeetings: [DemoMeeting] { meetings.values.sorted { $0.id < $1.id } }

    func format(_ id: Int) -> DemoFormat? { formats.first { $0.id == id } }
    func serviceBody(_ id: Int) -> DemoServiceBody? { serviceBodies.first { $0.id == id } }
    func user(_ id: Int) -> DemoUser? { users.first { $0.id == id } }

    /// `ids` and all their descendants.
    func withDescendants(_ ids: Set<Int>) -> Set<Int> {
        var result = ids
        var grew = true
        while grew {
            grew = false
            for body in serviceBodies where result.contains(body.parentID) && !result.contains(body.id) {
                result.insert(body.id)
                grew = true
            }
        }
        return result
    }

    /// `ids` and all their ancestors.
    func withAncestors(_ ids: Set<Int>) -> Set<Int> {
        var result = ids
        for id in ids {
            var current = serviceBody(id)?.parentID ?? 0
            var guardCount = 0
            while current != 0, guardCount < 64, let body = serviceBody(current) {
                result.insert(body.id)
                current = body.parentID
                guardCount += 1
            }
        }
        return result
    }
}

/// The field templates: keys, prompts and visibility, in template order.
enum DemoFields {
    /// Keys of the main (non-template) meeting columns as GetFieldKeys lists them.
    static let mainKeys: [(String, String)] = [
        ("id_bigint", "ID"), ("worldid_mixed", "World ID"), ("service_body_bigint", "Service Body ID"),
        ("weekday_tinyint", "Weekday"), ("venue_type", "Venue Type"), ("start_time", "Start Time"),
        ("duration_time", "Duration"), ("time_zone", "Time Zone"), ("formats", "Formats"), ("lang_enum", "Language"),
        ("longitude", "Longitude"), ("latitude", "Latitude"),
    ]

    /// Data-template fields in template order, with prompt and whether they are hidden from anonymous readers.
    static let dataFields: [(key: String, prompt: String, hidden: Bool)] = [
        ("meeting_name", "Meeting Name", false), ("location_text", "Location Name", false),
        ("location_info", "Additional Location Information", false), ("location_street", "Street Address", false),
        ("location_city_subsection", "Borough", false), ("location_neighborhood", "Neighborhood", false),
        ("location_municipality", "Town", false), ("location_sub_province", "County", false),
        ("location_province", "State", false), ("location_postal_code_1", "Zip Code", false),
        ("location_nation", "Nation", false), ("comments", "Comments", false), ("zone", "Zone", false),
        ("train_lines", "Train Lines", false), ("bus_lines", "Bus Lines", false),
        ("contact_phone_2", "Contact 2 Phone", true), ("contact_email_2", "Contact 2 Email", true),
        ("contact_name_2", "Contact 2 Name", true), ("contact_phone_1", "Contact 1 Phone", true),
        ("contact_email_1", "Contact 1 Email", true), ("contact_name_1", "Contact 1 Name", true),
        ("phone_meeting_number", "Phone Meeting Dial-in Number", false),
        ("virtual_meeting_link", "Virtual Meeting Link", false),
        ("virtual_meeting_additional_info", "Virtual Meeting Additional Info", false),
    ]

    static let dataKeys: [String] = dataFields.map(\.key)
    /// Fields the REST API puts under `customFields` (the demo's only custom field, like the real sample data).
    static let customKeys: Set<String> = ["zone"]
    static let visibleKeys: [(String, String)] = mainKeys + dataFields.filter { !$0.hidden }.map { ($0.key, $0.prompt) }

    static func prompt(_ key: String) -> String {
        (mainKeys.first { $0.0 == key }?.1) ?? (dataFields.first { $0.key == key }?.prompt) ?? key
    }
}

/// Time and number text helpers shared by the renderers.
enum DemoText {
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// "HH:MM:SS".
    static func hms(_ minutes: Int) -> String { String(format: "%02d:%02d:00", minutes / 60, minutes % 60) }
    /// "HH:MM".
    static func hm(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    /// Parses "H:MM", "HH:MM" or "HH:MM:SS" into minutes.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]),
              (0...24).contains(h), (0...59).contains(m) else { return nil }
        return h * 60 + m
    }

    /// Coordinates as the server prints them: shortest decimal text.
    static func coordinate(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The `g:i A, n/j/Y` date text of the change records (UTC).
    static func changeDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let hour12 = (c.hour! + 11) % 12 + 1
        let minute = String(format: "%02d", c.minute!)
        return "\(hour12):\(minute) \(c.hour! < 12 ? "AM" : "PM"), \(c.month!)/\(c.day!)/\(c.year!)"
    }
}
