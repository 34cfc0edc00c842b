import Foundation
import LoopbackHTTPServer

/// The two write interfaces of `LostAnswerStandIn`: 2.x `json.php` (form posts, a cookie session) and 3.x/4.x
/// `/api/v1` (JSON, a bearer token). A meeting is held as `id`, `service_body`, `name`, `weekday` (1–7), `start`
/// (`HH:MM:SS`), `published` (1/0) and any other field under its wire key.
extension LostAnswerStandIn {
    private static let named = ["meeting_name": "name", "weekday_tinyint": "weekday", "start_time": "start",
                                "service_body_bigint": "service_body", "published": "published"]

    // MARK: - 2.x json.php

    func legacy(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let form = Self.form(request.body)
        let action = request.query("admin_action") ?? form.first { $0.0 == "admin_action" }?.1
        if action == "login" {
            let good = form.contains { $0 == ("c_comdef_admin_password", LegacyAdminReplay.password) }
            return .respond(status: 200, headers: ["Content-Type": "text/html", "Set-Cookie": "PHPSESSID=s3ss10n; path=/"],
                            body: Data((good ? "OK" : "NOT AUTHORIZED").utf8))
        }
        guard request.headers["cookie"]?.contains("PHPSESSID=s3ss10n") == true, isSessionValid() else {
            return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("NOT AUTHORIZED".utf8))
        }
        let meetingID = (request.query("meeting_id") ?? form.first { $0.0 == "meeting_id" }?.1).flatMap(Int.init)
        switch action {
        case "get_permissions": return .respond(status: 200, headers: [:], body: FixtureCaptures.body("rootserver", "admin_json_get_permissions.json"))
        case "get_user_info": return .respond(status: 200, headers: [:], body: FixtureCaptures.body("rootserver", "admin_json_get_user_info.json"))
        case "get_meetings":
            if readFails() { return .respond(status: failingReadStatus, headers: [:], body: Data()) }
            let ids = request.queryItems.filter { $0.name == "meeting_ids[]" }.compactMap { $0.value.flatMap(Int.init) }
            let body = request.query("services[]").flatMap(Int.init)
            let found = locked { allMeetings() }.filter { meeting in
                (ids.isEmpty || ids.contains(meeting["id"] as? Int ?? 0)) && (body == nil || meeting["service_body"] as? Int == body)
            }
            return Self.json(found.map(Self.legacyMeeting))
        case "add_meeting":
            let loss = locked { takeLoss() }
            var id = 0
            let fields = form.filter { $0.0 == "meeting_field[]" }.map { pair -> (String, String) in
                let parts = pair.1.split(separator: ",", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
            apply(loss) {
                // 2.16.6's add_meeting, as capture rootserver/json_GetChanges_all.json shows it (changes 13141 and
                // 13142): `AddNewMeeting` stores a placeholder (weekday 1, start "20", unpublished) and records the
                // "new" change for it; the fields sent are then stored and recorded as a second, "changed" record. New
                // meetings are unpublished on 2.x, `published,1` sent or not (`server-truths/216-admin-add_meeting-published-1.json`
                // lists every field sent but `published`; `216-admin-get_meetings-after-add.json`). 13143 publishes it in
                // a change of its own: `modify_meeting … published,1` (`216-admin-modify_meeting-published-1.json`).
                id = newID()
                let placeholder: [String: Any] = ["id": id, "service_body": Int(form.first { $0.0 == "service_body_id" }?.1 ?? "") ?? 0,
                                                  "weekday": 1, "start": "20", "published": 0,
                                                  "name": fields.first { $0.0 == "meeting_name" }?.1 ?? ""]
                store(placeholder, id: id)
                recordWrite("comdef_change_type_new", id, after: placeholder)
                var meeting = placeholder
                for (key, value) in fields where key != "published" { Self.set(key, value, in: &meeting) }
                store(meeting, id: id)
                recordWrite("comdef_change_type_change", id, before: placeholder, after: meeting)
            }
            return lost(loss, Self.json(["newMeeting": ["id": id],
                                         "field": fields.map { ["@attributes": ["key": $0.0], "newValue": $0.1] }]))
        case "modify_meeting":
            let loss = locked { takeLoss() }
            guard let id = meetingID, locked({ meeting(id) }) != nil else { return .json(#"["ERROR"]"#) }
            var changes: [[String: Any]] = []
            apply(loss) {
                guard var held = meeting(id) else { return }
                let before = held
                for pair in form where pair.0 == "meeting_field[]" {
                    let parts = pair.1.split(separator: ",", maxSplits: 1).map(String.init)
                    let old = Self.legacyMeeting(held)[parts[0]].map { "\($0)" } ?? ""
                    Self.set(parts[0], parts.count > 1 ? parts[1] : "", in: &held)
                    changes.append(["@attributes": ["key": parts[0]], "oldValue": old, "newValue": parts.count > 1 ? parts[1] : ""])
                }
                store(held, id: id)
                recordWrite("comdef_change_type_change", id, before: before, after: held)
            }
            return lost(loss, Self.json(["changeMeeting": ["id": id], "field": changes]))
        case "delete_meeting":
            let loss = locked { takeLoss() }
            guard let id = meetingID, locked({ meeting(id) }) != nil else { return .json(#"["ERROR"]"#) }
            apply(loss) {
                let before = meeting(id)
                remove(id)
                recordWrite("comdef_change_type_delete", id, before: before)
            }
            return lost(loss, Self.json(["@attributes": ["id": id], "meetingId": id, "meeting_id": id]))
        case "restore_deleted_meeting":
            let loss = locked { takeLoss() }
            guard let id = meetingID else { return .json(#"["ERROR"]"#) }
            var restored = false
            apply(loss) {
                restored = bringBack(id)
                if restored { recordWrite("comdef_change_type_new", id, after: meeting(id)) }
            }
            if case .refusedBefore? = loss { return lost(loss, .json("[]")) }
            return lost(loss, restored ? Self.json(["meeting_id": id]) : .json(#"["ERROR"]"#))
        case "rollback_meeting_to_before_change":
            let loss = locked { takeLoss() }
            let change = request.query("change_id") ?? form.first { $0.0 == "change_id" }?.1 ?? ""
            guard let image = locked({ beforeImage(ofChange: change) }) else { return .json(#"["ERROR"]"#) }
            apply(loss) {
                guard var held = meeting(image.meetingID) else { return }
                let before = held
                for (key, value) in image.fields where key != "id_bigint" { Self.set(key, value, in: &held) }
                store(held, id: image.meetingID)
                recordWrite("comdef_change_type_rollback", image.meetingID, before: before, after: held)
            }
            return lost(loss, Self.json(["meeting_id": image.meetingID]))
        default:
            return .json(#"["BAD ADMIN ACTION"]"#)
        }
    }

    static func form(_ body: Data) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    static func set(_ key: String, _ value: String, in meeting: inout [String: Any]) {
        guard let name = named[key] else { meeting[key] = value; return }
        meeting[name] = name == "name" || name == "start" ? value : (Int(value) ?? 0)
    }

    static func legacyMeeting(_ meeting: [String: Any]) -> [String: Any] {
        var wire = meeting.filter { !["id", "service_body", "name", "weekday", "start", "published"].contains($0.key) }
        wire["id_bigint"] = meeting["id"]
        wire["service_body_bigint"] = meeting["service_body"]
        wire["weekday_tinyint"] = meeting["weekday"]
        wire["start_time"] = meeting["start"]
        wire["meeting_name"] = meeting["name"]
        wire["published"] = meeting["published"]
        return wire
    }

    // MARK: - 3.x/4.x /api/v1

    func rest(_ request: LoopbackHTTPServer.Request, path: String) -> LoopbackHTTPServer.Behavior {
        let folder = generation.rawValue
        let token = RESTAdminReplay.token(folder)
        if request.method == "POST", path == "api/v1/auth/token" {
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
            guard body?["password"] == RESTAdminReplay.password else {
                return .respond(status: 401, headers: [:], body: FixtureCaptures.body(folder, "100-auth-token-bad-password.json"))
            }
            // A token that lives `tokenLifetime` (by default, all the test: the captured one's time is fixed).
            return Self.json(["access_token": token, "expires_at": Int(Date().timeIntervalSince1970) + tokenLifetime,
                              "token_type": "bearer", "user_id": 1])
        }
        if request.method == "POST", path == "api/v1/auth/refresh", request.headers["authorization"] == "Bearer " + token {
            return Self.json(["access_token": token, "expires_at": Int(Date().timeIntervalSince1970) + tokenLifetime,
                              "token_type": "bearer", "user_id": 1])
        }
        guard request.headers["authorization"] == "Bearer " + token, isSessionValid() else {
            return .respond(status: 401, headers: ["Content-Type": "application/json"], body: Data(#"{"message":"Unauthenticated."}"#.utf8))
        }
        let parts = path.split(separator: "/").map(String.init)
        let id = parts.count == 4 ? Int(parts[3]) : nil
        switch (request.method, parts.count > 2 ? parts[2] : "") {
        case ("GET", "users"):
            let all = locked { users() }
            guard let id else { return Self.json(all) }
            return all.first { ($0["id"] as? Int) == id }.map { Self.json($0) } ?? notFound()
        case ("POST", "users"):
            let body = ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]) ?? [:]
            // 3.x/4.x trim every string they receive (Laravel's TrimStrings middleware).
            let username = Self.trimmed(body["username"] as? String ?? "")
            if locked({ users().contains { $0["username"] as? String == username } }) {
                return Self.json(["message": "The username has already been taken.", "errors": ["username": ["The username has already been taken."]]],
                                 status: 422)
            }
            let loss = locked { takeLoss() }
            var created: [String: Any] = [:]
            apply(loss) {
                created = ["id": (users().compactMap { $0["id"] as? Int }.max() ?? 0) + 1, "username": username,
                           "type": body["type"] ?? "serviceBodyAdmin", "displayName": body["displayName"] ?? "",
                           "description": "", "email": "", "ownerId": NSNull()]
                addUser(created)        // the password is never kept
            }
            return lost(loss, Self.json(created, status: 201))
        case ("POST", "auth"): return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data())   // auth/logout
        case ("GET", "servicebodies"), ("GET", "formats"):
            let all = locked { resource(parts[2]) }
            guard let id else { return Self.json(all) }
            return all.first { ($0["id"] as? Int) == id }.map { Self.json($0) } ?? notFound()
        case ("POST", "servicebodies"), ("POST", "formats"):
            let body = ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]) ?? [:]
            if parts[2] == "formats", generation != .rest3, let refusal = locked({ duplicateFormatKey(body) }) { return refusal }
            let loss = locked { takeLoss() }
            var created = body.mapValues(Self.trimmedIfText)
            apply(loss) {
                created["id"] = (resource(parts[2]).compactMap { $0["id"] as? Int }.max() ?? 0) + 1
                addResource(parts[2], created)
            }
            return lost(loss, Self.json(created, status: 201))
        case ("GET", "meetings"):
            if id != nil, readFails() { return .respond(status: failingReadStatus, headers: [:], body: Data()) }
            if let id {
                guard let held = locked({ meeting(id) }) else { return notFound() }
                return Self.json(Self.restMeeting(held))
            }
            let body = request.query("serviceBodyIds").flatMap(Int.init)
            return Self.json(locked { allMeetings() }.filter { body == nil || $0["service_body"] as? Int == body }.map(Self.restMeeting))
        case ("POST", "meetings"):
            let loss = locked { takeLoss() }
            var created: [String: Any] = [:]
            apply(loss) {
                let newID = newID()
                created = Self.fromREST(request.body, into: ["id": newID, "published": 1])
                store(created, id: newID)
                recordWrite("comdef_change_type_new", newID, after: created)
            }
            return lost(loss, Self.json(Self.restMeeting(created), status: 201))
        case ("PATCH", "meetings"), ("PUT", "meetings"):
            let loss = locked { takeLoss() }
            guard let id, locked({ meeting(id) }) != nil else { return notFound() }
            apply(loss) {
                guard let before = meeting(id) else { return }
                let after = Self.fromREST(request.body, into: before)
                store(after, id: id)
                recordWrite("comdef_change_type_change", id, before: before, after: after)
            }
            return lost(loss, .respond(status: 204, headers: [:], body: Data()))
        case ("DELETE", "meetings"):
            let loss = locked { takeLoss() }
            guard let id, locked({ meeting(id) }) != nil else { return notFound() }
            apply(loss) {
                let before = meeting(id)
                remove(id)
                recordWrite("comdef_change_type_delete", id, before: before)
            }
            return lost(loss, .respond(status: 204, headers: [:], body: Data()))
        default:
            return notFound()
        }
    }

    /// 4.1.0 and 4.2.7 refuse a format whose key a format of the same language has already: bmlt-server
    /// `app/Rules/FormatTranslationKey.php:53-60` (`$fail(':attribute cannot be the same as another format\'s for the
    /// same language.')`, a 422 in Laravel's shape, as `121-meeting-create-invalid-422.json`). 3.1.2 has no such rule
    /// (`FormatController.php:119` at tag 3.1.2 only refuses VM, HY and TC). With the lock held.
    func duplicateFormatKey(_ body: [String: Any]) -> LoopbackHTTPServer.Behavior? {
        let held = resource("formats").flatMap { ($0["translations"] as? [[String: Any]]) ?? [] }
        let sent = (body["translations"] as? [[String: Any]]) ?? []
        let errors = sent.enumerated().compactMap { index, translation -> (String, [String])? in
            let key = Self.trimmed(translation["key"] as? String ?? ""), language = translation["language"] as? String
            guard held.contains(where: { $0["key"] as? String == key && $0["language"] as? String == language }) else { return nil }
            let attribute = "translations.\(index).key"
            return (attribute, ["\(attribute) cannot be the same as another format's for the same language."])
        }
        guard let first = errors.first else { return nil }
        let more = errors.count > 1 ? " (and \(errors.count - 1) more error\(errors.count > 2 ? "s" : ""))" : ""
        return Self.json(["message": first.1[0] + more, "errors": Dictionary(errors, uniquingKeysWith: { one, _ in one })], status: 422)
    }

    private func notFound() -> LoopbackHTTPServer.Behavior {
        .respond(status: 404, headers: ["Content-Type": "application/json"], body: FixtureCaptures.body(generation.rawValue, "128-meeting-404.json"))
    }

    static func fromREST(_ body: Data, into meeting: [String: Any]) -> [String: Any] {
        var meeting = meeting
        let object = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
        for (key, raw) in object {
            let value = Self.trimmedIfText(raw)       // TrimStrings
            switch key {
            case "name": meeting["name"] = value
            case "day": meeting["weekday"] = ((value as? Int) ?? 0) + 1
            case "startTime": meeting["start"] = "\(value):00".prefix(8).description
            case "serviceBodyId": meeting["service_body"] = value
            case "published": meeting["published"] = (value as? Bool) == false ? 0 : 1
            default: meeting[key] = value
            }
        }
        return meeting
    }

    /// A string as 3.x/4.x keep it: Laravel's `TrimStrings` middleware trims every string of a request.
    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    /// A JSON value as 3.x/4.x keep it: a string trimmed, anything else as it is.
    static func trimmedIfText(_ value: Any) -> Any {
        guard let text = value as? String else { return value }
        return trimmed(text)
    }

    static func restMeeting(_ meeting: [String: Any]) -> [String: Any] {
        var wire = meeting.filter { !["id", "service_body", "name", "weekday", "start", "published"].contains($0.key) }
        wire["id"] = meeting["id"]
        wire["serviceBodyId"] = meeting["service_body"]
        wire["name"] = meeting["name"]
        wire["day"] = ((meeting["weekday"] as? Int) ?? 1) - 1
        wire["startTime"] = (meeting["start"] as? String).map { String($0.prefix(5)) }
        wire["published"] = (meeting["published"] as? Int) != 0
        if wire["formatIds"] == nil { wire["formatIds"] = [Int]() }
        if wire["venueType"] == nil { wire["venueType"] = 1 }
        return wire
    }
}
