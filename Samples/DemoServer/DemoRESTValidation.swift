import Foundation

/// Laravel-style validation of a REST meeting payload (create, PUT, and PATCH after merging).
enum DemoRESTValidation {
    /// Field errors in rule order, as Laravel reports them.
    struct Errors: Error {
        var list: [(String, [String])] = []
        mutating func add(_ field: String, _ message: String) {
            if let index = list.firstIndex(where: { $0.0 == field }) { list[index].1.append(message) } else { list.append((field, [message])) }
        }
    }

    /// "serviceBodyId" → "service body id".
    static func words(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch.isUppercase { out += " " + ch.lowercased() } else if ch == "_" { out += " " } else { out.append(ch) }
        }
        return out
    }

    private static func int(_ value: DemoJSON?) -> Int? {
        if let i = value?.intValue { return i }
        return value?.stringValue.flatMap { Int($0) }
    }

    private static func bool(_ value: DemoJSON?) -> Bool? {
        switch value {
        case let .bool(b)?: return b
        case let .int(i)? where i == 0 || i == 1: return i == 1
        case let .string(s)? where ["0", "1", "true", "false"].contains(s): return s == "1" || s == "true"
        default: return nil
        }
    }

    private static func number(_ value: DemoJSON?) -> Double? {
        value?.doubleValue ?? value?.stringValue.flatMap { Double($0) }
    }

    /// Strict `H:i`: two-digit hours 00–23 and minutes 00–59.
    static func clock(_ value: DemoJSON?) -> Int? {
        guard let text = value?.stringValue, text.count == 5, text.dropFirst(2).first == ":",
              let h = Int(text.prefix(2)), let m = Int(text.suffix(2)), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return h * 60 + m
    }

    static func meeting(from body: DemoJSON, id: Int, lang: String, _ set: DemoDataSet) -> Result<DemoMeeting, Errors> {
        var e = Errors()
        func missing(_ key: String) -> Bool { body[key] == nil || body[key] == .null || body[key] == .string("") }
        func required(_ key: String) -> Bool {
            if missing(key) { e.add(key, "The \(words(key)) field is required."); return false }
            return true
        }

        var serviceBody = 0
        if required("serviceBodyId") {
            if let sb = int(body["serviceBodyId"]), set.serviceBody(sb) != nil { serviceBody = sb } else {
                e.add("serviceBodyId", "The selected service body id is invalid.")
            }
        }
        var formats: [Int] = []
        if !body.has("formatIds") {
            e.add("formatIds", "The format ids field must be present.")
        } else if case let .array(items)? = body["formatIds"] {
            for (n, item) in items.enumerated() {
                if let f = int(item), set.format(f) != nil, !DemoCatalog.ID.implied.contains(f) {
                    if !formats.contains(f) { formats.append(f) }
                } else {
                    e.add("formatIds.\(n)", "The selected formatIds.\(n) is invalid.")
                }
            }
        } else if body["formatIds"] != .null {
            e.add("formatIds", "The format ids field must be an array.")
        }
        var venue = 1
        if required("venueType") {
            if let v = int(body["venueType"]), (1...3).contains(v) { venue = v } else { e.add("venueType", "The selected venue type is invalid.") }
        }
        var temporarilyVirtual = false
        if !missing("temporarilyVirtual") {
            if let b = bool(body["temporarilyVirtual"]) { temporarilyVirtual = b } else {
                e.add("temporarilyVirtual", "The temporarily virtual field must be true or false.")
            }
        }
        var day = 0
        if required("day") {
            if let d = int(body["day"]), (0...6).contains(d) { day = d } else { e.add("day", "The day must be between 0 and 6.") }
        }
        var start = 0, duration = 0
        if required("startTime") {
            if let s = clock(body["startTime"]) { start = s } else { e.add("startTime", "The start time does not match the format H:i.") }
        }
        if required("duration") {
            if let d = clock(body["duration"]) { duration = d } else { e.add("duration", "The duration does not match the format H:i.") }
        }
        let timeZone = body["timeZone"]?.stringValue ?? ""
        if !timeZone.isEmpty && TimeZone(identifier: timeZone) == nil {
            e.add("timeZone", "The time zone field must be a valid timezone.")
        }
        var coordinates = (0.0, 0.0)
        for (key, limit) in [("latitude", 90.0), ("longitude", 180.0)] where required(key) {
            guard let value = number(body[key]), abs(value) <= limit else {
                e.add(key, "The \(key) must be between -\(Int(limit)) and \(Int(limit)).")
                continue
            }
            if key == "latitude" { coordinates.0 = value } else { coordinates.1 = value }
        }
        var published = true
        if required("published") {
            if let b = bool(body["published"]) { published = b } else { e.add("published", "The published field must be true or false.") }
        }
        let email = body["email"]?.stringValue ?? ""
        if !email.isEmpty && (!email.contains("@") || email.count > 255 || email.contains(" ")) {
            e.add("email", "The email field must be a valid email address.")
        }
        let worldID = body["worldId"]?.stringValue ?? ""
        if worldID.count > 30 { e.add("worldId", "The world id field must not be greater than 30 characters.") }
        var name = ""
        if required("name") {
            name = body["name"]?.stringValue ?? ""
            if name.isEmpty { e.add("name", "The name field must be a string.") }
            if name.count > 128 { e.add("name", "The name field must not be greater than 128 characters.") }
        }
        var fields: [String: String] = [:]
        for key in DemoRESTMeetings.restDataKeys {
            guard let value = body[key], value != .null else { continue }
            guard let text = value.stringValue else { e.add(key, "The \(words(key)) field must be a string."); continue }
            if text.count > 512 { e.add(key, "The \(words(key)) field must not be greater than 512 characters.") }
            fields[key] = text
        }
        if case let .object(custom)? = body["customFields"] {
            for (key, value) in custom {
                guard DemoFields.customKeys.contains(key) else {
                    e.add("customFields", "The custom fields field contains an unknown key: \(key).")
                    continue
                }
                if let text = value.stringValue { fields[key] = text }
            }
        }
        if venue != 1 && (fields["virtual_meeting_link"] ?? "").isEmpty && (fields["phone_meeting_number"] ?? "").isEmpty {
            e.add("virtual_meeting_link", "A virtual meeting link or a phone meeting number is required for virtual and hybrid meetings.")
        }
        guard e.list.isEmpty else { return .failure(e) }

        if venue == 2 { formats.append(DemoCatalog.ID.virtual) }
        if venue == 3 { formats.append(DemoCatalog.ID.hybrid) }
        if temporarilyVirtual { formats.append(DemoCatalog.ID.temporarilyClosed) }
        var m = DemoMeeting(id: id, worldID: worldID, serviceBodyID: serviceBody, weekday: day + 1, venueType: venue,
                            startMinutes: start, durationMinutes: duration, timeZone: timeZone, formatIDs: formats, lang: lang,
                            latitude: coordinates.0, longitude: coordinates.1, published: published, email: email)
        for (key, value) in fields { m[field: key] = value }
        m[field: "meeting_name"] = name
        return .success(m)
    }
}
