import Foundation
import LoopbackHTTPServer

/// The 2.16.6 server's replies: semantic reads from the read captures, `json.php` by action with a cookie session.
public enum LegacyAdminReplay {
    /// The password the captures were made with.
    public static let password = "CoreysGoryStory"

    static func reply(_ file: String, _ contentType: String = "application/json; charset=UTF-8",
                      cookie: Bool = false) -> LoopbackHTTPServer.Behavior {
        var headers = ["Content-Type": contentType]
        if cookie { headers["Set-Cookie"] = "PHPSESSID=s3ss10n; path=/" }
        return .respond(status: 200, headers: headers, body: FixtureCaptures.body("rootserver", file))
    }

    /// A capture's JSON with `change` applied, re-serialized (the server's state after a write the capture predates).
    static func edited(_ file: String, _ change: (inout Any) -> Void) -> LoopbackHTTPServer.Behavior {
        guard var value = try? JSONSerialization.jsonObject(with: FixtureCaptures.body("rootserver", file)) else { return reply(file) }
        change(&value)
        return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
    }

    /// Starts a loopback server that answers as the captured server did, following the writes.
    public static func start() throws -> LoopbackHTTPServer {
        // What the server holds now: 2339 as captured or as modified; 2693 present, or deleted.
        let meeting2339 = ReplayState("captured"), meeting2693 = ReplayState("present")
        return try LoopbackHTTPServer { request in
            if request.path.hasSuffix("GetLangs.php") { return reply("json_GetLangs.json") }
            if request.path.contains("client_interface") {
                switch request.query("switcher") {
                case "GetServerInfo": return reply("json_GetServerInfo.json")
                case "GetServiceBodies": return reply("json_GetServiceBodies.json")
                case "GetFormats": return reply("json_GetFormats_show_all.json")
                case "GetSearchResults": return reply("json_GetSearchResults_meeting_ids.json")
                case "GetChanges" where request.query("meeting_id") == "2339": return reply("json_GetChanges_meeting_id.json")
                case "GetChanges":
                    // Captured after the restore (meeting_exists 1); while 2693 is deleted the server says 0.
                    let deleted = meeting2693.value == "deleted"
                    return edited("json_GetChanges_all.json") { value in
                        value = ((value as? [[String: Any]]) ?? []).map { change in
                            var change = change
                            if deleted && change["meeting_id"] as? String == "2693" { change["meeting_exists"] = "0" }
                            return change
                        }
                    }
                default: return .json("[]")
                }
            }
            let form = String(decoding: request.body, as: UTF8.self).split(separator: "&")
            let action = request.query("admin_action") ?? form.first { $0.hasPrefix("admin_action=") }.map { String($0.dropFirst(13)) }
            if action == "login" {
                let good = form.contains("c_comdef_admin_password=\(password)")
                return reply(good ? "admin_json_login.txt" : "admin_json_login_bad_password.txt", "text/html; charset=UTF-8", cookie: good)
            }
            guard request.headers["cookie"]?.contains("PHPSESSID=s3ss10n") == true else {
                return reply("admin_json_noauth_get_permissions.txt", "text/html; charset=UTF-8")
            }
            switch action {
            case "get_permissions": return reply("admin_json_get_permissions.json")
            case "get_user_info": return reply("admin_json_get_user_info.json")
            case "modify_meeting":
                meeting2339.set("modified")
                return reply("admin_json_modify_meeting.json")
            case "add_meeting": return reply("admin_json_add_meeting.json")
            case "delete_meeting":
                meeting2693.set("deleted")
                return reply("admin_json_delete_meeting.json")
            case "restore_deleted_meeting":
                meeting2693.set("present")
                return reply("admin_json_restore_deleted_meeting.json")
            case "rollback_meeting_to_before_change":
                meeting2339.set("captured")
                return reply("admin_json_rollback_meeting_to_before_change.json")
            case "logout": return reply("admin_json_logout.txt", "text/html; charset=UTF-8")
            case "get_meetings":
                if request.query("meeting_ids[]") == "2339" {
                    guard meeting2339.value == "modified" else { return reply("admin_json_get_meetings_ids.json") }
                    // The values admin_json_modify_meeting.json reports as new.
                    return edited("admin_json_get_meetings_ids.json") { value in
                        guard var meeting = value as? [String: Any] else { return }
                        meeting["meeting_name"] = "Recovery At Work (Updated)"
                        meeting["formats"] = "O,M,WC"
                        meeting["start_time"] = "10:30:00"
                        value = meeting
                    }
                }
                // Only 2339 was captured; the new meeting is answered from its semantic search capture.
                let data = FixtureCaptures.body("rootserver", "json_GetSearchResults_new_meeting.json")
                let first = ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.first ?? [String: Any]()
                return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: first)) ?? Data("{}".utf8))
            default: return .json(#"["BAD ADMIN ACTION"]"#)
            }
        }
    }
}
