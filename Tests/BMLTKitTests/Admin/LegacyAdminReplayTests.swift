import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Administration over the legacy `json.php` of 2.16.6, replayed from the captures in their recorded order:
/// login, permissions, modify, changes, rollback, add, delete, restore, logout; plus the refusals.
@Suite("Legacy administration (2.16.6 captures)", .needsCorpus)
@MainActor
struct LegacyAdminReplayTests {
    static let password = "CoreysGoryStory & more=+"
    nonisolated static func capture(_ name: String) -> Data { (try? FixtureCorpus.data(FixtureCorpus.legacy, name)) ?? Data() }

    /// Answers like the 2.16.6 server did; `session` is what the login cookie must be for admin actions to work.
    nonisolated static func router(loginReply: String = "admin_json_login.txt", modifyReply: String = "admin_json_modify_meeting.json")
    -> StubServer.Handler {
        { request in
            let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
            func reply(_ name: String, contentType: String = "application/json; charset=UTF-8") -> StubServer.Response {
                StubServer.Response(headers: ["Content-Type": contentType], body: capture(name))
            }
            if path.hasPrefix("client_interface") {
                switch request.query("switcher") {
                case "GetServerInfo": return reply("json_GetServerInfo.json")
                case "GetServiceBodies": return reply("json_GetServiceBodies.json")
                case "GetFormats": return reply("json_GetFormats_show_all.json")
                case "GetSearchResults": return reply("json_GetSearchResults_meeting_ids.json")
                case "GetChanges": return reply(request.query("meeting_id") == "2339" ? "json_GetChanges_meeting_id.json" : "json_GetChanges_all.json")
                default: return path.hasSuffix("GetLangs.php") ? reply("json_GetLangs.json") : .json("[]")
                }
            }
            let form = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            let action = request.query("admin_action") ?? form.split(separator: "&").first { $0.hasPrefix("admin_action=") }
                .map { String($0.dropFirst("admin_action=".count)) }
            if action == "login" {
                var response = reply(loginReply, contentType: "text/html; charset=UTF-8")
                if loginReply == "admin_json_login.txt" { response.headers["Set-Cookie"] = "PHPSESSID=s3ss10n; path=/" }
                return response
            }
            guard request.value(forHTTPHeaderField: "Cookie")?.contains("PHPSESSID=s3ss10n") == true else {
                return reply("admin_json_noauth_get_permissions.txt", contentType: "text/html; charset=UTF-8")
            }
            switch action {
            case "get_permissions": return reply("admin_json_get_permissions.json")
            case "get_user_info": return reply("admin_json_get_user_info.json")
            case "modify_meeting": return reply(modifyReply)
            case "add_meeting": return reply("admin_json_add_meeting.json")
            case "delete_meeting": return reply("admin_json_delete_meeting.json")
            case "restore_deleted_meeting": return reply("admin_json_restore_deleted_meeting.json")
            case "rollback_meeting_to_before_change": return reply("admin_json_rollback_meeting_to_before_change.json")
            case "logout": return reply("admin_json_logout.txt", contentType: "text/html; charset=UTF-8")
            case "get_meetings":
                // The captures hold get_meetings for 2339 only; other ids answer with the semantic search's
                // shape of the new meeting (strings instead of numbers, which the decoder takes alike).
                if request.query("meeting_ids[]") == "2339" { return reply("admin_json_get_meetings_ids.json") }
                let semantic = (try? JSONScanner.parse(capture("json_GetSearchResults_new_meeting.json")))?.array?.first
                return .json(semantic.map { WireJSONWriter.text($0) } ?? "{}")
            default: return .json(#"["BAD ADMIN ACTION"]"#)
            }
        }
    }

    @Test("the recorded flow: notifications in order, the server's field changes, stores consistent, secrets only in POST bodies")
    func fullFlow() async throws {
        let stub = StubServer(Self.router())
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        #expect(connection.capabilities.contains(.legacyAdmin) && !connection.capabilities.contains(.restAdmin))
        recorder.removeAll()

        try await connection.login(username: "nasc_admin", password: Self.password)
        #expect(connection.admin.isLoggedIn && connection.admin.user?.id == 4 && connection.admin.user?.role == .serviceBodyAdministrator)
        #expect(connection.admin.permissions == [BMLTPermission(serviceBodyID: 1002, serviceBodyName: "Nassau Area Service", level: .meetingListEditor)])

        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [2339, 2340]
        let meeting = try #require(try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first { $0.id == 2339 })
        #expect(connection.admin.canEdit(meeting) && !connection.admin.canEdit(BMLTMeeting(id: 1, serviceBodyID: 1003)))
        var draft = meeting.editable()
        draft.name = "Recovery At Work (Updated)"
        draft.formatKeys = ["O", "M", "WC"]
        draft.startTime = BMLTTimeOfDay(hour: 10, minute: 30)
        let saved = try await connection.saveAndWait(draft)
        #expect(saved.fieldChanges == [BMLTFieldChange(key: "meeting_name", before: "Recovery At Work", after: "Recovery At Work (Updated)"),
                                       BMLTFieldChange(key: "formats", before: "M", after: "O,M,WC"),
                                       BMLTFieldChange(key: "start_time", before: "10:15:00", after: "10:30:00")])

