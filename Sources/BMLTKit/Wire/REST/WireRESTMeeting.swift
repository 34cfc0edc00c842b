import Foundation

/// The REST admin interface's meeting (`/api/v1/meetings`) ↔ `BMLTMeeting`.
///
/// REST differs from the read interface: `day` is 0–6 from Sunday (semantic weekdays are 1–7), `startTime` and
/// `duration` are `HH:MM`, formats are `formatIds` without the VM/HY/TC formats (implied by `venueType` and
/// `temporarilyVirtual`), the contact email is `email`, and server-defined fields sit in `customFields`.
/// Everything else uses the semantic data-field keys (`location_text`, `comments`, …).
enum WireRESTMeeting {
    /// REST keys that are not semantic data-field keys, and their semantic keys.
    static let renamed: [String: String] = [
        "serviceBodyId": "service_body_bigint", "day": "weekday_tinyint", "startTime": "start_time",
        "duration": "duration_time", "timeZone": "time_zone", "venueType": "venue_type", "latitude": "latitude",
        "longitude": "longitude", "published": "published", "email": "email_contact", "worldId": "worldid_mixed",
        "name": "meeting_name",
    ]
    /// Semantic data-field keys REST sends under the same name.
    static let dataFieldKeys: [String] = [
        "location_text", "location_info", "location_street", "location_city_subsection", "location_neighborhood",
        "location_municipality", "location_sub_province", "location_province", "location_postal_code_1",
        "location_nation", "comments", "train_lines", "bus_lines", "contact_name_1", "contact_phone_1",
        "contact_email_1", "contact_name_2", "contact_phone_2", "contact_email_2", "phone_meeting_number",
        "virtual_meeting_link", "virtual_meeting_additional_info",
    ]
    /// Format keys REST leaves out of `formatIds`.
    static let impliedFormatKeys: Set<String> = ["VM", "HY", "TC"]

