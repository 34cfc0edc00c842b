import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// REST administration when things go wrong: each error status of the captures becomes its typed error, a 401
/// mid-session ends the login, a wrong password never logs in, and a token about to expire is refreshed once.
@Suite("REST administration errors and token refresh", .needsCorpus)
@MainActor
struct RESTAdminErrorTests {
    nonisolated static func capture(_ name: String) -> Data { (try? FixtureCorpus.data(FixtureCorpus.modern, name)) ?? Data() }

    /// A logged-in 3.1.2 connection whose meeting calls answer `meetingReply` (and whose token expires at `expiresAt`).
    private func loggedIn(expiresAt: Date = Date().addingTimeInterval(7 * 86_400),
                          meetingReply: @escaping @Sendable (URLRequest) -> StubServer.Response)
    async throws -> (BMLTConnection, EventRecorder, StubServer) {
        let expires = Int(expiresAt.timeIntervalSince1970)
        let stub = StubServer { request in
            let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
            switch path {
            case "client_interface/json", "client_interface/json/":
                switch request.query("switcher") {
                case "GetServerInfo": return StubServer.Response(body: Self.capture("001-GetServerInfo.json"))
                case "GetServiceBodies": return StubServer.Response(body: Self.capture("004-GetServiceBodies.json"))
                case "GetFormats": return StubServer.Response(body: Self.capture("003-GetFormats-show_all.json"))
                default: return .json("[]")
                }
            case "api/v1/auth/token":
                let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
                if body.contains("wrong") { return StubServer.Response(status: 401, body: Self.capture("100-auth-token-bad-password.json")) }
                return .json(#"{"access_token":"1|first-token-secret","expires_at":\#(expires),"token_type":"bearer","user_id":57}"#)
            case "api/v1/auth/refresh":
                return .json(#"{"access_token":"2|second-token-secret","expires_at":\#(expires + 86_400),"token_type":"bearer","user_id":57}"#, delay: 0.1)
            case "api/v1/users/57": return StubServer.Response(body: Self.capture("151-user-57-observer.json"))
            case "api/v1/servicebodies": return StubServer.Response(body: Self.capture("140-servicebodies.json"))
            default: return meetingReply(request)
            }
        }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        try await connection.login(username: "gnyr-helpline", password: "CoreysGoryStory")
        return (connection, recorder, stub)
    }

    private static let meeting = BMLTMeeting(id: 2, serviceBodyID: 1005, name: "Nothing Macho")

    @Test("a wrong password: unauthorized with the server's message, never logged in, no login notification")
    func wrongPassword() async throws {
        let (connection, recorder, _) = try await loggedIn { _ in .json("{}") }
        try await connection.logoutAndWait()
        recorder.removeAll()
        await #expect(throws: BMLTError.unauthorized(message: "The provided credentials are incorrect.")) {
            try await connection.login(username: "serveradmin", password: "wrong-password")
        }
        #expect(!connection.admin.isLoggedIn && connection.admin.lastError != nil)
        #expect(recorder.count(.bmltAdminLoginChanged) == 0 && recorder.errors.count == 1)
        #expect(!"\(recorder.errors)".contains("wrong-password"))
    }

    @Test("an observer may edit nothing: permissions say so; the server's 403 is .forbidden and the login stays")
    func observerForbidden() async throws {
        let (connection, recorder, _) = try await loggedIn { _ in
            StubServer.Response(status: 403, body: Self.capture("191-observer-patch-meeting-403.json"))
        }
        #expect(connection.admin.user?.role == .observer)
        #expect(!connection.admin.permissions.isEmpty && connection.admin.permissions.allSatisfy { !$0.canEditMeetings })
        var draft = Self.meeting.editable()
        draft.name = "Observer edit attempt"
        await #expect(throws: BMLTError.forbidden(message: "This action is unauthorized.")) { try await connection.saveAndWait(draft) }
        #expect(connection.admin.isLoggedIn && recorder.count(.bmltAdminLoginChanged) == 1)
    }

    @Test("404, 409 and 422 (with each field's messages) become their typed errors")
    func statuses() async throws {
        let (connection, _, _) = try await loggedIn { request in
            switch request.httpMethod {
            case "DELETE": return StubServer.Response(status: 409, body: Self.capture("133-format-delete-in-use-409.json"))
            case "PATCH": return StubServer.Response(status: 422, body: Self.capture("119-meeting-2-patch-invalid-422.json"))
            // The edit-conflict check's read of meeting 2 (issue 47), as captured.
            case "GET" where request.url?.path.hasSuffix("api/v1/meetings/2") == true:
                return StubServer.Response(status: 200, body: Self.capture("114-meeting-2.json"))
            default: return StubServer.Response(status: 404, body: Self.capture("127-meeting-new-after-delete-404.json"))
            }
        }
        await #expect(throws: BMLTError.conflict(message: "You cannot delete a format while meetings are using it.")) {
            try await connection.deleteMeetingAndWait(id: 2)
        }
        var read = Self.meeting
        read.startTime = BMLTTimeOfDay(hour: 14)       // as 114-meeting-2.json holds it
        var draft = read.editable()
        draft.startTime = BMLTTimeOfDay(hour: 9)
        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("saved")
        } catch let error as BMLTError {
            guard case .validationFailed(_, let fields) = error else { Issue.record("\(error)"); return }
            #expect(fields == ["day": ["The day must be between 0 and 6."], "startTime": ["The start time does not match the format H:i."]])
            #expect(error.description.contains("startTime: The start time does not match the format H:i."))
        }
        var create = BMLTMeetingDraft(serviceBodyID: 1)
        create.name = "x"
        let deletion = BMLTChange(id: 1, type: .deleted, meetingID: 9, before: BMLTMeeting(id: 9, serviceBodyID: 1))
        await #expect(throws: BMLTError.notFound(message: "Not Found")) { try await connection.rollbackAndWait(meetingID: 2693, toBefore: deletion) }
        #expect(connection.admin.isLoggedIn)
    }

    @Test("a 401 mid-session ends the login: .bmltAdminLoginChanged(false) before the .bmltError; the next call is refused locally")
    func unauthorizedMidSession() async throws {
        let (connection, recorder, stub) = try await loggedIn { _ in
            StubServer.Response(status: 401, body: Self.capture("211-meetings-after-logout-401.json"))
        }
        recorder.removeAll()
        let request = connection.deleteMeeting(id: 2)
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.names.filter { !$0.hasPrefix("progress") } == ["admin.loginChanged", "error"])
        #expect(recorder.errors == [.unauthorized(message: "Unauthenticated.")])
        #expect(!connection.admin.isLoggedIn && connection.admin.permissions.isEmpty && request.isFinished)
        let sent = stub.requests.count
        await #expect(throws: BMLTError.self) { try await connection.deleteMeetingAndWait(id: 2) }
        #expect(stub.requests.count == sent, "nothing is sent without a login")
    }

    @Test("a token about to expire is refreshed once for many calls at once; the new token is used after")
    func refresh() async throws {
        let (connection, _, stub) = try await loggedIn(expiresAt: Date().addingTimeInterval(60)) { request in
            request.httpMethod == "DELETE" ? StubServer.Response(status: 204, headers: [:]) : .json("{}")
        }
        var tasks: [Task<Void, any Error>] = []
        for id in 1...5 { tasks.append(Task { try await connection.deleteMeetingAndWait(id: id) }) }
        for task in tasks { try await task.value }
        let refreshes = stub.requests.filter { $0.url!.path.hasSuffix("auth/refresh") }
        #expect(refreshes.count == 1)
        #expect(refreshes.first?.value(forHTTPHeaderField: "Authorization") == "Bearer 1|first-token-secret")
        let deletes = stub.requests.filter { $0.httpMethod == "DELETE" }
        #expect(deletes.count == 5 && deletes.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer 2|second-token-secret" })
        try await connection.logoutAndWait()
        #expect(stub.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer 2|second-token-secret")
        #expect(!"\(connection.adminSession)".contains("secret"))
    }
}