        let changes = try await connection.changes(meetingID: 2339)
        let change = try #require(changes.first { $0.type == .changed })
        _ = try await connection.rollbackAndWait(meetingID: 2339, toBefore: change)

        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "Fixture Test Meeting"
        fresh.weekday = .wednesday
        fresh.startTime = BMLTTimeOfDay(hour: 19, minute: 30)
        let created = try await connection.saveAndWait(fresh)
        #expect(created.wasCreated && created.meeting.id == 2693)
        try await connection.deleteMeetingAndWait(id: 2693)
        let deletion = try #require(try await connection.changes().first { $0.type == .deleted && $0.meetingID == 2693 })
        let restored = try await connection.restoreDeletedMeetingAndWait(deletion)
        #expect(restored.id == 2693)
        try await connection.logoutAndWait()
        #expect(!connection.admin.isLoggedIn)

        #expect(recorder.names.filter { !$0.hasPrefix("progress") && $0 != "search.meetingsArrived" } == [
            "admin.loginChanged", "search.meetings", "meeting.saved", "changes.results", "meeting.saved", "meeting.added",
            "meeting.deleted", "changes.results", "meeting.added", "admin.loginChanged"])

        let admin = stub.requests.filter { $0.url!.path.hasSuffix("json.php") }
        let login = try #require(admin.first)
        #expect(login.httpMethod == "POST" && login.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        let form = String(decoding: login.httpBody ?? Data(), as: UTF8.self)
        #expect(form == "admin_action=login&c_comdef_admin_login=nasc_admin&c_comdef_admin_password=CoreysGoryStory%20%26%20more%3D%2B")
        for request in stub.requests { #expect(!request.url!.absoluteString.contains("CoreysGoryStory")) }
        for request in admin.dropFirst() {
            #expect(request.value(forHTTPHeaderField: "Cookie")?.contains("PHPSESSID=s3ss10n") == true, "\(request.url!)")
        }
        let writes = admin.filter { $0.httpMethod == "POST" }.map { String(decoding: $0.httpBody ?? Data(), as: UTF8.self) }
        #expect(writes.contains { $0.hasPrefix("admin_action=modify_meeting&meeting_id=2339&") && $0.contains("meeting_field%5B%5D=formats%2CO%2CM%2CWC") })
        #expect(writes.contains("admin_action=rollback_meeting_to_before_change&meeting_id=2339&change_id=\(change.id)"))
        #expect(writes.contains("admin_action=delete_meeting&meeting_id=2693"))
        #expect(writes.contains("admin_action=restore_deleted_meeting&meeting_id=2693"))
        #expect(!recorder.all.map { "\($0)" }.joined().contains("CoreysGoryStory"))
    }

    @Test("a wrong password and the refused server administrator: unauthorized, not logged in")
    func refusedLogin() async throws {
        for capture in ["admin_json_login_bad_password.txt", "admin_json_login_serveradmin_rejected.txt"] {
            let stub = StubServer(Self.router(loginReply: capture))
            let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
            await #expect(throws: BMLTError.self) { try await connection.login(username: "serveradmin", password: "x") }
            guard case .unauthorized? = connection.admin.lastError else { Issue.record("\(capture): \(String(describing: connection.admin.lastError))"); continue }
            #expect(!connection.admin.isLoggedIn)
        }
    }

    @Test("[\"NOT AUTHORIZED\"] for one edit is .forbidden and keeps the login; the session ending is .unauthorized and ends it")
    func refusals() async throws {
        let stub = StubServer(Self.router(modifyReply: "admin_json_modify_meeting_not_authorized.json"))
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        try await connection.login(username: "nasc_admin", password: "pw")
        var draft = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work").editable()   // as the server holds it
        draft.name = "B"
        await #expect(throws: BMLTError.forbidden(message: "the root server does not allow this login to do that")) {
            try await connection.saveAndWait(draft)
        }
        #expect(connection.admin.isLoggedIn)
        connection.transport.cookies.removeAll()     // the server forgot the session
        await #expect(throws: BMLTError.unauthorized(message: "the administrator session has ended")) {
            try await connection.saveAndWait(draft)
        }
        #expect(!connection.admin.isLoggedIn && recorder.count(.bmltAdminLoginChanged) == 2)
    }

    @Test("the 2.x email_contact bug: changing it is refused before anything is sent")
    func emailContact() async throws {
        let stub = StubServer(Self.router())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        var draft = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work").editable()   // as the server holds it
        draft.emailContact = "someone@example.org"
        let before = stub.requests.count
        await #expect(throws: BMLTError.self) { try await connection.saveAndWait(draft) }
        guard case .validationFailed(_, let fields)? = connection.admin.lastError else {
            Issue.record("\(String(describing: connection.admin.lastError))"); return
        }
        #expect(fields.keys.sorted() == ["email_contact"] && fields["email_contact"]?.first?.contains("intval()") == true)
        #expect(connection.problems(in: draft).map(\.key) == ["email_contact"])
        #expect(stub.requests.count == before)
    }
}
