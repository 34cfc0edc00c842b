import BMLTKit
import Foundation
import LoopbackHTTPServer
import Testing

/// Issue 4's acceptance flow, written only from design/API.md's names (no `@testable`): log in as a service-body
/// editor, edit a meeting and save, read its change list, roll it back, create a meeting, delete it, restore it,
/// log out. The fire-and-forget calls (`save`, `rollback`, `deleteMeeting`, `restoreDeletedMeeting`, `logout`) are
/// followed through their notifications only, as a host app would. The server is the real 2.16.6 (legacy
/// `json.php`, cookie session) or 3.1.2 (REST `/api/v1`, bearer token) replayed over HTTP on 127.0.0.1 from the
/// captures, in the order they were recorded.
@Suite("API contract: administration against replayed real root servers", .enabled(if: RealServerReplay.isAvailable), .serialized)
@MainActor
struct AdminReplayTests {
    /// One notification as the program saw it.
    struct Seen: Sendable {
        let name: String
        let meeting: BMLTMeeting?
        let meetingID: Int?
        let fieldChanges: [BMLTFieldChange]?
        let isLoggedIn: Bool?
        let error: BMLTError?
    }

    /// Records every administration notification of one connection, in order.
    @MainActor final class Observer {
        private(set) var seen: [Seen] = []
        private var tokens: [NSObjectProtocol] = []
        static let names: [Notification.Name] = [.bmltAdminLoginChanged, .bmltMeetingSaved, .bmltMeetingAdded,
                                                 .bmltMeetingDeleted, .bmltChangeListResults, .bmltError]
        init(_ connection: BMLTConnection) {
            tokens = Self.names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: connection, queue: nil) { [weak self] note in
                    let seen = Seen(name: note.name.rawValue.replacingOccurrences(of: "org.bmlt.kit.", with: ""),
                                    meeting: note.bmltMeeting, meetingID: note.bmltMeetingID, fieldChanges: note.bmltFieldChanges,
                                    isLoggedIn: note.bmltIsLoggedIn, error: note.bmltError)
                    MainActor.assumeIsolated { self?.seen.append(seen) }
                }
            }
        }
        func stop() { tokens.forEach(NotificationCenter.default.removeObserver) }
        func last(_ name: String) -> Seen? { seen.last { $0.name == name } }
    }

    /// Waits until the connection has nothing in flight (each fire-and-forget call then has posted its outcome).
    func settle(_ connection: BMLTConnection) async throws {
        let deadline = Date().addingTimeInterval(30)
        while !connection.inFlightRequests.isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        #expect(connection.inFlightRequests.isEmpty)
    }

    @Test("2.16.6 over the legacy json.php: the whole flow, notifications in order, stores consistent")
    func legacy() async throws {
        let http = try LegacyReplay.start()
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"))
        _ = try await connection.validate()
        let observer = Observer(connection)
        defer { observer.stop() }

        try await connection.login(username: "nasc_admin", password: LegacyReplay.password)
        #expect(connection.admin.isLoggedIn)
        #expect(connection.admin.permissions.map(\.serviceBodyID) == [1002])

        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [2339]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first)
        #expect(connection.admin.canEdit(meeting))
        var draft = meeting.editable()
        draft.name = "Recovery At Work (Updated)"
        connection.save(draft)
        try await settle(connection)
        let saved = try #require(observer.last("meeting.saved"))
        #expect(saved.meeting?.id == 2339 && saved.meeting?.name == "Recovery At Work (Updated)")
        #expect(saved.fieldChanges?.contains(BMLTFieldChange(key: "meeting_name", before: "Recovery At Work",
                                                             after: "Recovery At Work (Updated)")) == true)
        #expect(connection.search.meetings.first { $0.id == 2339 }?.name == "Recovery At Work (Updated)")

        let changes = try await connection.changes(meetingID: 2339)
        let change = try #require(changes.first { $0.before != nil && $0.after != nil })
        connection.rollback(meetingID: 2339, toBefore: change)
        try await settle(connection)
        #expect(observer.last("meeting.saved")?.meeting?.name == "Recovery At Work", "the rollback's reply is the meeting as it was")

        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "Fixture Test Meeting"
        fresh.weekday = .wednesday
        connection.save(fresh)
        try await settle(connection)
        let added = try #require(observer.last("meeting.added")?.meeting)
        #expect(added.id == 2693 && added.name == "Fixture Test Meeting")

        connection.deleteMeeting(id: 2693)
        try await settle(connection)
        #expect(observer.last("meeting.deleted")?.meetingID == 2693)
        #expect(!connection.search.meetings.contains { $0.id == 2693 })

        let deletion = try #require(try await connection.deletedMeetings().first { $0.meetingID == 2693 })
        connection.restoreDeletedMeeting(deletion)
        try await settle(connection)
        #expect(observer.last("meeting.added")?.meeting?.id == 2693)

        connection.logout()
        try await settle(connection)
        #expect(!connection.admin.isLoggedIn && connection.admin.permissions.isEmpty)

        #expect(observer.seen.map(\.name) == ["admin.loginChanged", "meeting.saved", "changes.results", "meeting.saved",
                                              "meeting.added", "meeting.deleted", "changes.results", "meeting.added",
                                              "admin.loginChanged"])
        #expect(observer.seen.first?.isLoggedIn == true && observer.seen.last?.isLoggedIn == false)
        #expect(connection.admin.lastError == nil && connection.changes.lastError == nil)

        // The server saw the legacy interface only, with the session cookie, and the password only in the login's body.
        let admin = http.requests.filter { $0.target.contains("json.php") }
        #expect(admin.first?.method == "POST" && admin.count >= 8)
        #expect(admin.dropFirst().allSatisfy { $0.headers["cookie"]?.contains("PHPSESSID=s3ss10n") == true })
        #expect(!http.requests.contains { $0.target.contains("/api/v1") })
        #expect(http.requests.allSatisfy { !$0.target.contains("CoreysGoryStory") })
        #expect(admin.dropFirst().allSatisfy { !String(decoding: $0.body, as: UTF8.self).contains("CoreysGoryStory") })
    }

    @Test("3.1.2 over REST /api/v1: the whole flow, rollback by PUT and restore by POST of before-images")
    func rest() async throws {
        let http = try RESTReplay.start()
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"))
        _ = try await connection.validate()
        let observer = Observer(connection)
        defer { observer.stop() }

        try await connection.login(username: "serveradmin", password: RESTReplay.password)
        #expect(connection.admin.isLoggedIn)

        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        #expect(connection.admin.canEdit(meeting))
        var draft = meeting.editable()
        draft.name = "Nothing Macho (edited)"
        draft.comments = "Edited via REST PATCH"
        draft.startTime = BMLTTimeOfDay(hour: 14, minute: 30)
        connection.save(draft)
        try await settle(connection)
        let saved = try #require(observer.last("meeting.saved"))
        #expect(saved.meeting?.name == "Nothing Macho (edited)")
        #expect(Set(saved.fieldChanges?.map(\.key) ?? []) == ["meeting_name", "start_time", "comments"])
        #expect(connection.search.meetings.first { $0.id == 2 }?.name == "Nothing Macho (edited)")

        let change = try #require(try await connection.changes(meetingID: 2).first)
        #expect(change.before?.name == "Nothing Macho" && change.after?.name == "Nothing Macho (edited)")
        connection.rollback(meetingID: 2, toBefore: change)
        try await settle(connection)
        #expect(observer.last("meeting.saved")?.meeting?.name == "Nothing Macho")

        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "Fixture Test Meeting"
        fresh.weekday = .tuesday
        fresh.startTime = BMLTTimeOfDay(hour: 19)
        fresh.duration = 3600
        connection.save(fresh)
        try await settle(connection)
        #expect(observer.last("meeting.added")?.meeting?.id == 2693)

        connection.deleteMeeting(id: 2693)
        try await settle(connection)
        #expect(observer.last("meeting.deleted")?.meetingID == 2693)

        let deletion = try #require(try await connection.deletedMeetings().first { $0.meetingID == 2693 })
        connection.restoreDeletedMeeting(deletion)
        try await settle(connection)
        #expect(observer.last("meeting.added")?.meeting?.name == "Fixture Test Meeting")

        connection.logout()
        try await settle(connection)
        #expect(!connection.admin.isLoggedIn)

        #expect(observer.seen.map(\.name) == ["admin.loginChanged", "meeting.saved", "changes.results", "meeting.saved",
                                              "meeting.added", "meeting.deleted", "changes.results", "meeting.added",
                                              "admin.loginChanged"])
        #expect(connection.admin.lastError == nil)

        // REST only: the writes by method, the token only in the Authorization header, never a legacy admin call.
        let rest = http.requests.filter { $0.target.contains("/api/v1/") }
        #expect(!http.requests.contains { $0.target.contains("json.php") })
        #expect(rest.filter { $0.method != "GET" }.map { "\($0.method) \(RESTReplay.path($0))" } == [
            "POST api/v1/auth/token", "PATCH api/v1/meetings/2", "PUT api/v1/meetings/2", "POST api/v1/meetings",
            "DELETE api/v1/meetings/2693", "POST api/v1/meetings", "POST api/v1/auth/logout"])
        #expect(rest.dropFirst().allSatisfy { $0.headers["authorization"] == "Bearer " + RESTReplay.token })
        #expect(http.requests.allSatisfy { !$0.target.contains(RESTReplay.password) && !$0.target.contains("mQ5Ih") })
    }
}

