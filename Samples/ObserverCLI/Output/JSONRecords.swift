import BMLTKit
import Foundation

/// The records `--json` prints, with stable field names (the manual's "JSON output", Samples/ObserverCLI/README.md,
/// lists them). Every line is one JSON object: a notification (`"event"` is its short name, e.g.
/// `"meetingSearchResults"`) or a command's result (`"event": "result"`, `"command"` the command). Fields without
/// a value are left out, never `null`.
///
/// A new command prints its answer with `context.result("name", ["meetings": meetings.map { JSONRecords.meeting($0) }])`.
enum JSONRecords {
    /// One line of JSON: keys sorted, slashes not escaped, no newlines inside.
    static func line(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A meeting. `distance` is in the server's unit (`distanceUnit`), only on searches around a point.
    static func meeting(_ m: BMLTMeeting, unit: BMLTDistanceUnit? = nil) -> [String: Any] {
        var o: [String: Any] = ["id": m.id, "name": m.name, "serviceBodyID": m.serviceBodyID,
                                "formatKeys": m.formatKeys, "formatIDs": m.formatIDs]
        o["weekday"] = m.weekday?.name
        o["weekdayNumber"] = m.weekday?.rawValue
        o["startTime"] = m.startTime.map(FieldWords.clock)
        o["endTime"] = m.endTime.map(FieldWords.clock)
        if m.endsNextDay { o["endsNextDay"] = true }        // past midnight: endTime is on the next day
        o["durationMinutes"] = m.duration.map { Int($0 / 60) }
        o["timeZone"] = m.timeZone?.identifier
        o["venueType"] = m.venueType.map(FieldWords.venue)
        o["language"] = m.language
        o["latitude"] = m.coordinate?.latitude
        o["longitude"] = m.coordinate?.longitude
        if let distance = distance(of: m, in: unit) {
            o["distance"] = distance.value
            o["distanceUnit"] = distance.unit.rawValue
        }
        let texts: [(String, String?)] = [
            ("locationText", m.locationText), ("locationInfo", m.locationInfo), ("street", m.street),
            ("neighborhood", m.neighborhood), ("municipality", m.municipality), ("subProvince", m.subProvince),
            ("province", m.province), ("postalCode", m.postalCode), ("nation", m.nation), ("comments", m.comments),
            ("virtualMeetingLink", m.virtualMeetingLink), ("virtualMeetingAdditionalInfo", m.virtualMeetingAdditionalInfo),
            ("phoneMeetingNumber", m.phoneMeetingNumber), ("worldID", m.worldID), ("rootServerURI", m.rootServerURI),
            ("busLines", m.busLines), ("trainLines", m.trainLines),
        ]
        for (key, value) in texts { if let value, !value.isEmpty { o[key] = value } }
        o["published"] = m.isPublished
        o["rootServerID"] = m.rootServerID
        return o
    }

    /// The meeting's distance from the search point in `unit` (the server's), rounded to 0.01; the other unit
    /// when the server sent only that one.
    static func distance(of m: BMLTMeeting, in unit: BMLTDistanceUnit?) -> (value: Double, unit: BMLTDistanceUnit)? {
        let km = m.distanceInKilometers ?? m.distanceInMiles.map { $0 * 1.609344 }
        let miles = m.distanceInMiles ?? m.distanceInKilometers.map { $0 / 1.609344 }
        guard let km, let miles else { return nil }
        let chosen = unit ?? .miles
        return (((chosen == .kilometers ? km : miles) * 100).rounded() / 100, chosen)
    }

    /// A format.
    static func format(_ f: BMLTFormat) -> [String: Any] {
        var o: [String: Any] = ["id": f.id, "key": f.key, "name": f.name, "description": f.description, "language": f.language]
        o["type"] = f.type?.rawValue
        o["worldID"] = f.worldID
        return o
    }

    /// A service body.
    static func serviceBody(_ b: BMLTServiceBody) -> [String: Any] {
        var o: [String: Any] = ["id": b.id, "name": b.name, "description": b.description]
        o["parentID"] = b.parentID
        o["type"] = b.type?.rawValue
        o["url"] = b.url?.absoluteString
        o["helpline"] = b.helpline
        o["worldID"] = b.worldID
        o["email"] = b.email
        return o
    }

    /// A change: who, when, what, and each field's value before and after (wire values, and in words).
    static func change(_ c: BMLTChange) -> [String: Any] {
        var o: [String: Any] = ["id": c.id, "type": FieldWords.changeType(c.type)]
        o["date"] = c.date.map { ISO8601DateFormatter().string(from: $0) }
        o["meetingID"] = c.meetingID
        o["meetingName"] = c.meetingName
        o["userID"] = c.userID
        o["userName"] = c.userName
        o["serviceBodyID"] = c.serviceBodyID
        o["serviceBodyName"] = c.serviceBodyName
        o["meetingExists"] = c.meetingExists
        o["details"] = c.details
        o["fields"] = FieldWords.fieldChanges(of: c).map(fieldChange)
        return o
    }

    /// One field's change: `key` (the wire key), `field` (its name in words), `before`/`after` (wire values,
    /// absent when empty), `text` (the line printed without --json).
    static func fieldChange(_ f: BMLTFieldChange) -> [String: Any] {
        var o: [String: Any] = ["key": f.key, "field": FieldWords.label(f.key), "text": FieldWords.describe(f)]
        o["before"] = f.before
        o["after"] = f.after
        return o
    }

    /// A field value with the meetings that have it.
    static func fieldValue(_ v: BMLTFieldValue) -> [String: Any] {
        var o: [String: Any] = ["meetingIDs": v.meetingIDs, "count": v.meetingIDs.count]
        o["value"] = v.value
        return o
    }

    /// What validation learned about the server.
    @MainActor
    static func server(_ info: BMLTServerInfo, of connection: BMLTConnection) -> [String: Any] {
        [
            "rootServerURL": connection.rootServerURL.absoluteString, "version": info.version, "versionInt": info.versionInt,
            "distanceUnit": info.distanceUnits.rawValue, "languages": connection.server.languages.map(\.code),
            "capabilities": InfoCommand.capabilityNames(connection.capabilities),
            "formatCount": connection.server.formats.count, "serviceBodyCount": connection.server.serviceBodies.count,
        ]
    }

    /// The logged-in user and their permissions.
    static func user(_ user: BMLTUser?, permissions: [BMLTPermission]) -> [String: Any] {
        var o: [String: Any] = [
            "permissions": permissions.map { p -> [String: Any] in
                var o: [String: Any] = ["serviceBodyID": p.serviceBodyID, "level": FieldWords.level(p.level),
                                        "canEditMeetings": p.canEditMeetings]
                o["serviceBodyName"] = p.serviceBodyName
                return o
            },
        ]
        if let user {
            o["id"] = user.id
            o["username"] = user.username
            o["displayName"] = user.displayName
            o["role"] = user.role.rawValue
        }
        return o
    }

    /// `count`, `shown` and the records: the numbers say when a limit cut the list.
    static func limited<T>(_ items: [T], limit: Int, key: String, _ record: (T) -> [String: Any]) -> [String: Any] {
        [key: items.prefix(limit).map(record), "count": items.count, "shown": min(items.count, limit)]
    }
}
