import Foundation

/// Turns the stored data into the semantic (all-strings) reply objects of a 3.x root server.
enum DemoRender {
    static let rootURI = "https://demo.bmlt.invalid/main_server"

    /// Keys of a semantic meeting object in 3.x order (main block, then the data fields).
    static let meetingKeys: [String] = ["id_bigint", "worldid_mixed", "shared_group_id_bigint", "service_body_bigint",
                                        "weekday_tinyint", "venue_type", "start_time", "duration_time", "time_zone", "formats",
                                        "lang_enum", "longitude", "latitude", "distance_in_km", "distance_in_miles",
                                        "email_contact", "published", "root_server_uri", "format_shared_id_list"]
        + DemoFields.dataKeys

    /// The value of one semantic field of `m` (format keys in `lang`).
    static func value(_ key: String, of m: DemoMeeting, in set: DemoDataSet, lang: String, distanceKm: Double? = nil) -> String {
        switch key {
        case "id_bigint": return String(m.id)
        case "worldid_mixed": return m.worldID
        case "shared_group_id_bigint", "email_contact": return ""
        case "service_body_bigint": return String(m.serviceBodyID)
        case "weekday_tinyint": return String(m.weekday)
        case "venue_type": return String(m.venueType)
        case "start_time": return DemoText.hms(m.startMinutes)
        case "duration_time": return DemoText.hms(m.durationMinutes)
        case "time_zone": return m.timeZone
        case "formats": return formatKeys(m, set, lang).joined(separator: ",")
        case "lang_enum": return m.lang
        case "longitude": return DemoText.coordinate(m.longitude)
        case "latitude": return DemoText.coordinate(m.latitude)
        case "distance_in_km": return distanceKm.map { "\($0)" } ?? ""
        case "distance_in_miles": return distanceKm.map { "\($0 / 1.609344)" } ?? ""
        case "published": return m.published ? "1" : "0"
        case "root_server_uri": return rootURI
        case "format_shared_id_list": return m.formatIDs.sorted().map(String.init).joined(separator: ",")
        default:
            // Hidden fields (contact_*) are blank for anonymous readers, as on a real server.
            if DemoFields.dataFields.first(where: { $0.key == key })?.hidden == true { return "" }
            return m[field: key]
        }
    }

    static func formatKeys(_ m: DemoMeeting, _ set: DemoDataSet, _ lang: String) -> [String] {
        m.formatIDs.compactMap { set.format($0)?.translation(lang)?.key }
    }

    /// A semantic meeting object; `only` limits it to those keys (data_field_key), keeping the full object's order.
    static func meeting(_ m: DemoMeeting, _ set: DemoDataSet, lang: String, distanceKm: Double?, only: [String]?) -> DemoJSON {
        let keys: [String]
        if let only {
            let wanted = Set(only)
            keys = meetingKeys.filter { wanted.contains($0) && $0 != "shared_group_id_bigint" }
        } else {
            keys = meetingKeys
        }
        return .object(keys.map { ($0, .string(value($0, of: m, in: set, lang: lang, distanceKm: distanceKm))) })
    }

    /// A semantic format object in `lang` (nil when it has no such translation).
    static func format(_ f: DemoFormat, lang: String) -> DemoJSON? {
        guard let t = f.translations[lang] else { return nil }
        return .object([("key_string", .string(t.key)), ("name_string", .string(t.name)),
                        ("description_string", .string(t.description)), ("lang", .string(lang)), ("id", .string(String(f.id))),
                        ("world_id", .string(f.worldID)), ("format_type_enum", .string(f.typeCode)),
                        ("root_server_uri", .string(rootURI))])
    }

    static func serviceBody(_ b: DemoServiceBody) -> DemoJSON {
        .object([("id", .string(String(b.id))), ("parent_id", .string(String(b.parentID))), ("name", .string(b.name)),
                 ("description", .string(b.description)), ("type", .string(b.type)), ("url", .string(b.url)),
                 ("helpline", .string(b.helpline)), ("world_id", .string(b.worldID))])
    }

    // MARK: Changes

