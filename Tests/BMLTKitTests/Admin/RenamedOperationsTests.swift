import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// One step of an old app: a call through an old (deprecated) name or its new name, on a logged-in connection.
/// The calls through the old names live in `DeprecatedNameCalls`, a deprecated type (the compiler does not warn about
/// deprecated names used inside a deprecated declaration) that this file never names: it is found by its mangled
/// name at run time, so our own build stays free of deprecation warnings, as CI requires.
protocol NameCalls: Sendable {
    @MainActor static func call(_ name: String, on connection: BMLTConnection, meeting: BMLTMeeting,
                                deletion: BMLTChange?, change: BMLTChange?) async throws -> String
}

enum CurrentNameCalls: NameCalls {
    @MainActor static func call(_ name: String, on connection: BMLTConnection, meeting: BMLTMeeting,
                                deletion: BMLTChange?, change: BMLTChange?) async throws -> String {
        switch name {
        case "save":
            var draft = meeting.editable(); draft.name = "Recovery At Work (Updated)"
            return "\(try await connection.saveAndWait(draft))"
        case "delete": try await connection.deleteMeetingAndWait(id: 2693); return "deleted"
        case "restore": return "\(try await connection.restoreDeletedMeetingAndWait(deletion!))"
        case "rollback": return "\(try await connection.rollbackAndWait(meetingID: 2339, toBefore: change!))"
        case "permissions": connection.fetchPermissions(); return "started"
        case "message": try await connection.sendMessageAndWait(toContactOf: meeting, from: "me@example.org", body: "Hi"); return "sent"
        case "serverAdmin": return "\(try await connection.performAndWait(.users))"
        default: try await connection.logoutAndWait(); return "logged out"
        }
    }
}

@available(*, deprecated, message: "calls the deprecated names on purpose")
enum DeprecatedNameCalls: NameCalls {
    @MainActor static func call(_ name: String, on connection: BMLTConnection, meeting: BMLTMeeting,
                                deletion: BMLTChange?, change: BMLTChange?) async throws -> String {
        switch name {
        case "save":
            var draft = meeting.editable(); draft.name = "Recovery At Work (Updated)"
            return "\(try await connection.saveMeeting(draft))"
        case "delete": try await connection.removeMeeting(id: 2693); return "deleted"
        case "restore": return "\(try await connection.restoreMeeting(from: deletion!))"
        case "rollback": return "\(try await connection.rollBackMeeting(id: 2339, toBefore: change!))"
        case "permissions": connection.refreshPermissions(); return "started"
        case "message": try await connection.messageContact(of: meeting, from: "me@example.org", body: "Hi"); return "sent"
        case "serverAdmin": return "\(try await connection.serverAdmin(.users))"
        default: try await connection.logOut(); return "logged out"
        }
    }
}

@Suite("Renamed operations: an old name does exactly what its new name does", .needsCorpus)
@MainActor
struct RenamedOperationsTests {
    /// What one call did: its result (or error), the requests it sent (method, path, body) and the events it posted.
    struct Run: Equatable, CustomStringConvertible {
        var outcome: String
        var requests: [String]
        var events: [String]
        var description: String { "\(outcome)\n\(requests.joined(separator: "\n"))\n\(events)" }
    }

    func run(_ name: String, through calls: any NameCalls.Type) async throws -> Run {
        let stub = StubServer(LegacyAdminReplayTests.router())
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        try await connection.login(username: "nasc_admin", password: "pw")
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [2339, 2340]
        let meeting = try #require(try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first { $0.id == 2339 })
        let deletion = try await connection.changes().first { $0.type == .deleted }
        let change = try await connection.changes(meetingID: 2339).first { $0.type == .changed }
        let sent = stub.requests.count
        recorder.removeAll()
        let outcome: String
        do {
            outcome = try await calls.call(name, on: connection, meeting: meeting, deletion: deletion, change: change)
        } catch {
            outcome = "error: \(error)"
        }
        await waitUntil("nothing is in flight") { connection.inFlightRequests.isEmpty }
        let requests = stub.requests.dropFirst(sent).map { request in
            "\(request.httpMethod ?? "") \(request.url?.path ?? "")?\(request.url?.query ?? "") \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))"
        }
        return Run(outcome: outcome, requests: requests, events: recorder.names.filter { !$0.hasPrefix("progress") })
    }

    @Test("the same requests, result and notifications through the old and the new name",
          arguments: ["save", "delete", "restore", "rollback", "permissions", "message", "serverAdmin", "logout"])
    func sameBehaviour(_ name: String) async throws {
        let deprecated = try #require(_typeByName("12BMLTKitTests19DeprecatedNameCallsO") as? any NameCalls.Type,
                                      "the deprecated calls are found by name")
        let old = try await run(name, through: deprecated)
        let new = try await run(name, through: CurrentNameCalls.self)
        #expect(old == new)
        #expect(!new.requests.isEmpty || name == "serverAdmin" || name == "message", "\(name) sent nothing: \(new)")
    }
}
