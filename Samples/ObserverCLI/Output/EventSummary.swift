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
            return "INVALID: " + (error.map { ErrorWords.code($0) + " (see the message on stderr)" } ?? "unknown reason")
        case .meetingSearchResults(let meetings, _):
            let sample = meetings.prefix(3).map { "#\($0.id) \($0.name)" }.joined(separator: "; ")
            return "\(meetings.count) meeting\(meetings.count == 1 ? "" : "s")" + (sample.isEmpty ? "" : ": \(sample)\(meetings.count > 3 ? "; …" : "")")
        case .meetingsArrived(let batch, let count, _):
            return "\(batch.count) more meeting\(batch.count == 1 ? "" : "s") (\(count) so far)"
        case .formatSearchResults(let formats, let isAllUsed, _):
            return "\(formats.count) format\(formats.count == 1 ? "" : "s")\(isAllUsed ? " (all used)" : ""): "
                + formats.prefix(12).map(\.key).joined(separator: " ") + (formats.count > 12 ? " …" : "")
        case .changeListResults(let changes, _):
            let newest = changes.first.map { " newest: #\($0.id) \($0.type.rawValue.replacingOccurrences(of: "comdef_change_type_", with: "")) of meeting \($0.meetingID.map(String.init) ?? "?")" } ?? ""
            return "\(changes.count) change\(changes.count == 1 ? "" : "s")" + newest
        case .meetingSaved(let meeting, let fieldChanges, _):
            return "meeting #\(meeting.id) saved: " + FieldWords.readable(fieldChanges).map(FieldWords.describe).joined(separator: "; ")
        case .meetingAdded(let meeting, _): return "meeting #\(meeting.id) added: \(meeting.name)"
        case .meetingDeleted(let id, _): return "meeting #\(id) deleted"
        case .messageSent(let sent, _): return sent ? "message sent" : "message not sent"
        case .adminLoginChanged(let isLoggedIn, _): return isLoggedIn ? "logged in" : "logged out"
        case .requestCancelled(let request): return "cancelled: \(request)"
        case .error(let error, let request):
            // Only the kind: the sentence is printed once, on standard error, in the CLI's words.
            return (request.map { "\($0.kind): " } ?? "") + ErrorWords.code(error) + " (see the message on stderr)"
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

    /// The JSON object printed for `--json`: time, name, event (the short name), summary, request, and the
    /// event's records (see `JSONRecords`).
    @MainActor
    static func json(for event: BMLTEvent, at date: Date, connection: BMLTConnection, timeout: Double? = nil,
                     deadline: Double? = nil) -> String {
        var object: [String: Any] = [
            "time": ISO8601DateFormatter().string(from: date),
            "name": event.notificationName.rawValue,
            "event": shortName(event.notificationName),
            "summary": line(for: event),
        ]
        if let request = event.request {
            object["request"] = ["id": request.id.uuidString, "kind": request.kind.rawValue]
            if request.isFromCache { object["fromCache"] = true }
        }
        let unit = connection.serverInfo?.distanceUnits
        switch event {
        case .serverValidated(let isValid, let info, let error, _):
            object["valid"] = isValid
            if let info {
                object["version"] = info.version
                object["server"] = JSONRecords.server(info, of: connection)
            }
            if let error {
                object["error"] = ErrorWords.sentence(error, timeout: timeout, deadline: deadline)
                object["errorCode"] = ErrorWords.code(error)
            }
        case .meetingSearchResults(let meetings, _):
            object["meetingIDs"] = meetings.map(\.id)
            object["meetings"] = meetings.map { JSONRecords.meeting($0, unit: unit) }
        case .meetingsArrived(let batch, let count, _):
            object["meetingIDs"] = batch.map(\.id)
            object["count"] = count
        case .formatSearchResults(let formats, let isAllUsed, _):
            object["formatIDs"] = formats.map(\.id)
            object["formats"] = formats.map(JSONRecords.format)
            object["allUsedFormats"] = isAllUsed
        case .changeListResults(let changes, _):
            object["changeIDs"] = changes.map(\.id)
            object["changes"] = changes.map(JSONRecords.change)
        case .meetingSaved(let meeting, let changes, _):
            object["meetingID"] = meeting.id
            object["meeting"] = JSONRecords.meeting(meeting)
            object["fieldChanges"] = changes.map(JSONRecords.fieldChange)
        case .meetingAdded(let meeting, _):
            object["meetingID"] = meeting.id
            object["meeting"] = JSONRecords.meeting(meeting)
        case .meetingDeleted(let id, _): object["meetingID"] = id
        case .messageSent(let sent, _): object["sent"] = sent
        case .adminLoginChanged(let isLoggedIn, _):
            object["loggedIn"] = isLoggedIn
            if isLoggedIn { object["user"] = JSONRecords.user(connection.admin.user, permissions: connection.admin.permissions) }
        case .error(let error, _):
            object["error"] = ErrorWords.sentence(error, timeout: timeout, deadline: deadline)
            object["errorCode"] = ErrorWords.code(error)
        case .serviceBodyResults(let bodies, _): object["serviceBodies"] = bodies.map(JSONRecords.serviceBody)
        case .fieldKeyResults(let keys, _): object["fieldKeys"] = keys.map { ["key": $0.key, "description": $0.description] }
        case .fieldValueResults(let key, let values, _):
            object["key"] = key
            object["values"] = values.map(JSONRecords.fieldValue)
        case .coverageAreaResults(let area, _):
            object["northWest"] = ["latitude": area.northWest.latitude, "longitude": area.northWest.longitude]
            object["southEast"] = ["latitude": area.southEast.latitude, "longitude": area.southEast.longitude]
        case .nawsExportResults(let export, _):
            object["columns"] = export.columns
            object["rows"] = export.rows
        default: break
        }
        return JSONRecords.line(object)
    }
}