    /// A meeting from a REST meeting object; the VM/HY/TC formats are put back from `venueType` and
    /// `temporarilyVirtual`, so the meeting reads the same as one from a search.
    static func decode(_ value: WireValue, formats: [BMLTFormat], what: BMLTError.Subject) throws(BMLTError) -> BMLTMeeting {
        guard let object = value.object, let id = object["id"]?.int, let serviceBodyID = object["serviceBodyId"]?.int else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "{id, serviceBodyId}"))
        }
        var meeting = BMLTMeeting(id: id, serviceBodyID: serviceBodyID)
        meeting.name = object["name"]?.string ?? ""
        if let day = object["day"]?.int { meeting.weekday = BMLTWeekday(rawValue: day + 1) }
        meeting.startTime = object["startTime"]?.string.flatMap(WireTime.timeOfDay)
        meeting.duration = object["duration"]?.string.flatMap(WireTime.duration)
        meeting.timeZone = object["timeZone"]?.string.flatMap(TimeZone.init(identifier:))
        meeting.venueType = object["venueType"]?.int.flatMap(BMLTVenueType.init(rawValue:))
        if let latitude = object["latitude"]?.double, let longitude = object["longitude"]?.double,
           latitude != 0 || longitude != 0 {      // 0,0: the server's "not geocoded"
            meeting.coordinate = BMLTCoordinate(latitude: latitude, longitude: longitude)
        }
        meeting.isPublished = object["published"]?.bool
        meeting.emailContact = object["email"]?.string
        meeting.worldID = object["worldId"]?.string
        for key in dataFieldKeys { WireMeetingFieldTable.setDecoded(key, object[key]?.string, in: &meeting) }
        meeting.adminNotes = object["admin_notes"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        for (key, custom) in object["customFields"]?.object ?? [:] {
            WireMeetingFieldTable.setDecoded(key, custom.string, in: &meeting)
        }
        // Top-level keys this table does not know are not kept: a write could only send them back as custom
        // fields, which the server refuses for keys it does not define there.
        var ids = object["formatIds"]?.array?.compactMap(\.int) ?? []
        func add(_ key: String) {
            if let format = formats.first(where: { $0.key == key }), !ids.contains(format.id) { ids.append(format.id) }
        }
        if meeting.venueType == .virtual { add("VM") }
        if meeting.venueType == .hybrid { add("HY") }
        if object["temporarilyVirtual"]?.bool == true { add("TC") }
        meeting.formatIDs = ids
        WireMeetingFieldTable.resolveFormats(&meeting, formats: formats)
        return meeting
    }

    /// Semantic keys REST sends as top-level members (renamed or not), plus the ones the server computes: none
    /// of them is a custom field.
    static let stockKeys: Set<String> = Set(renamed.values).union(dataFieldKeys).union(WireMeetingFieldTable.computedKeys)
        .union(["id_bigint", "venue_type", "formats", "lang_enum", "admin_notes", "format_shared_id_list", "root_server_uri"])

    /// The keys the server defines as custom fields: its `available_keys` (GetServerInfo) minus the stock ones.
    /// A server that lists no keys (an old or trimmed reply) falls back to `zone` and the meeting's extra fields
    /// that are not computed.
    static func customKeys(server: BMLTServerInfo?, meeting: BMLTMeeting) -> [String] {
        let available = server?.availableKeys ?? []
        if !available.isEmpty { return available.filter { !stockKeys.contains($0) } }
        return (["zone"] + meeting.extraFields.keys.sorted()).filter { !stockKeys.contains($0) || $0 == "zone" }
    }

    /// The REST body for `meeting`: every field for POST and PUT (`keys == nil`), or only the fields with
    /// these semantic keys for PATCH. Empty fields are sent as `null` (a PUT replaces the whole meeting).
    /// Values the server computes (`service_body_name`, `root_server_uri`, distances, …) are never sent, and
    /// `customFields` holds only the keys `server` defines as custom.
    static func body(_ meeting: BMLTMeeting, keys: Set<String>? = nil, formats: [BMLTFormat],
                     defaultDuration: TimeInterval?, server: BMLTServerInfo? = nil) -> [(String, WireValue)] {
        func wanted(_ key: String) -> Bool { keys?.contains(key) ?? true }
        func text(_ value: String?) -> WireValue { value.map(WireValue.string) ?? .null }
        let full = keys == nil
        var body: [(String, WireValue)] = []
        if wanted("service_body_bigint") { body.append(("serviceBodyId", .integer(Int64(meeting.serviceBodyID)))) }
        if wanted("formats") || wanted("format_shared_id_list") {
            let implied = Set(formats.filter { impliedFormatKeys.contains($0.key) }.map(\.id))
            let temporarilyVirtual = formats.contains { $0.key == "TC" && meeting.formatIDs.contains($0.id) }
            body.append(("formatIds", .array(meeting.formatIDs.filter { !implied.contains($0) }.map { .integer(Int64($0)) })))
            body.append(("temporarilyVirtual", .bool(temporarilyVirtual)))
        }
        if wanted("venue_type") || full {
            body.append(("venueType", .integer(Int64((meeting.venueType ?? .inPerson).rawValue))))
        }
        if wanted("weekday_tinyint") { body.append(("day", meeting.weekday.map { .integer(Int64($0.rawValue - 1)) } ?? .null)) }
        if wanted("start_time") { body.append(("startTime", text(meeting.startTime.map(hoursAndMinutes)))) }
        if wanted("duration_time") {
            let duration = meeting.duration ?? (full ? defaultDuration ?? 3600 : nil)
            body.append(("duration", text(duration.map { hoursAndMinutes(BMLTTimeOfDay(hour: 0, second: WireTime.wholeSeconds($0))) })))
        }
        if wanted("time_zone") { body.append(("timeZone", text(meeting.timeZone?.identifier))) }
        if wanted("latitude") || wanted("longitude") {
            // No coordinate is written as 0,0, what the server stores for "not geocoded" (it requires numbers).
            body.append(("latitude", meeting.coordinate.map { .double($0.latitude) } ?? .integer(0)))
            body.append(("longitude", meeting.coordinate.map { .double($0.longitude) } ?? .integer(0)))
        }
        if wanted("published") { body.append(("published", .bool(meeting.isPublished ?? !full))) }
        if wanted("email_contact") { body.append(("email", text(meeting.emailContact))) }
        if wanted("worldid_mixed") { body.append(("worldId", text(meeting.worldID))) }
        if wanted("meeting_name") { body.append(("name", .string(meeting.name))) }
        for key in dataFieldKeys where wanted(key) {
            body.append((key, text(WireMeetingFieldTable.wireValue(key, of: meeting))))
        }
        // `admin_notes` exists from 4.0: a full body sends it to 4.x (a PUT clears it when empty), to older
        // servers only when it has a value; a PATCH sends it when it was edited.
        let hasAdminNotes = (server?.majorVersion ?? 0) >= 4
        if keys?.contains("admin_notes") ?? (hasAdminNotes || meeting.adminNotes != nil) {
            body.append(("admin_notes", text(meeting.adminNotes)))
        }
        // Custom fields: those the server defines, with a value, and (for PATCH) those edited.
        var custom: [String: WireValue] = [:]
        for key in customKeys(server: server, meeting: meeting) {
            let value = WireMeetingFieldTable.wireValue(key, of: meeting)
            if full ? value != nil : keys?.contains(key) == true { custom[key] = text(value) }
        }
        if !custom.isEmpty { body.append(("customFields", .object(custom))) }
        return body
    }

    /// `HH:MM`, the REST form of times and durations (hours may pass 24 for a duration).
    static func hoursAndMinutes(_ time: BMLTTimeOfDay) -> String {
        let total = time.secondsSinceMidnight
        return BMLTTimeOfDay.pad(total / 3600) + ":" + BMLTTimeOfDay.pad((total % 3600) / 60)
    }
}

/// JSON text for request bodies, written by hand so numbers keep their shortest form on every platform.
enum WireJSONWriter {
    /// An object with its members in the given order.
    static func object(_ members: [(String, WireValue)]) -> Data {
        Data(("{" + members.map { string($0.0) + ":" + text($0.1) }.joined(separator: ",") + "}").utf8)
    }

    static func text(_ value: WireValue) -> String {
        switch value {
        case .string(let text): return string(text)
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let elements): return "[" + elements.map(text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { string($0) + ":" + text(members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
