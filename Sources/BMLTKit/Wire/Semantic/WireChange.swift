import Foundation

/// Semantic change records (`GetChanges`) → `BMLTChange`, with the meeting before and after decoded from
/// `json_data`.
enum WireChange {
    /// 2.x writes a change's `details` HTML-escaped (`changed from &quot;10:15&quot; to &quot;10:30&quot;`); 3.x and
    /// 4.x write plain text. The few entities PHP's `htmlspecialchars` makes are turned back into their characters.
    static func unescapedDetails(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#039;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func decodeList(_ value: WireValue, formats: WireFormatTable) throws(BMLTError) -> [BMLTChange] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: .changes, detail: .unexpectedShape(expected: "[change]"))
        }
        var context = MeetingDecodingContext(formats: formats)
        return try WireShape.usable(entries.compactMap { decode($0, context: &context) }, of: entries.count,
                                    what: .changes, key: "change_id")
    }

    /// One record; `nil` when it has no usable change id.
    static func decode(_ value: WireValue, context: inout MeetingDecodingContext) -> BMLTChange? {
        guard let id = value["change_id"]?.int else { return nil }
        var change = BMLTChange(
            id: id,
            date: value["date_int"]?.double.map { Date(timeIntervalSince1970: $0) },
            type: value["change_type"]?.string.flatMap(BMLTChangeType.init(rawValue:)) ?? .other,
            meetingID: value["meeting_id"]?.int,
            meetingName: value["meeting_name"]?.string,
            userID: value["user_id"]?.int,
            userName: value["user_name"]?.string,
            serviceBodyID: value["service_body_id"]?.int,
            serviceBodyName: value["service_body_name"]?.string,
            meetingExists: value["meeting_exists"]?.bool,
            details: value["details"]?.string.map(unescapedDetails)
        )
        // PHP writes an empty `json_data` as `[]`; otherwise an object with `before` and/or `after`.
        if let data = value["json_data"]?.object {
            if let before = data["before"]?.object { change.before = WireMeeting.decode(before, context: &context) }
            if let after = data["after"]?.object { change.after = WireMeeting.decode(after, context: &context) }
        }
        return change
    }

    /// The deletions among `changes`: only meetings that do not exist now, the latest deletion per meeting,
    /// newest first.
    static func latestDeletions(_ changes: [BMLTChange]) -> [BMLTChange] {
        let deletions = changes
            .filter { $0.type == .deleted && $0.meetingExists != true }
            .sorted { ($0.date ?? .distantPast, $0.id) > ($1.date ?? .distantPast, $1.id) }
        var seen = Set<Int>()
        return deletions.filter { change in
            guard let meetingID = change.meetingID ?? change.before?.id else { return true }
            return seen.insert(meetingID).inserted
        }
    }

    /// `YYYY-MM-DD` in the Gregorian calendar and the device's time zone (the day the caller means), whatever
    /// the device's locale and calendar.
    static func day(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 1970, month = parts.month ?? 1, day = parts.day ?? 1
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
