import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Passwords and tokens never appear in a URL, a notification, an error description, a log line, or the
/// description, debug description or dump of anything a program can reach — through a REST and a legacy
/// session, including failures.
@Suite("Secrets stay secret", .needsCorpus)
@MainActor
struct SecretsTests {
    nonisolated static let password = "Pa55-word&=+ secret"
    nonisolated static let token = "9|TOKENTOKENsecretvalue"
    nonisolated static let secrets = [password, token, "TOKENTOKEN", "Pa55-word", "s3ss10n", "Pa55%2Dword"]

    final class Sink: @unchecked Sendable {
        let lines = Locked<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private func everything(_ connection: BMLTConnection, _ recorder: EventRecorder, _ log: Sink, _ notes: Sink,
                            _ requests: [URLRequest]) -> String {
        var text = log.lines.withLock { $0.joined(separator: "\n") } + notes.lines.withLock { $0.joined(separator: "\n") }
        for event in recorder.all {
            text += "\(event)" + String(reflecting: event)
            if case .error(let error, _) = event { text += error.localizedDescription + String(reflecting: error) }
        }
        for request in requests { text += request.url!.absoluteString }
        for request in connection.inFlightRequests { text += "\(request)" }
        var dumped = ""
        dump(connection, to: &dumped)
        dump(connection.admin, to: &dumped)
        dump(connection.adminSession, to: &dumped)
        dump(connection.transport, to: &dumped)
        text += dumped + "\(connection)" + String(reflecting: connection) + "\(connection.admin.user as Any)"
            + "\(connection.admin.permissions)" + "\(connection.configuration)" + String(reflecting: connection.adminSession)
        return text
    }

    private func connection(_ handler: @escaping StubServer.Handler) -> (BMLTConnection, EventRecorder, Sink, Sink, StubServer, [any NSObjectProtocol]) {
        let stub = StubServer(handler)
        let recorder = EventRecorder(), log = Sink(), notes = Sink()
        var configuration = stub.configuration(center: NotificationCenter(), monitors: [recorder])
        configuration.logLevel = .debug
        configuration.logHandler = { _, line in log.add(line) }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        let tokens = Notification.Name.bmltAllNotifications.map { name in
            configuration.notificationCenter.addObserver(forName: name, object: connection, queue: nil) { note in
                notes.add("\(note)" + String(describing: note.userInfo))
            }
        }
        return (connection, recorder, log, notes, stub, tokens)
    }

    @Test("REST: login, a refresh, a save, a 401, a failed login")
    func rest() async throws {
        let expires = Int(Date().addingTimeInterval(30).timeIntervalSince1970)
        let (connection, recorder, log, notes, stub, tokens) = connection { request in
            let path = request.url!.path
            if path.contains("client_interface") {
                return request.query("switcher") == "GetServerInfo"
                    ? StubServer.Response(body: (try? FixtureCorpus.data(FixtureCorpus.modern, "001-GetServerInfo.json")) ?? Data())
                    : .json("[]")
            }
            if path.hasSuffix("auth/token") || path.hasSuffix("auth/refresh") {
                let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
                if body.contains("wrong") { return .json(#"{"message":"The provided credentials are incorrect."}"#, status: 401) }
                return .json(#"{"access_token":"\#(SecretsTests.token)","expires_at":\#(expires),"token_type":"bearer","user_id":1}"#)
            }
            if path.hasSuffix("users/1") { return .json(#"{"id":1,"username":"admin","type":"admin","displayName":"Admin"}"#) }
            if path.hasSuffix("servicebodies") { return .json("[]") }
            if request.httpMethod == "DELETE" { return .json(#"{"message":"Unauthenticated."}"#, status: 401) }
            return .json("{}", status: 404)
        }
        defer { tokens.forEach(connection.configuration.notificationCenter.removeObserver) }
        try await connection.login(username: "admin", password: Self.password)
        var draft = BMLTMeeting(id: 5, serviceBodyID: 1, name: "A").editable()
        draft.name = "B"
        _ = try? await connection.saveAndWait(draft)
        _ = try? await connection.deleteMeetingAndWait(id: 5)
        _ = try? await connection.login(username: "admin", password: "wrong " + Self.password)
        let text = everything(connection, recorder, log, notes, stub.requests)
        #expect(!log.lines.withLock { $0 }.isEmpty && !recorder.errors.isEmpty)
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(stub.requests.contains { $0.value(forHTTPHeaderField: "Authorization") == "Bearer " + Self.token },
                "the token is used, in the header only")
    }

    @Test("legacy: login, an action, the session ending")
    func legacy() async throws {
        let (connection, recorder, log, notes, stub, tokens) = connection { request in
            let path = request.url!.path
            if path.contains("client_interface") {
                return request.query("switcher") == "GetServerInfo"
                    ? StubServer.Response(body: (try? FixtureCorpus.data(FixtureCorpus.legacy, "json_GetServerInfo.json")) ?? Data())
                    : .json("[]")
            }
            let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            if body.contains("admin_action=login") {
                var response = StubServer.Response.text("OK")
                response.headers["Set-Cookie"] = "PHPSESSID=s3ss10n; path=/"
                return response
            }
            if request.query("admin_action") == "get_permissions" { return .json(#"{"service_body":{"id":1,"name":"A","permissions":2}}"#) }
            if request.query("admin_action") == "get_user_info" { return .json(#"{"current_user":{"id":4,"name":"Ed","type":2}}"#) }
            return .text("NOT AUTHORIZED")
        }
        defer { tokens.forEach(connection.configuration.notificationCenter.removeObserver) }
        try await connection.login(username: "ed", password: Self.password)
        _ = try? await connection.deleteMeetingAndWait(id: 5)
        let text = everything(connection, recorder, log, notes, stub.requests)
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(!connection.admin.isLoggedIn)
        #expect(text.contains(stub.host) && text.contains("AdminSession"), "the dump and the URLs were really looked at")
        #expect(stub.requests.contains { $0.value(forHTTPHeaderField: "Cookie")?.contains("s3ss10n") == true },
                "the session cookie is sent, in the header only")
    }
}