/// The 2.16.6 server's replies: semantic reads from the read captures, `json.php` by action with a cookie session.
enum LegacyReplay {
    static let password = "CoreysGoryStory"

    static func reply(_ file: String, _ contentType: String = "application/json; charset=UTF-8",
                      cookie: Bool = false) -> LoopbackHTTPServer.Behavior {
        var headers = ["Content-Type": contentType]
        if cookie { headers["Set-Cookie"] = "PHPSESSID=s3ss10n; path=/" }
        return .respond(status: 200, headers: headers, body: RealServerReplay.servers[0].body(file))
    }

    /// A capture's JSON with `change` applied, re-serialized (the server's state after a write the capture predates).
    static func edited(_ file: String, _ change: (inout Any) -> Void) -> LoopbackHTTPServer.Behavior {
        guard var value = try? JSONSerialization.jsonObject(with: RealServerReplay.servers[0].body(file)) else { return reply(file) }
        change(&value)
        return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
    }

    static func start() throws -> LoopbackHTTPServer {
        // What the server holds now: 2339 as captured or as modified; 2693 present, or deleted.
        let meeting2339 = Current("captured"), meeting2693 = Current("present")
        return try LoopbackHTTPServer { request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            if request.path.hasSuffix("GetLangs.php") { return reply("json_GetLangs.json") }
            if request.path.contains("client_interface") {
                switch query["switcher"] {
                case "GetServerInfo": return reply("json_GetServerInfo.json")
                case "GetServiceBodies": return reply("json_GetServiceBodies.json")
                case "GetFormats": return reply("json_GetFormats_show_all.json")
                case "GetSearchResults": return reply("json_GetSearchResults_meeting_ids.json")
                case "GetChanges" where query["meeting_id"] == "2339": return reply("json_GetChanges_meeting_id.json")
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
            let action = query["admin_action"] ?? form.first { $0.hasPrefix("admin_action=") }.map { String($0.dropFirst(13)) }
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
                if query["meeting_ids[]"] == "2339" {
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
                let data = RealServerReplay.servers[0].body("json_GetSearchResults_new_meeting.json")
                let first = ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.first ?? [String: Any]()
                return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: first)) ?? Data("{}".utf8))
            default: return .json(#"["BAD ADMIN ACTION"]"#)
            }
        }
    }
}

