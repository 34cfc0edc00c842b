import Foundation
import LoopbackHTTPServer

/// The meeting writes of `CheckStandIn`: 2.x `json.php` and 3.x/4.x `/api/v1`, its meetings and change log following them.
extension CheckStandIn {
    /// Whether a request carries an open 2.x session (its semantic searches then show hidden fields to the administrator).
    func isObserver(_ request: LoopbackHTTPServer.Request) -> Bool {
        guard generation.isLegacy, let cookie = request.headers["cookie"] else { return false }
        return lock.withLock { sessions.keys.contains { cookie.contains("PHPSESSID=\($0)") } }
    }

    // MARK: - 2.x json.php

    func legacy(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let form = Self.form(request.body)
        let action = request.query("admin_action") ?? form.first { $0.0 == "admin_action" }?.1
        if action == "login" {
            // Only the captured login may: nasc_admin (user 4), an editor of service body 1002 (admin_json_login.txt).
            guard form.contains(where: { $0 == ("c_comdef_admin_login", "nasc_admin") }),
                  form.contains(where: { $0 == ("c_comdef_admin_password", Self.password) }) else {
                return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("NOT AUTHORIZED".utf8))
            }
            let session = "s" + String(UUID().uuidString.prefix(8)).lowercased()
            lock.withLock { sessions[session] = 4 }
            return .respond(status: 200, headers: ["Content-Type": "text/html", "Set-Cookie": "PHPSESSID=\(session); path=/"],
                            body: FixtureCaptures.body("rootserver", "admin_json_login.txt"))
        }
        guard isObserver(request) else {
            return .respond(status: 200, headers: ["Content-Type": "text/html"], body: FixtureCaptures.body("rootserver", "admin_json_noauth_get_permissions.txt"))
        }
        let id = (request.query("meeting_id") ?? form.first { $0.0 == "meeting_id" }?.1).flatMap(Int.init)
        let fields = form.filter { $0.0 == "meeting_field[]" }.map { pair -> (String, String) in
            let parts = pair.1.split(separator: ",", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        switch action {
        case "get_permissions": return capture("rootserver", "admin_json_get_permissions.json")
        case "get_user_info": return capture("rootserver", "admin_json_get_user_info.json")
        case "logout":
            if let cookie = request.headers["cookie"] { lock.withLock { sessions = sessions.filter { !cookie.contains("PHPSESSID=\($0.key)") } } }
            return .respond(status: 200, headers: ["Content-Type": "text/html"], body: FixtureCaptures.body("rootserver", "admin_json_logout.txt"))
        case "get_meetings":
            let ids = Set(request.queryItems.filter { $0.name == "meeting_ids[]" }.compactMap { $0.value.flatMap(Int.init) })
            let body = request.query("services[]")
            let found = lock.withLock { meetings.values.filter { m in
                (ids.isEmpty || ids.contains(Int(m["id_bigint"] ?? "") ?? 0)) && (body == nil || m["service_body_bigint"] == body)
            } }.sorted { (Int($0["id_bigint"] ?? "") ?? 0) < (Int($1["id_bigint"] ?? "") ?? 0) }.map(Self.legacyAdminForm)
            // One meeting: a bare object; several: {"row": […]} (admin_json_get_meetings_unpublished / _search.json).
            return found.count == 1 ? Self.json(found[0]) : found.isEmpty ? Self.json([Any]()) : Self.json(["row": found])
        case "add_meeting":
            let body = form.first { $0.0 == "service_body_id" }?.1 ?? ""
            guard body == "1002" else { return Self.json(["ERROR"]) }      // nasc_admin edits 1002 only
            return lock.withLock {
                let newID = nextID
                nextID += 1
                // AddNewMeeting stores a placeholder and records it as new; the fields are then stored as a change
                // (json_GetChanges_all.json, changes 13141–13142); `published` is ignored (216-admin-add_meeting-published-1.json).
                var meeting: [String: String] = Dictionary(uniqueKeysWithValues: keyOrder.map { ($0, "") })
                meeting["id_bigint"] = String(newID)
                meeting["service_body_bigint"] = body
                meeting["weekday_tinyint"] = "1"
                meeting["start_time"] = "20:00:00"
                meeting["duration_time"] = "01:00:00"
                meeting["published"] = "0"
                meeting["lang_enum"] = "en"
                meeting["root_server_uri"] = rootURL.absoluteString
                let placeholder = meeting
                meetings[newID] = meeting
                insertion[newID] = insertion.count
                record("comdef_change_type_new", newID, user: 4, before: nil, after: placeholder)
                for (key, value) in fields where key != "published" { set(key, value, in: &meeting) }
                meetings[newID] = meeting
                record("comdef_change_type_change", newID, user: 4, before: placeholder, after: meeting)
                return Self.json(["newMeeting": ["id": newID],
                                  "field": fields.filter { $0.0 != "published" }.map { ["@attributes": ["key": $0.0], "newValue": $0.1] }])
            }
        case "modify_meeting":
            return lock.withLock {
                guard let id, var meeting = meetings[id] else {
                    return .respond(status: 500, headers: ["Content-Type": "text/html"], body: Data())   // GetID() on null (TwoAdminsStandIn)
                }
                guard meeting["service_body_bigint"] == "1002" else {
                    return capture("rootserver", "admin_json_modify_meeting_not_authorized.json")
                }
                let before = meeting
                var changes: [[String: Any]] = []
                for (key, value) in fields {
                    let old = meeting[key] ?? ""
                    set(key, value, in: &meeting)
                    if old != meeting[key] { changes.append(["@attributes": ["key": key], "oldValue": old, "newValue": value]) }
                }
                meetings[id] = meeting
                record("comdef_change_type_change", id, user: 4, before: before, after: meeting)
                return Self.json(["changeMeeting": ["id": id], "field": changes])
            }
        case "delete_meeting":
            return lock.withLock {
                guard let id, let meeting = meetings.removeValue(forKey: id) else { return Self.json(["ERROR"]) }
                deleted[id] = meeting
                record("comdef_change_type_delete", id, user: 4, before: meeting, after: nil)
                return Self.json(["@attributes": ["id": id], "meetingId": id, "meeting_id": id])
            }
        case "restore_deleted_meeting":
            return lock.withLock {
                guard let id, let meeting = deleted.removeValue(forKey: id) else { return Self.json(["ERROR"]) }
                meetings[id] = meeting
                record("comdef_change_type_new", id, user: 4, before: nil, after: meeting)
                return Self.json(["meeting_id": id, "meeting_name": meeting["meeting_name"] ?? ""])
            }
        default:
            return Self.json(["BAD ADMIN ACTION"])
        }
    }

    /// A `meeting_field[]` value stored: formats given by key also set their ids (with the lock held).
    func set(_ key: String, _ value: String, in meeting: inout [String: String]) {
        meeting[key] = value
        if key == "formats" {
            let ids = value.split(separator: ",").compactMap { key in formatKeys.first { $0.value == String(key) }?.key }
            meeting["format_shared_id_list"] = ids.sorted().map(String.init).joined(separator: ",")
        }
    }

    /// A meeting as 2.x's `get_meetings` answers it: numbers as numbers, empty fields and a 0 `published` left out
    /// (admin_json_get_meetings_ids.json, server-truths/216-admin-get_meetings-after-add.json).
    static func legacyAdminForm(_ meeting: [String: String]) -> [String: Any] {
        var out: [String: Any] = [:]
        for (key, value) in meeting where !value.isEmpty && !["distance_in_km", "distance_in_miles"].contains(key) {
            if key == "published" && value != "1" { continue }
            if ["id_bigint", "service_body_bigint", "weekday_tinyint", "venue_type", "published"].contains(key), let number = Int(value) {
                out[key] = number
            } else if ["latitude", "longitude"].contains(key), let number = Double(value) {
                out[key] = number
            } else {
                out[key] = value
            }
        }
        return out
    }

    static func form(_ body: Data) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }
}
