import Foundation

/// Every meeting field BMLTKit edits, by its semantic wire key (`meeting_name`, `weekday_tinyint`, …), with the
/// text form the read interface and the legacy admin interface use (`"1"`…`"7"` for weekdays, `HH:MM:SS`,
/// comma lists of format keys, `"1"`/`"0"` for flags).
///
/// Drafts compare meetings field by field through this table, field changes are reported in its keys and
/// forms whatever the interface, and legacy `modify_meeting` sends `meeting_field[]=<key>,<value>` from it.
/// Keys the table does not know live in `BMLTMeeting.extraFields`.
enum WireMeetingFieldTable {
    struct Field: Sendable {
        let key: String
        let get: @Sendable (BMLTMeeting) -> String?
        let set: @Sendable (inout BMLTMeeting, String?) -> Void
        /// Whether a client may change it (ids and server-made values are read-only).
        var isEditable = true
    }

    /// The known fields, in the order the server lists them.
    static let fields: [Field] = [
        Field(key: "id_bigint", get: { String($0.id) }, set: { $0.id = $1.flatMap(int) ?? $0.id }, isEditable: false),
        text("worldid_mixed", \.worldID),
        Field(key: "shared_group_id_bigint", get: { $0.sharedGroupID.map(String.init) }, set: { $0.sharedGroupID = $1.flatMap(int) }),
        Field(key: "service_body_bigint", get: { String($0.serviceBodyID) }, set: { $0.serviceBodyID = $1.flatMap(int) ?? $0.serviceBodyID }),
        Field(key: "weekday_tinyint", get: { $0.weekday.map { String($0.rawValue) } },
              set: { $0.weekday = $1.flatMap(int).flatMap(BMLTWeekday.init(rawValue:)) }),
        Field(key: "venue_type", get: { $0.venueType.map { String($0.rawValue) } },
              set: { $0.venueType = $1.flatMap(int).flatMap(BMLTVenueType.init(rawValue:)) }),
        Field(key: "start_time", get: { $0.startTime?.description }, set: { $0.startTime = $1.flatMap(WireTime.timeOfDay) }),
        Field(key: "duration_time", get: { $0.duration.map(WireTime.durationString) }, set: { $0.duration = $1.flatMap(WireTime.duration) }),
        Field(key: "time_zone", get: { $0.timeZone?.identifier }, set: { $0.timeZone = $1.flatMap(TimeZone.init(identifier:)) }),
        Field(key: "formats", get: { $0.formatKeys.isEmpty ? nil : $0.formatKeys.joined(separator: ",") },
              set: { $0.formatKeys = list($1) }),
        Field(key: "format_shared_id_list", get: { $0.formatIDs.isEmpty ? nil : $0.formatIDs.map(String.init).joined(separator: ",") },
              set: { $0.formatIDs = list($1).compactMap(int) }, isEditable: false),
        text("lang_enum", \.language),
        Field(key: "longitude", get: { $0.placedCoordinate.map { number($0.longitude) } }, set: { meeting, text in
            guard let value = text.flatMap(double) else { return }
            meeting.coordinate = placed(BMLTCoordinate(latitude: meeting.coordinate?.latitude ?? 0, longitude: value))
        }),
        Field(key: "latitude", get: { $0.placedCoordinate.map { number($0.latitude) } }, set: { meeting, text in
            guard let value = text.flatMap(double) else { return }
            meeting.coordinate = placed(BMLTCoordinate(latitude: value, longitude: meeting.coordinate?.longitude ?? 0))
        }),
        Field(key: "published", get: { $0.isPublished.map { $0 ? "1" : "0" } },
              set: { $0.isPublished = $1.map { ["1", "true"].contains($0.lowercased()) } }),
        text("email_contact", \.emailContact),
        Field(key: "meeting_name", get: { $0.name.isEmpty ? nil : $0.name }, set: { $0.name = $1 ?? "" }),
        text("location_text", \.locationText),
        text("location_info", \.locationInfo),
        text("location_street", \.street),
        text("location_city_subsection", \.citySubsection),
        text("location_neighborhood", \.neighborhood),
        text("location_municipality", \.municipality),
        text("location_sub_province", \.subProvince),
        text("location_province", \.province),
        text("location_postal_code_1", \.postalCode),
        text("location_nation", \.nation),
        text("comments", \.comments),
        text("zone", \.zone),
        text("train_lines", \.trainLines),
        text("bus_lines", \.busLines),
        text("contact_name_1", \.contactName1),
        text("contact_phone_1", \.contactPhone1),
        text("contact_email_1", \.contactEmail1),
        text("contact_name_2", \.contactName2),
        text("contact_phone_2", \.contactPhone2),
        text("contact_email_2", \.contactEmail2),
        text("virtual_meeting_link", \.virtualMeetingLink),
        text("virtual_meeting_additional_info", \.virtualMeetingAdditionalInfo),
        text("phone_meeting_number", \.phoneMeetingNumber),
        text("admin_notes", \.adminNotes),
        Field(key: "service_body_name", get: { $0.serviceBodyName }, set: { $0.serviceBodyName = $1.flatMap { $0.isEmpty ? nil : $0 } },
              isEditable: false),
        Field(key: "root_server_uri", get: { $0.rootServerURI }, set: { $0.rootServerURI = $1 }, isEditable: false),
    ]

    /// Keys the server computes or reports that are not meeting data.
    static let ignoredKeys: Set<String> = ["distance_in_km", "distance_in_miles", "root_server_id"]