/// The 3.1.2 server's replies: semantic reads and `/api/v1` by method and path, the meeting's state following the writes.
enum RESTReplay {
    static let password = "CoreysGoryStory"
    static let token = "3|mQ5IhaaN52kHdUnxiD0GpdGWTmC8jH0xgo7yjIEee6a01ac2"

    static func path(_ request: LoopbackHTTPServer.Request) -> String {
        request.path.replacingOccurrences(of: "/main_server/", with: "")
    }

    static func reply(_ file: String, _ status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"], body: RealServerReplay.servers[1].body(file))
    }

    static func start() throws -> LoopbackHTTPServer {
        let meeting2 = Current("114-meeting-2.json")
        return try LoopbackHTTPServer { request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            let bearer = request.headers["authorization"] == "Bearer " + token
            switch (request.method, path(request)) {
            case ("GET", let read) where read.hasPrefix("client_interface/json"):
                switch query["switcher"] {
                case "GetServerInfo": return reply("001-GetServerInfo.json")
                case "GetServiceBodies": return reply("004-GetServiceBodies.json")
                case "GetFormats": return reply("003-GetFormats-show_all.json")
                case "GetSearchResults": return reply("012-GetSearchResults-meeting_ids.json")
                case "GetChanges": return reply(query["meeting_id"] == "2" ? "201-GetChanges-meeting_id-2.json" : "200-GetChanges-after-edits.json")
                default: return .json("[]")
                }
            case ("POST", "api/v1/auth/token"):
                let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
                return body?["password"] == password ? reply("101-auth-token-serveradmin.json") : reply("100-auth-token-bad-password.json", 401)
            case _ where !bearer:
                return reply("180-meetings-no-token-401.json", 401)
            case ("POST", "api/v1/auth/refresh"): return reply("102-auth-refresh.json")
            case ("POST", "api/v1/auth/logout"): return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data())
            case ("GET", "api/v1/users/1"):
                let users = (try? JSONSerialization.jsonObject(with: RealServerReplay.servers[1].body("150-users.json"))) as? [[String: Any]]
                let admin = users?.first { ($0["id"] as? Int) == 1 } ?? [:]
                return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: admin)) ?? Data())
            case ("GET", "api/v1/servicebodies"): return reply("140-servicebodies.json")
            case ("PATCH", "api/v1/meetings/2"):
                meeting2.set("117-meeting-2-after-patch.json")
                return .respond(status: 204, headers: [:], body: Data())
            case ("PUT", "api/v1/meetings/2"):
                meeting2.set("114-meeting-2.json")
                return .respond(status: 204, headers: [:], body: Data())
            case ("GET", "api/v1/meetings/2"): return reply(meeting2.value)
            case ("POST", "api/v1/meetings"): return reply("120-meeting-create-201.json", 201)
            case ("DELETE", "api/v1/meetings/2693"): return .respond(status: 204, headers: [:], body: Data())
            default: return reply("128-meeting-404.json", 404)
            }
        }
    }
}

/// A replayed server's state (which capture answers for a meeting now), changed by the writes.
final class Current: @unchecked Sendable {
    private let lock = NSLock()
    private var file: String
    init(_ file: String) { self.file = file }
    func set(_ file: String) { lock.withLock { self.file = file } }
    var value: String { lock.withLock { file } }
}