    /// The `json_data` snapshot of a meeting: main fields, then non-empty visible data fields alphabetically; formats as keys.
    static func snapshot(_ m: DemoMeeting, _ set: DemoDataSet) -> DemoJSON {
        var pairs: [(String, DemoJSON)] = []
        for key in ["id_bigint", "service_body_bigint", "weekday_tinyint", "venue_type", "start_time", "lang_enum",
                    "duration_time", "longitude", "latitude"] {
            pairs.append((key, .string(value(key, of: m, in: set, lang: "en"))))
        }
        if !m.worldID.isEmpty { pairs.append(("worldid_mixed", .string(m.worldID))) }
        if !m.timeZone.isEmpty { pairs.append(("time_zone", .string(m.timeZone))) }
        pairs.append(("published", .string(m.published ? "1" : "0")))
        pairs.append(("formats", .array(formatKeys(m, set, "en").map(DemoJSON.string))))
        // Hidden fields (contact_*) stay out of the public change records.
        let hidden = Set(DemoFields.dataFields.filter(\.hidden).map(\.key))
        for key in m.fields.keys.sorted() where !m[field: key].isEmpty && !hidden.contains(key) {
            pairs.append((key, .string(m[field: key])))
        }
        return .object(pairs)
    }

    /// The human-readable sentences describing a change.
    static func details(_ c: DemoChange, _ set: DemoDataSet) -> [String] {
        switch c.kind {
        case .new: return ["The meeting was created."]
        case .delete: return ["The meeting was deleted."]
        case .rollback: return ["The meeting was rolled back to a previous version."]
        case .change:
            guard let before = c.before, let after = c.after else { return [] }
            var lines: [String] = []
            if before.weekday != after.weekday {
                lines.append("The day of the week on which the meeting gathers was changed from \"\(DemoText.weekdayNames[before.weekday - 1])\" to \"\(DemoText.weekdayNames[after.weekday - 1])\".")
            }
            if before.startMinutes != after.startMinutes {
                lines.append("The meeting start time was changed from \"\(DemoText.hm(before.startMinutes))\" to \"\(DemoText.hm(after.startMinutes))\".")
            }
            if before.durationMinutes != after.durationMinutes {
                lines.append("The meeting duration was changed from \"\(DemoText.hm(before.durationMinutes))\" to \"\(DemoText.hm(after.durationMinutes))\".")
            }
            if before.formatIDs != after.formatIDs {
                lines.append("The meeting format was changed from \"\(formatKeys(before, set, "en").joined(separator: ", "))\" to \"\(formatKeys(after, set, "en").joined(separator: ", "))\".")
            }
            if before.venueType != after.venueType { lines.append("The venue type was changed.") }
            if before.serviceBodyID != after.serviceBodyID { lines.append("The meeting was moved to another service body.") }
            if before.published != after.published {
                lines.append(after.published ? "The meeting was published." : "The meeting was unpublished.")
            }
            if before.latitude != after.latitude || before.longitude != after.longitude { lines.append("The meeting location was moved.") }
            for key in DemoFields.dataKeys where before[field: key] != after[field: key] {
                let prompt = DemoFields.prompt(key)
                if before[field: key].isEmpty {
                    lines.append("\(prompt) was added as \"\(after[field: key])\".")
                } else if after[field: key].isEmpty {
                    lines.append("\(prompt) was deleted.")
                } else {
                    lines.append("\(prompt) was changed from \"\(before[field: key])\" to \"\(after[field: key])\".")
                }
            }
            return lines
        }
    }

    static func change(_ c: DemoChange, _ set: DemoDataSet) -> DemoJSON {
        let user = set.user(c.userID)
        let body = set.serviceBody(c.serviceBodyID)
        let live = set.meetings[c.meetingID]
        var data: [(String, DemoJSON)] = []
        if let before = c.before { data.append(("before", snapshot(before, set))) }
        if let after = c.after { data.append(("after", snapshot(after, set))) }
        return .object([
            ("date_int", .string(String(Int(c.date.timeIntervalSince1970)))), ("date_string", .string(DemoText.changeDate(c.date))),
            ("change_type", .string("comdef_change_type_\(c.kind.rawValue)")), ("change_id", .string(String(c.id))),
            ("meeting_id", .string(String(c.meetingID))), ("meeting_name", .string(live?.name ?? "")),
            ("user_id", .string(String(c.userID))), ("user_name", .string(user?.displayName ?? "")),
            ("service_body_id", .string(String(c.serviceBodyID))), ("service_body_name", .string(body?.name ?? "")),
            ("meeting_exists", .string(live == nil ? "0" : "1")), ("details", .string(details(c, set).joined(separator: " "))),
            ("json_data", .object(data)),
        ])
    }
}
