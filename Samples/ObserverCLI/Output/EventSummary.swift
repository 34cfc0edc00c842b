import BMLTKit
import Foundation

/// One-line, human summaries of BMLTKit events, and their JSON form for `--json`.
enum EventSummary {
    /// The short name printed for a notification, e.g. "serverValidated".
    static func shortName(_ name: Notification.Name) -> String {
        let raw = name.rawValue.replacingOccurrences(of: "org.bmlt.kit.", with: "")
        let parts = raw.split(separator: ".")
        return parts.enumerated().map { index, part in
            index == 0 ? String(part) : part.prefix(1).uppercased() + part.dropFirst()
        }.joined()
    }

    /// A one-line summary of what the event carries.
    static func line(for event: BMLTEvent) -> String {
        switch event {
        case .progressDidStart: return "busy"
        case .progressDidStop: return "idle"
        case .serverValidated(let isValid, let info, let error, _):
            if isValid, let info { return "valid: root server \(info.version)" }
            return "INVALID: " + (error?.localizedDescription ?? "unknown reason")
        case .meetingSearchResults(let meetings, _):
            let sample = meetings.prefix(3).map { "#\($0.id) \($0.name)" }.joined(separator: "; ")
            return "\(meetings.count) meeting\(meetings.count == 1 ? "" : "s")" + (sample.isEmpty ? "" : ": \(sample)\(meetings.count > 3 ? "; …" : "")")
        case .formatSearchResults(let formats, let isAllUsed, _):
            return "\(formats.count) format\(formats.count == 1 ? "" : "s")\(isAllUsed ? " (all used)" : ""): "
                + formats.prefix(12).map(\.key).joined(separator: " ")
        case .changeListResults(let changes, _):
            let newest = changes.first.map { " newest: #\($0.id) \($0.type.rawValue.replacingOccurrences(of: "comdef_change_type_", with: "")) of meeting \($0.meetingID.map(String.init) ?? "?")" } ?? ""
            return "\(changes.count) change\(changes.count == 1 ? "" : "s")" + newest
        case .meetingSaved(let meeting, let fieldChanges, _):
            return "meeting #\(meeting.id) saved: " + fieldChanges.map { "\($0.key) “\($0.before ?? "")” → “\($0.after ?? "")”" }.joined(separator: ", ")
        case .meetingAdded(let meeting, _): return "meeting #\(meeting.id) added: \(meeting.name)"
        case .meetingDeleted(let id, _): return "meeting #\(id) deleted"
        case .messageSent(let sent, _): return sent ? "message sent" : "message not sent"
        case .adminLoginChanged(let isLoggedIn, _): return isLoggedIn ? "logged in" : "logged out"
        case .requestCancelled(let request): return "cancelled: \(request)"
        case .error(let error, let request):
            return (request.map { "\($0.kind): " } ?? "") + error.localizedDescription
        case .serviceBodyResults(let bodies, _): return "\(bodies.count) service bodies"
        case .fieldKeyResults(let keys, _): return "\(keys.count) field keys"
        case .fieldValueResults(let key, let values, _): return "\(values.count) values of \(key)"
        case .coverageAreaResults(let area, _):
            return String(format: "NW %.4f,%.4f  SE %.4f,%.4f", area.northWest.latitude, area.northWest.longitude,
                          area.southEast.latitude, area.southEast.longitude)
        case .nawsExportResults(let export, _): return "\(export.rows.count) rows, \(export.columns.count) columns"
        case .serverAdminResults(let result, _), .serverAdminSaved(let result, _): return line(for: result)
        }
    }

    /// A one-line summary of a server-administration result (never a password: results hold none).
    static func line(for result: BMLTServerAdminResult) -> String {
        switch result {
        case .formats(let formats): return "\(formats.count) formats (all translations)"
        case .format(let format, let wasCreated):
            return "format #\(format.id) \(format.translation("en")?.key ?? format.translations.first?.key ?? "")\(wasCreated ? " created" : "")"
        case .formatDeleted(let id): return "format #\(id) deleted"
        case .serviceBodies(let bodies): return "\(bodies.count) service bodies (with users)"
        case .serviceBody(let body, let wasCreated): return "service body #\(body.id) \(body.name)\(wasCreated ? " created" : "")"
        case .serviceBodyDeleted(let id): return "service body #\(id) deleted"
        case .serviceBodyEditors(let id, let editors): return "\(editors.count) editors of service body #\(id)"
        case .users(let users): return "\(users.count) users"
        case .user(let user, let wasCreated): return "user #\(user.id) \(user.username)\(wasCreated ? " created" : "")"
        case .userDeleted(let id): return "user #\(id) deleted"
        case .settings(let settings): return "\(settings.values.count) settings"
        case .rootServers(let servers): return "\(servers.count) root servers"
        case .rootServer(let server): return "root server #\(server.id) \(server.name)"
        }
    }

    /// The JSON object printed for `--json`: time, name, summary, request, and counts or ids of the payload.
    static func json(for event: BMLTEvent, at date: Date) -> String {
        var object: [String: Any] = [
            "time": ISO8601DateFormatter().string(from: date),
            "name": event.notificationName.rawValue,
            "summary": line(for: event),
        ]
        if let request = event.request {
            object["request"] = ["id": request.id.uuidString, "kind": request.kind.rawValue]
        }
        switch event {
        case .serverValidated(let isValid, let info, let error, _):
            object["valid"] = isValid
            if let info { object["version"] = info.version }
            if let error { object["error"] = error.localizedDescription }
        case .meetingSearchResults(let meetings, _): object["meetingIDs"] = meetings.map(\.id)
        case .formatSearchResults(let formats, let isAllUsed, _):
            object["formatIDs"] = formats.map(\.id)
            object["allUsedFormats"] = isAllUsed
        case .changeListResults(let changes, _): object["changeIDs"] = changes.map(\.id)
        case .meetingSaved(let meeting, let changes, _):
            object["meetingID"] = meeting.id
            object["fieldChanges"] = changes.map { ["key": $0.key, "before": $0.before as Any, "after": $0.after as Any] }
        case .meetingAdded(let meeting, _): object["meetingID"] = meeting.id
        case .meetingDeleted(let id, _): object["meetingID"] = id
        case .messageSent(let sent, _): object["sent"] = sent
        case .adminLoginChanged(let isLoggedIn, _): object["loggedIn"] = isLoggedIn
        case .error(let error, _): object["error"] = error.localizedDescription
        default: break
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
