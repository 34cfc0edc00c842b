import Foundation
import Testing
@testable import BMLTKit

/// Compares decoded values with the raw JSON of the same reply, parsed independently by `JSONSerialization`.
enum RawCheck {
    typealias Object = [String: Any]

    /// The reply's list of objects (`{}` is an empty list, as the server means it).
    static func list(_ raw: Any, key: String? = nil) -> [Object] {
        if let key, let object = raw as? Object { return (object[key] as? [Object]) ?? [] }
        return (raw as? [Object]) ?? []
    }

    /// A member as the server meant it: text, with `""`, `null` and absence all `nil`.
    static func text(_ object: Object, _ key: String) -> String? {
        switch object[key] {
        case let string as String: return string.isEmpty ? nil : string
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    static func int(_ object: Object, _ key: String) -> Int? { text(object, key).flatMap { Int($0) } }
    static func double(_ object: Object, _ key: String) -> Double? { text(object, key).flatMap { Double($0) } }

    static func csv(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
    }

    /// `nearest`: the n of a `.nearest(n)` search, whose answer BMLTKit cuts to the n nearest (the server's
    /// answer is sorted by distance in these captures, so its first n).
    /// `keep`: the raw meetings the results hold (a 2.x answer by id is completed: `LegacyByID`).
    static func search(_ results: BMLTSearchResults, raw: Any, nearest: Int? = nil, keep: (Object) -> Bool = { _ in true }) {
        let isObject = (raw as? Object).map { $0["meetings"] != nil || $0["formats"] != nil } ?? false
        let allMeetings = (isObject ? list(raw, key: "meetings") : list(raw)).filter(keep)
        let rawMeetings = nearest.map { Array(allMeetings.prefix($0)) } ?? allMeetings
        meetings(results.meetings, raw: rawMeetings)
        formats(results.formats, raw: isObject ? list(raw, key: "formats") : [], query: "")
    }

    static func meetings(_ meetings: [BMLTMeeting], raw: [Object]) {
        #expect(meetings.count == raw.count)
        for (decoded, object) in zip(meetings, raw) {
            meeting(decoded, raw: object)
        }
    }

    static func meeting(_ meeting: BMLTMeeting, raw object: Object) {
        let label = "meeting \(text(object, "id_bigint") ?? "?")"
        #expect(meeting.id == (int(object, "id_bigint") ?? 0), "\(label)")
        #expect(meeting.serviceBodyID == (int(object, "service_body_bigint") ?? 0), "\(label)")
        #expect(meeting.name == (text(object, "meeting_name") ?? ""), "\(label)")
        #expect(meeting.weekday?.rawValue == int(object, "weekday_tinyint"), "\(label)")
        // A real 2.16.6 change record holds `"start_time":"20"`: not a time, so absent (never 20 minutes past midnight).
        let rawStart = text(object, "start_time")
        let isTime = rawStart.map { $0.range(of: #"^\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil } ?? false
        #expect(meeting.startTime?.description == (isTime ? rawStart : nil), "\(label)")
        if let duration = text(object, "duration_time") {
            let parts = duration.split(separator: ":").compactMap { Double($0) }
            #expect(meeting.duration == parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0), "\(label)")
        } else {
            #expect(meeting.duration == nil, "\(label)")
        }
        // A reply with one format list only (`data_field_key`) gets the other from the formats it resolved to.
        let rawKeys = (object["formats"] as? [String]) ?? csv(text(object, "formats"))
        let rawIDs = csv(text(object, "format_shared_id_list")).compactMap { Int($0) }
        #expect(meeting.formatKeys == (rawKeys.isEmpty && !rawIDs.isEmpty ? meeting.formats.map(\.key) : rawKeys), "\(label)")
        #expect(meeting.formatIDs == (rawIDs.isEmpty && !rawKeys.isEmpty ? meeting.formats.map(\.id) : rawIDs), "\(label)")
        // 0,0 is "not geocoded": no coordinate, and no distance to it.
        let notGeocoded = double(object, "latitude") == 0 && double(object, "longitude") == 0
        #expect(meeting.coordinate?.latitude == (notGeocoded ? nil : double(object, "latitude")), "\(label)")
        #expect(meeting.coordinate?.longitude == (notGeocoded ? nil : double(object, "longitude")), "\(label)")
        #expect(meeting.distanceInKilometers == (notGeocoded ? nil : double(object, "distance_in_km")), "\(label)")
        #expect(meeting.distanceInMiles == (notGeocoded ? nil : double(object, "distance_in_miles")), "\(label)")
        #expect(meeting.municipality == text(object, "location_municipality"), "\(label)")
        #expect(meeting.street == text(object, "location_street"), "\(label)")
        #expect(meeting.worldID == text(object, "worldid_mixed"), "\(label)")
        #expect(meeting.venueType?.rawValue == int(object, "venue_type"), "\(label)")
        #expect(meeting.language == text(object, "lang_enum"), "\(label)")
        #expect(meeting.comments == text(object, "comments"), "\(label)")
        #expect(meeting.virtualMeetingLink == text(object, "virtual_meeting_link"), "\(label)")
        let published: Bool? = object["published"] == nil ? nil : text(object, "published") == "1"
        #expect(meeting.isPublished == published, "\(label)")
        for (key, value) in meeting.extraFields {
            // `prompt#@-@#value`: the value after the last separator.
            let raw = text(object, key).map { $0.components(separatedBy: "#@-@#").last!.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(MeetingBuilder.fields[key] == nil && raw == value, "\(label): extra \(key)")
        }
    }

    static func formats(_ formats: [BMLTFormat], raw: Any, query: String) {
        var objects = (raw as? [Object]) ?? []
        // 2.16.6 ignores format_ids (it returns every used format); BMLTKit filters, as a 3.x server would.
        let ids = query.split(separator: "&").filter { $0.hasPrefix("format_ids") }.compactMap { Int($0.split(separator: "=")[1]) }
        if !ids.isEmpty { objects = objects.filter { int($0, "id").map(ids.contains) ?? false } }
        #expect(formats.count == objects.count)
        for (format, object) in zip(formats, objects) {
            #expect(format.id == int(object, "id"))
            #expect(format.key == text(object, "key_string"))
            #expect(format.name == (text(object, "name_string") ?? ""))
            #expect(format.language == text(object, "lang"))
            #expect(format.worldID == text(object, "world_id"))
            #expect(format.type?.rawValue == text(object, "format_type_enum"))
        }
    }

    static func serviceBodies(_ bodies: [BMLTServiceBody], raw: Any) {
        let objects = list(raw)
        #expect(bodies.count == objects.count)
        for (body, object) in zip(bodies, objects) {
            #expect(body.id == int(object, "id"))
            #expect((body.parentID ?? 0) == (int(object, "parent_id") ?? 0))
            #expect(body.name == (text(object, "name") ?? ""))
            #expect(body.type?.rawValue == text(object, "type"))
        }
    }

    static func changes(_ changes: [BMLTChange], raw: Any) {
        let objects = list(raw)
        #expect(changes.count == objects.count)
        for (change, object) in zip(changes, objects) {
            #expect(change.id == int(object, "change_id"))
            #expect(change.meetingID == int(object, "meeting_id"))
            #expect(change.type.rawValue == text(object, "change_type"))
            #expect(change.userID == int(object, "user_id"))
            #expect(change.date == double(object, "date_int").map { Date(timeIntervalSince1970: $0) })
            #expect(change.meetingExists == (text(object, "meeting_exists").map { $0 == "1" }))
            let data = object["json_data"] as? Object
            #expect((change.before == nil) == (data?["before"] == nil), "change \(change.id) before")
            #expect((change.after == nil) == (data?["after"] == nil), "change \(change.id) after")
            if let before = change.before, let raw = data?["before"] as? Object { meeting(before, raw: raw) }
            if let after = change.after, let raw = data?["after"] as? Object { meeting(after, raw: raw) }
        }
    }

    static func fieldKeys(_ keys: [BMLTFieldKey], raw: Any) {
        let objects = list(raw)
        #expect(keys.map(\.key) == objects.compactMap { text($0, "key") })
        #expect(keys.map(\.description) == objects.map { text($0, "description") ?? text($0, "key") ?? "" })
    }

    static func fieldValues(_ values: [BMLTFieldValue], key: String, raw: Any) {
        let objects = list(raw)
        #expect(values.count == objects.count)
        for (value, object) in zip(values, objects) {
            let rawValue = text(object, key)
            #expect(value.value == (rawValue == "NULL" ? nil : rawValue))
            #expect(value.meetingIDs == csv(text(object, "ids")).compactMap { Int($0) })
        }
    }

    static func coverage(_ area: BMLTCoverageArea, raw: Any) {
        let object = list(raw).first ?? [:]
        #expect(area.northWest.latitude == double(object, "nw_corner_latitude"))
        #expect(area.northWest.longitude == double(object, "nw_corner_longitude"))
        #expect(area.southEast.latitude == double(object, "se_corner_latitude"))
        #expect(area.southEast.longitude == double(object, "se_corner_longitude"))
    }

    /// The NAWS CSV: the header names the columns, and the published rows are exactly the meetings the same
    /// server listed for that service body (`json_GetSearchResults_services_1002.json`, an independent reply).
    static func naws(_ export: BMLTNAWSExport, text: String) {
        let header = text.prefix { $0 != "\n" && $0 != "\r" }
        #expect(export.columns.joined(separator: ",") == header.replacingOccurrences(of: "\"", with: ""))
        #expect(export.columns.count == 52)
        for row in export.rows { #expect(row.count == export.columns.count, "\(row)") }
        let published = export.rows.filter { $0["unpublished"] != "1" && $0["Delete"] != "D" }.compactMap { $0["bmlt_id"].flatMap { Int($0) } }
        let listed = (try? FixtureCorpus.raw(FixtureCorpus.legacy, "json_GetSearchResults_services_1002.json"))
            .map { list($0).compactMap { int($0, "id_bigint") } } ?? []
        #expect(Set(published) == Set(listed) && published.count == listed.count)
        #expect(export.rows.contains { ($0["Place"] ?? "").contains(",") || ($0["Directions"] ?? "").contains(",")
            || ($0["Address"] ?? "").contains(",") || ($0["CommitteeName"] ?? "").contains(",") || ($0["VirtualMeetingInfo"] ?? "").contains(",")
            || ($0["ContactName"] ?? "").contains(",") || ($0["Room"] ?? "").contains(",") })
    }
}
