import Foundation
import LoopbackHTTPServer

/// A stateful stand-in of one root server holding one meeting that two administrators edit (issue 47): this client's
/// login, and "another administrator" the test drives directly (a second login on the server, or the same login on
/// another device). Built from the captures in `../shared/fixtures`:
/// - 2.16.6 (`rootserver`): the meeting is `admin_json_get_meetings_ids.json`'s (2339); `json.php` logs in as
///   `admin_json_login.txt`, answers `get_permissions` / `get_user_info` with their captures, and `modify_meeting` in
///   the shape of `admin_json_modify_meeting.json` (the changed fields with their old and new values). A
///   `modify_meeting` of a meeting the server no longer holds fails with HTTP 500 as 2.16.6 does (its
///   `c_comdef_admin_xml_handler::process_meeting_modify` calls `GetID()` on the null `GetOneMeeting` returns);
///   `get_meetings` of it answers `[]`.
/// - 3.1.2, 4.1.0, 4.2.7 (`rootserver-3x`, `-4x`, `-42`): the meeting is `114-meeting-2.json`'s (2); `PATCH` answers 204
///   as `116-meeting-2-patch.empty` and trims every string (Laravel's `TrimStrings`); a meeting the server no longer holds
///   answers 404 `128-meeting-404.json` to `GET`, `PATCH` and `DELETE` (`127-meeting-new-after-delete-404.json`).
/// - hidden fields (the contacts and `email_contact`; the stock templates with `visibility` 1, bmlt-server
///   `create_initial_schema.php:100-105`): 3.1.2 and 4.x leave them `""` in every semantic search, a token or not
///   (`server-truths/312-`/`427-GetSearchResults-hidden-fields-public.json`, `-with-bearer.json`; `MeetingResource.php:90-94`),
///   while `GET /api/v1/meetings/{id}` holds their values (`312-`/`427-api-v1-meetings-1314-admin.json`). 2.16.6 gives them
///   to a search that carries the administrator's session cookie as `observer_only#@-@#<prompt>#@-@#<value>` and blanks
///   them for any other (`client_interface/csv/search_results_csv.php:495-503`, tag 2.16.6); its `get_meetings` holds them.
///   With `contacts: true` the meeting holds meeting 1314's contact, as those captures show it (`contact_name_1`
///   "Robin", `contact_phone_1` "631-944-0845"), from before any change the test makes (no change record).
/// - every generation: `GetServerInfo`, `GetFormats`, `GetServiceBodies` from their captures, and a change log
///   (`GetChanges`) in the record shape of `json_GetChanges_meeting_id.json` / `201-GetChanges-meeting_id-2.json`
///   (user, time, type, before/after images), following the writes.
public final class TwoAdminsStandIn: @unchecked Sendable {
    public enum Generation: String, Sendable, CaseIterable {
        case legacy = "rootserver", rest3 = "rootserver-3x", rest4 = "rootserver-4x", rest42 = "rootserver-42"
    }

    public let generation: Generation
    public private(set) var server: LoopbackHTTPServer!
    private let lock = NSLock()
    /// The meeting as the server holds it, in the generation's own wire object; `nil` once deleted.
    private var held: [String: Any]?
    private var log: [[String: Any]] = []
    private var nextChange = 30000
    private var beforeWrite: (@Sendable (TwoAdminsStandIn) -> Void)?
    private var afterRead: (@Sendable (TwoAdminsStandIn) -> Void)?

    /// The other administrator, as the change log names them.
    public static let otherAdmin = "Another Administrator"