    /// Keys whose values the server computes: never sent in a write, on any generation (not as a field, not as a
    /// custom field).
    static let computedKeys: Set<String> = ignoredKeys.union(fields.filter { !$0.isEditable }.map(\.key))

    private static let byKey: [String: Field] = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })

    /// The field with this key, if the table knows it.
    static func field(_ key: String) -> Field? { byKey[key] }

    /// The value of `key` in `meeting` (known fields, else `extraFields`), `nil` when empty.
    static func value(_ key: String, of meeting: BMLTMeeting) -> String? {
        if let field = byKey[key] { return field.get(meeting) }
        return meeting.extraFields[key].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The text to write for `key`: the server's exact text when the field still holds the value it was read
    /// with from a `prompt#@-@#value` (so an unchanged field goes back byte for byte), else `value(_:of:)` (an
    /// edited field is written as the value alone, as the server's own editors write it).
    static func wireValue(_ key: String, of meeting: BMLTMeeting) -> String? {
        let current = value(key, of: meeting)
        if let prompted = meeting.promptStorage?[key], prompted.value == (current ?? "") { return prompted.wireText }
        return current
    }

    /// Sets `key` from text as a server sent it: a `prompt#@-@#value` sets the value and keeps the prompt
    /// (`BMLTMeeting.fieldPrompts`).
    static func setDecoded(_ key: String, _ text: String?, in meeting: inout BMLTMeeting) {
        let isText = byKey[key].map { promptKeys.contains($0.key) } ?? !ignoredKeys.contains(key)
        set(key, isText ? meeting.takePrompt(key, text) : text, in: &meeting)
    }

    /// The known fields whose values a server may write as `prompt#@-@#value` (those `MeetingBuilder` splits).
    private static let promptKeys: Set<String> = Set(MeetingBuilder.fields.filter { MeetingBuilder.mayCarryPrompt($0.value) }.keys)

    /// Sets `key` in `meeting` (known fields, else `extraFields`).
    static func set(_ key: String, _ value: String?, in meeting: inout BMLTMeeting) {
        if let field = byKey[key] { return field.set(&meeting, value) }
        guard !ignoredKeys.contains(key) else { return }
        if let value, !value.isEmpty { meeting.extraFields[key] = value } else { meeting.extraFields[key] = nil }
    }

    /// Every key with a value in either meeting: the known fields in table order, then extra fields sorted.
    static func keys(_ meetings: BMLTMeeting?...) -> [String] {
        let extra = Set(meetings.compactMap { $0?.extraFields.keys }.joined()).subtracting(byKey.keys)
        return fields.map(\.key) + extra.sorted()
    }

    /// The fields whose text differs between `before` and `after` (read-only fields left out), with both values.
    static func differences(from before: BMLTMeeting?, to after: BMLTMeeting) -> [BMLTFieldChange] {
        keys(before, after).compactMap { key in
            if let field = byKey[key], !field.isEditable { return nil }
            let old = before.flatMap { value(key, of: $0) }
            let new = value(key, of: after)
            return old == new ? nil : BMLTFieldChange(key: key, before: old, after: new)
        }
    }

    /// A meeting from a legacy admin `get_meetings` object (numbers or strings alike, empty fields left out), with
    /// its formats resolved against `formats`. `nil` without a usable id.
    static func meeting(from object: [String: WireValue], formats: [BMLTFormat]) -> BMLTMeeting? {
        guard let id = object["id_bigint"]?.int, let serviceBodyID = object["service_body_bigint"]?.int else { return nil }
        var meeting = BMLTMeeting(id: id, serviceBodyID: serviceBodyID)
        for key in object.keys.sorted() where key != "id_bigint" {
            setDecoded(key, object[key]?.string, in: &meeting)
        }
        // The legacy admin interface leaves empty fields out, and an unpublished meeting's `published` is empty.
        if object["published"] == nil { meeting.isPublished = false }
        resolveFormats(&meeting, formats: formats)
        return meeting
    }

    /// Fills `formats`, and whichever of `formatKeys` / `formatIDs` is missing, from the server's formats.
    static func resolveFormats(_ meeting: inout BMLTMeeting, formats: [BMLTFormat]) {
        if meeting.formatIDs.isEmpty, !meeting.formatKeys.isEmpty {
            meeting.formatIDs = meeting.formatKeys.compactMap { key in formats.first { $0.key == key }?.id }
        }
        let resolved = meeting.formatIDs.compactMap { id in formats.first { $0.id == id } }
        if meeting.formatKeys.isEmpty { meeting.formatKeys = resolved.map(\.key) }
        meeting.formats = resolved
    }

    private static func text(_ key: String, _ path: WritableKeyPath<BMLTMeeting, String?> & Sendable) -> Field {
        Field(key: key, get: { $0[keyPath: path].flatMap { $0.isEmpty ? nil : $0 } },
              set: { $0[keyPath: path] = $1.flatMap { $0.isEmpty ? nil : $0 } })
    }

    private static func int(_ text: String) -> Int? { Int(text.trimmedSpaces) }
    private static func double(_ text: String) -> Double? { Double(text.trimmedSpaces) }
    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }
    }

    /// `nil` for 0,0, the servers' "not geocoded".
    private static func placed(_ coordinate: BMLTCoordinate) -> BMLTCoordinate? {
        coordinate.isNotGeocoded ? nil : coordinate
    }

    /// A coordinate in the shortest text that reads back the same.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
