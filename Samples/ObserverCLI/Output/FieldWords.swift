import BMLTKit
import Foundation

/// Meeting fields and their values in people's words: `day: Thursday → Wednesday`, `start: 19:00 → 19:30`,
/// `venue: in-person → hybrid`, rather than the wire's `weekday_tinyint: 5 → 4`.
enum FieldWords {
    /// `19:30`.
    /// `HH:MM`, or `HH:MM:SS` for a time that has seconds.
    static func clock(_ time: BMLTTimeOfDay) -> String {
        BMLTTimeOfDay.twoDigits(time.hour) + ":" + BMLTTimeOfDay.twoDigits(time.minute)
            + (time.second == 0 ? "" : ":" + BMLTTimeOfDay.twoDigits(time.second))
    }

    static func venue(_ type: BMLTVenueType) -> String {
        switch type {
        case .inPerson: return "in-person"
        case .virtual: return "virtual"
        case .hybrid: return "hybrid"
        }
    }

    static func level(_ level: BMLTPermissionLevel) -> String {
        switch level {
        case .observer: return "observer"
        case .meetingListEditor: return "meeting list editor"
        case .serviceBodyAdministrator: return "service body administrator"
        }
    }

    /// `created`, `edited`, `deleted`, `rolledback`, … (the server's name without its prefix).
    static func changeType(_ type: BMLTChangeType) -> String {
        type.rawValue.replacingOccurrences(of: "comdef_change_type_", with: "")
    }

    private static let labels: [String: String] = [
        "meeting_name": "name", "weekday_tinyint": "day", "start_time": "start", "duration_time": "duration",
        "venue_type": "venue", "published": "published", "formats": "formats", "format_shared_id_list": "format ids",
        "service_body_bigint": "service body", "time_zone": "time zone", "lang_enum": "language",
        "location_text": "place", "location_street": "street", "location_municipality": "town",
        "location_postal_code_1": "postal code", "location_sub_province": "county", "location_province": "state",
        "location_nation": "country", "location_info": "location notes", "worldid_mixed": "world id",
        "virtual_meeting_link": "virtual link", "phone_meeting_number": "phone number",
        "virtual_meeting_additional_info": "virtual notes", "email_contact": "contact email",
        "shared_group_id_bigint": "shared group",
    ]

    /// The field's name in words (`weekday_tinyint` → `day`); unknown keys lose `location_` and underscores.
    static func label(_ key: String) -> String {
        if let label = labels[key] { return label }
        let trimmed = key.hasPrefix("location_") ? String(key.dropFirst(9)) : key
        return trimmed.replacingOccurrences(of: "_", with: " ")
    }

    /// A wire value in words: weekday numbers become day names, `HH:MM:00` becomes `HH:MM` (seconds shown only when a
    /// time has some), `1`/`0` yes/no, ….
    static func value(_ text: String?, key: String) -> String {
        guard let text, !text.isEmpty else { return "—" }
        switch key {
        case "weekday_tinyint":
            return Int(text).flatMap(BMLTWeekday.init(rawValue:))?.name ?? text
        case "start_time":
            return text.hasSuffix(":00") && text.count == 8 ? String(text.prefix(5)) : text
        case "duration_time":
            let parts = text.split(separator: ":").compactMap { Int($0) }
            guard parts.count >= 2 else { return text }
            let minutes = parts[0] * 60 + parts[1]
            return minutes % 60 == 0 ? "\(minutes / 60) h" : (minutes > 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min")
        case "venue_type":
            return Int(text).flatMap(BMLTVenueType.init(rawValue:)).map(venue) ?? text
        case "published":
            return ["1", "true"].contains(text.lowercased()) ? "yes" : "no"
        case "formats", "format_shared_id_list":
            return text.split(separator: ",").joined(separator: ", ")
        case "service_body_bigint":
            return "#" + text
        default:
            return text
        }
    }

    /// `day: Thursday → Wednesday`.
    static func describe(_ change: BMLTFieldChange) -> String {
        "\(label(change.key)): \(value(change.before, key: change.key)) → \(value(change.after, key: change.key))"
    }

    /// The fields a recorded change touched, without the ids-of-formats twin of `formats`.
    static func fieldChanges(of change: BMLTChange) -> [BMLTFieldChange] {
        guard let before = change.before, let after = change.after else { return [] }
        var draft = before.editable()
        draft.meeting = after
        return readable(draft.changes)
    }

    /// Field changes without the duplicate `format_shared_id_list` when `formats` says the same, and without
    /// format lists that only changed order (the same formats).
    static func readable(_ changes: [BMLTFieldChange]) -> [BMLTFieldChange] {
        let hasKeys = changes.contains { $0.key == "formats" }
        return changes.filter { change in
            guard change.key == "formats" || change.key == "format_shared_id_list" else { return true }
            if hasKeys && change.key == "format_shared_id_list" { return false }
            return set(change.before) != set(change.after)
        }
    }

    private static func set(_ list: String?) -> Set<String> {
        Set((list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}