    public init(_ generation: Generation, contacts: Bool = false) throws {
        self.generation = generation
        let file = generation == .legacy ? "admin_json_get_meetings_ids.json" : "114-meeting-2.json"
        held = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, file))) as? [String: Any]
        if contacts {
            held?["contact_name_1"] = "Robin"
            held?["contact_phone_1"] = "631-944-0845"
        }
        server = try LoopbackHTTPServer { [unowned self] request in self.answer(request) }
    }

    public func stop() { server.stop() }
    public var rootURL: URL { server.baseURL.appendingPathComponent("main_server") }
    /// The meeting's id (2339 on 2.16.6, 2 on 3.x/4.x, as captured).
    public var meetingID: Int { generation == .legacy ? 2339 : 2 }
    /// This client's login, as the change log names it (the captured logins).
    public var userName: String { generation == .legacy ? "Nassau Area Administrator" : "Server Administrator" }

    // MARK: - What the tests do and read

    /// The value the server holds for a semantic wire key (`meeting_name`, `comments`, `start_time` as `HH:MM:SS`…);
    /// `nil` when empty or when the meeting is gone.
    public func value(_ key: String) -> String? {
        lock.withLock {
            guard let held else { return nil }
            let raw = held[Self.native(key, generation)]
            switch raw {
            case nil, is NSNull: return nil
            case let text as String where key == "start_time" && generation != .legacy: return text.count == 5 ? text + ":00" : text
            case let text as String: return text.isEmpty ? nil : text
            case let number as NSNumber: return number.stringValue
            default: return "\(raw!)"
            }
        }
    }

    /// Whether the server still holds the meeting.
    public var holdsMeeting: Bool { lock.withLock { held != nil } }
    /// How many meetings the server holds (0 or 1: nothing is ever made again).
    public var meetingCount: Int { holdsMeeting ? 1 : 0 }
    /// The meeting writes received (requests other than GET, logins and logouts aside).
    public var writeRequests: Int {
        server.requests.filter { $0.method != "GET" && !$0.path.contains("/auth/") && !String(decoding: $0.body, as: UTF8.self).contains("admin_action=login") }.count
    }

    /// The other administrator sets a field (semantic wire key, semantic text: `start_time` as `HH:MM:SS`).
    public func otherAdminSets(_ key: String, _ value: String) {
        lock.withLock {
            guard var meeting = held else { return }
            let before = meeting
            meeting[Self.native(key, generation)] = Self.nativeValue(key, value, generation)
            held = meeting
            record("comdef_change_type_change", user: (7, Self.otherAdmin), before: before, after: meeting)
        }
    }

    /// The other administrator deletes the meeting.
    public func otherAdminDeletes() {
        lock.withLock {
            guard let before = held else { return }
            held = nil
            record("comdef_change_type_delete", user: (7, Self.otherAdmin), before: before, after: nil)
        }
    }

    /// Runs `change` when the next write arrives, before the server applies it: another change slipping in between
    /// the client's edit-conflict check and its write.
    public func beforeNextWrite(_ change: @escaping @Sendable (TwoAdminsStandIn) -> Void) { lock.withLock { beforeWrite = change } }

    /// Runs `change` right after the next semantic read of the meeting (`GetSearchResults`) is answered: another
    /// administrator saving between a host's read and its save.
    public func afterNextRead(_ change: @escaping @Sendable (TwoAdminsStandIn) -> Void) { lock.withLock { afterRead = change } }

    // MARK: - Answers

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let path = request.path.replacingOccurrences(of: "/main_server/", with: "")
        if path.hasSuffix("GetLangs.php") { return capture("json_GetLangs.json") }
        if path.hasPrefix("client_interface") { return semantic(request) }
        let isWrite = request.method != "GET" && !path.contains("/auth/")
            && !String(decoding: request.body, as: UTF8.self).contains("admin_action=login")
        if isWrite, let change = lock.withLock({ () -> (@Sendable (TwoAdminsStandIn) -> Void)? in defer { beforeWrite = nil }; return beforeWrite }) {
            change(self)
        }
        return generation == .legacy ? legacy(request) : rest(request, path: path)
    }

    private func capture(_ file: String, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"], body: FixtureCaptures.body(generation.rawValue, file))
    }

    private static func json(_ value: Any, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"], body: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
    }

    private func semantic(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let legacy = generation == .legacy
        switch request.query("switcher") {
        case "GetServerInfo": return capture(legacy ? "json_GetServerInfo.json" : "001-GetServerInfo.json")
        case "GetServiceBodies": return capture(legacy ? "json_GetServiceBodies.json" : "004-GetServiceBodies.json")
        case "GetFormats": return capture(legacy ? "json_GetFormats_show_all.json" : "003-GetFormats-show_all.json")
        case "GetChanges": return Self.json(lock.withLock { log })
        // The host reads the meeting as every generation's semantic search gives it (`json_GetSearchResults_meeting_ids.json`,
        // `012-GetSearchResults-meeting_ids.json`: semantic keys, text values).
        case "GetSearchResults":
            let cookie = request.headers["cookie"]?.contains("PHPSESSID=tw0adm1ns") == true
            let answer = Self.json(lock.withLock { held.map { [semanticForm($0, adminCookie: cookie)] } ?? [] })
            if let change = lock.withLock({ () -> (@Sendable (TwoAdminsStandIn) -> Void)? in defer { afterRead = nil }; return afterRead }) {
                change(self)
            }
            return answer
        default: return .json("[]")
        }
    }

    private func legacy(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let form = Self.form(request.body)
        let action = request.query("admin_action") ?? form.first { $0.0 == "admin_action" }?.1
        if action == "login" {
            return .respond(status: 200, headers: ["Content-Type": "text/html", "Set-Cookie": "PHPSESSID=tw0adm1ns; path=/"],
                            body: FixtureCaptures.body("rootserver", "admin_json_login.txt"))
        }
        guard request.headers["cookie"]?.contains("PHPSESSID=tw0adm1ns") == true else {
            return .respond(status: 200, headers: [:], body: FixtureCaptures.body("rootserver", "admin_json_noauth_get_permissions.txt"))
        }
        switch action {
        case "get_permissions": return capture("admin_json_get_permissions.json")
        case "logout":
            return .respond(status: 200, headers: ["Content-Type": "text/html"], body: FixtureCaptures.body("rootserver", "admin_json_logout.txt"))
        case "get_user_info": return capture("admin_json_get_user_info.json")
        case "get_meetings":
            return Self.json(lock.withLock { held.map { [$0] } ?? [] })
        case "modify_meeting":
            return lock.withLock { () -> LoopbackHTTPServer.Behavior in
                guard var meeting = held else {
                    return .respond(status: 500, headers: ["Content-Type": "text/html"], body: Data())   // GetID() on null
                }
                let before = meeting
                var fields: [[String: Any]] = []
                for pair in form where pair.0 == "meeting_field[]" {
                    let parts = pair.1.split(separator: ",", maxSplits: 1).map(String.init)
                    let key = parts[0], value = parts.count > 1 ? parts[1] : ""
                    let old = meeting[key].map { "\($0)" } ?? ""
                    meeting[key] = value
                    if key == "formats" {
                        // 2.16.6 keeps the formats of the server's language the keys name, unknown keys dropped
                        // (`c_comdef_admin_xml_handler.class.php:1263-1295`), and reads them back as keys and shared ids
                        // (`search_results_csv.php:454-475`): the ids from the captured format list.
                        let known = value.split(separator: ",").compactMap { key in Self.legacyFormatIDs[String(key)].map { (String(key), $0) } }
                        meeting[key] = known.map(\.0).joined(separator: ",")
                        meeting["format_shared_id_list"] = known.map { String($0.1) }.joined(separator: ",")
                    }
                    if old != value { fields.append(["@attributes": ["key": key], "oldValue": old, "newValue": value]) }
                }
                held = meeting
                record("comdef_change_type_change", user: nil, before: before, after: meeting)
                return Self.json(["changeMeeting": ["id": meetingID], "field": fields])
            }
        case "delete_meeting":
            return lock.withLock {
                guard let before = held else { return .json(#"["ERROR"]"#) }
                held = nil
                record("comdef_change_type_delete", user: nil, before: before, after: nil)
                return capture("admin_json_delete_meeting.json")
            }
        default: return .json(#"["BAD ADMIN ACTION"]"#)
        }
    }

    private func rest(_ request: LoopbackHTTPServer.Request, path: String) -> LoopbackHTTPServer.Behavior {
        let token = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "101-auth-token-serveradmin.json")))
            .flatMap { $0 as? [String: Any] }?["access_token"] as? String ?? ""
        switch (request.method, path) {
        case ("POST", "api/v1/auth/token"):
            return Self.json(["access_token": token, "expires_at": Int(Date().timeIntervalSince1970) + 86_400, "token_type": "bearer", "user_id": 1])
        case _ where request.headers["authorization"] != "Bearer " + token:
            return capture("180-meetings-no-token-401.json", status: 401)
        case ("GET", "api/v1/users/1"):
            let users = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "150-users.json"))) as? [[String: Any]]
            return Self.json(users?.first { ($0["id"] as? Int) == 1 } ?? [:])
        case ("GET", "api/v1/servicebodies"): return capture("140-servicebodies.json")
        case ("POST", "api/v1/auth/logout"): return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data())
        case ("GET", "api/v1/meetings/\(meetingID)"):
            return lock.withLock { held.map { Self.json($0) } ?? capture("128-meeting-404.json", status: 404) }
        case ("PATCH", "api/v1/meetings/\(meetingID)"):
            let body = ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]) ?? [:]
            return lock.withLock {
                guard var meeting = held else { return capture("127-meeting-new-after-delete-404.json", status: 404) }
                let before = meeting
                for (key, value) in body {
                    meeting[key] = (value as? String).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? value   // TrimStrings
                }
                held = meeting
                record("comdef_change_type_change", user: nil, before: before, after: meeting)
                return .respond(status: 204, headers: [:], body: FixtureCaptures.body(generation.rawValue, "116-meeting-2-patch.empty"))
            }
        case ("DELETE", "api/v1/meetings/\(meetingID)"):
            return lock.withLock {
                guard let before = held else { return capture("128-meeting-404.json", status: 404) }
                held = nil
                record("comdef_change_type_delete", user: nil, before: before, after: nil)
                return .respond(status: 204, headers: [:], body: Data())
            }
        default: return capture("128-meeting-404.json", status: 404)
        }
    }

    // MARK: - The change log and the wire forms

    /// A change record as `GetChanges` gives it, newest first (with the lock held).
    private func record(_ type: String, user: (Int, String)?, before: [String: Any]?, after: [String: Any]?) {
        let who = user ?? (generation == .legacy ? 4 : 1, userName)
        nextChange += 1
        var images: [String: Any] = [:]
        if let before { images["before"] = image(before) }
        if let after { images["after"] = image(after) }
        log.insert(["date_int": String(Int(Date().timeIntervalSince1970)), "change_type": type, "change_id": String(nextChange),
                    "meeting_id": String(meetingID), "meeting_name": image(after ?? before ?? [:])["meeting_name"] ?? "",
                    "user_id": String(who.0), "user_name": who.1, "service_body_id": generation == .legacy ? "1002" : "1005",
                    "service_body_name": "", "meeting_exists": held == nil ? "0" : "1", "details": "", "json_data": images], at: 0)
    }

    /// 2.16.6's English formats, key → shared id (`rootserver/json_GetFormats_show_all.json`).
    static let legacyFormatIDs: [String: Int] = {
        let list = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body("rootserver", "json_GetFormats_show_all.json"))) as? [[String: Any]]
        var ids: [String: Int] = [:]
        for format in list ?? [] where format["lang"] as? String == "en" {
            if let key = format["key_string"] as? String, let id = Int("\(format["id"] ?? "")") { ids[key] = id }
        }
        return ids
    }()

    /// The fields hidden from searches, with their stock prompts (`create_initial_schema.php:100-105`).
    static let hiddenFields = ["contact_name_1": "Contact 1 Name", "contact_phone_1": "Contact 1 Phone", "contact_email_1": "Contact 1 Email",
                               "contact_name_2": "Contact 2 Name", "contact_phone_2": "Contact 2 Phone", "contact_email_2": "Contact 2 Email",
                               "email_contact": "Email"]

    /// The meeting in the semantic interface's form (with the lock held), hidden fields as the generation gives them.
    private func semanticForm(_ meeting: [String: Any], adminCookie: Bool) -> [String: String] {
        var out: [String: String] = [:]
        for (key, raw) in meeting where !(raw is NSNull) && !(raw is [String: Any]) && !(raw is [Any]) { out[key] = "\(raw)" }
        for (key, prompt) in Self.hiddenFields {
            guard generation == .legacy else { out[key] = ""; continue }       // 3.x/4.x: "" whoever asks
            if let value = out[key], !value.isEmpty { out[key] = adminCookie ? "observer_only#@-@#\(prompt)#@-@#\(value)" : "" }
        }
        out["email"] = nil
        guard generation != .legacy else { return out }
        for (native, semantic) in [("name", "meeting_name"), ("startTime", "start_time"), ("day", "weekday_tinyint"), ("id", "id_bigint"),
                                   ("serviceBodyId", "service_body_bigint"), ("venueType", "venue_type"), ("worldId", "worldid_mixed"),
                                   ("duration", "duration_time")] {
            out[native] = nil
            guard let raw = meeting[native], !(raw is NSNull) else { continue }
            out[semantic] = "\(raw)"
        }
        out["start_time"] = out["start_time"].map { $0.count == 5 ? $0 + ":00" : $0 }
        out["duration_time"] = out["duration_time"].map { $0.count == 5 ? $0 + ":00" : $0 }
        out["weekday_tinyint"] = out["weekday_tinyint"].flatMap(Int.init).map { String($0 + 1) }
        out["published"] = (meeting["published"] as? Bool) == false ? "0" : "1"
        out["format_shared_id_list"] = ((meeting["formatIds"] as? [Int]) ?? []).map(String.init).joined(separator: ",")
        out["temporarilyVirtual"] = nil
        return out
    }

    /// A meeting as a change record's image: semantic keys, text values (as every generation records them).
    private func image(_ meeting: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for key in ["meeting_name", "comments", "start_time", "location_text", "weekday_tinyint"] {
            guard let raw = meeting[Self.native(key, generation)], !(raw is NSNull) else { continue }
            out[key] = "\(raw)"
        }
        out["id_bigint"] = String(meetingID)
        return out
    }

    /// The generation's own key for a semantic key.
    static func native(_ key: String, _ generation: Generation) -> String {
        guard generation != .legacy else { return key }
        switch key {
        case "meeting_name": return "name"
        case "start_time": return "startTime"
        case "weekday_tinyint": return "day"
        default: return key
        }
    }

    static func nativeValue(_ key: String, _ value: String, _ generation: Generation) -> Any {
        guard generation != .legacy else { return value }
        switch key {
        case "start_time": return String(value.prefix(5))
        case "weekday_tinyint": return (Int(value) ?? 1) - 1
        default: return value
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
}
