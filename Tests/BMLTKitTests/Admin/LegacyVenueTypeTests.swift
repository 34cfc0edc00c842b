import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// 2.16.6's `json.php` and the venue type: `add_meeting`/`modify_meeting` with `meeting_field[]=venue_type,…` (or
/// `shared_group_id_bigint`) die in `c_comdef_meeting::AddDataField()` (PHP `TypeError`): HTTP 500, empty body, and for
/// `add_meeting` a "new" change record left behind. The stub below answers like that (the captured 2.16.6 replies
/// for everything else), so these tests show what BMLTKit sends and says.
@Suite("2.16.6: save as copy and the venue type", .needsCorpus)
@MainActor
struct LegacyVenueTypeTests {
    /// The 2.16.6 replay router, with the server's failure on the fields json.php cannot take; `orphans` counts the
    /// "new" change records a failed add_meeting leaves. `failEveryAdd`: every add_meeting fails (any server fault).
    nonisolated static func router(orphans: Locked<Int>, failEveryAdd: Bool = false) -> StubServer.Handler {
        let captured = LegacyAdminReplayTests.router()
        return { request in
            let form = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            let fatal = form.contains("meeting_field%5B%5D=venue_type") || form.contains("meeting_field%5B%5D=shared_group_id_bigint")
            if form.hasPrefix("admin_action=add_meeting"), fatal || failEveryAdd {
                orphans.withLock { $0 += 1 }
                return StubServer.Response(status: 500, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data())
            }
            if fatal { return StubServer.Response(status: 500, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data()) }
            return captured(request)
        }
    }

    static func meeting2339(_ connection: BMLTConnection) async throws -> BMLTMeeting {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [2339, 2340]
        return try #require(try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first { $0.id == 2339 })
    }

    static func posts(_ stub: StubServer) -> [String] {
        stub.requests.filter { $0.httpMethod == "POST" }.map { String(decoding: $0.httpBody ?? Data(), as: UTF8.self) }
    }

    @Test("save as copy of a meeting read from 2.16.6: created, the venue type (as read) not sent, nothing left behind")
    func copyFromTheSameServer() async throws {
        let orphans = Locked(0)
        let stub = StubServer(Self.router(orphans: orphans))
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        let meeting = try await Self.meeting2339(connection)
        #expect(meeting.venueType == .inPerson && meeting.isPublished == true)

        let copy = meeting.editableCopy()
        #expect(copy.isNew && copy.id == 0 && copy.isPublished == false && copy.copiedFrom == meeting)
        #expect(copy.name == meeting.name && copy.formatKeys == meeting.formatKeys && copy.startTime == meeting.startTime
                && copy.coordinate == meeting.coordinate && copy.venueType == meeting.venueType && copy.rootServerURI == nil)
        #expect(connection.problems(in: copy).isEmpty)

        let created = try await connection.saveAndWait(copy)
        #expect(created.wasCreated && created.meeting.id == 2693)
        let add = try #require(Self.posts(stub).first { $0.hasPrefix("admin_action=add_meeting") })
        #expect(add.hasPrefix("admin_action=add_meeting&service_body_id=1002&"))
        #expect(add.contains("meeting_field%5B%5D=meeting_name%2C") && add.contains("meeting_field%5B%5D=formats%2C"))
        for key in ["venue_type", "shared_group_id_bigint", "id_bigint", "root_server_uri", "format_shared_id_list", "distance_in"] {
            #expect(!add.contains("meeting_field%5B%5D=\(key)"), "\(key) must not be sent to 2.16.6")
        }
        #expect(orphans.withLock { $0 } == 0)
    }

    @Test("changing the venue type on 2.16.6 (an edit, a copy, a new meeting): refused locally naming venue_type, nothing sent",
          arguments: ["edit", "copy", "new"])
    func venueTypeChangeRefused(_ kind: String) async throws {
        let orphans = Locked(0)
        let stub = StubServer(Self.router(orphans: orphans))
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        let meeting = try await Self.meeting2339(connection)
        var draft: BMLTMeetingDraft
        switch kind {
        case "edit": draft = meeting.editable()
        case "copy": draft = meeting.editableCopy()
        default: draft = BMLTMeetingDraft(serviceBodyID: 1002); draft.name = "New"
        }
        draft.venueType = .hybrid
        let problems = connection.problems(in: draft)
        #expect(problems.map(\.key) == ["venue_type"])
        #expect(problems.first?.message.contains("2.16.6") == true && problems.first?.message.contains("HTTP 500") == true)

        let before = stub.requests.count
        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("a venue type change was saved on 2.16.6")
        } catch let error as BMLTError {
            guard case .validationFailed(let message, let fields) = error else { Issue.record("\(error)"); return }
            #expect(fields.keys.sorted() == ["venue_type"] && message?.contains("nothing was sent") == true)
            #expect(error.description.contains("venue_type"))
        }
        #expect(stub.requests.count == before && orphans.withLock { $0 } == 0)
        // The fire-and-forget form refuses the same way: .bmltError, nothing sent.
        let recorder = EventRecorder()
        let observed = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        try await observed.login(username: "nasc_admin", password: "pw")
        let sent = stub.requests.count
        observed.save(draft)
        await waitUntil("one .bmltError is emitted") { recorder.count(.bmltError) == 1 }
        #expect(stub.requests.count == sent)
        guard case .validationFailed(_, let fields)? = observed.admin.lastError else { Issue.record("\(String(describing: observed.admin.lastError))"); return }
        #expect(fields.keys.sorted() == ["venue_type"])
    }

    @Test("an edit that keeps the venue type saves on 2.16.6 without sending it")
    func editKeepingVenueType() async throws {
        let orphans = Locked(0)
        let stub = StubServer(Self.router(orphans: orphans))
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        var draft = try await Self.meeting2339(connection).editable()
        draft.name = "Recovery At Work (Updated)"
        _ = try await connection.saveAndWait(draft)
        let modify = try #require(Self.posts(stub).first { $0.hasPrefix("admin_action=modify_meeting") })
        #expect(modify == "admin_action=modify_meeting&meeting_id=2339&meeting_field%5B%5D=meeting_name%2CRecovery%20At%20Work%20%28Updated%29")
    }

    @Test("HTTP 500 on add_meeting: the server failed on this write, and the change record it leaves is named")
    func serverFailureOnCreate() async throws {
        let orphans = Locked(0)
        let stub = StubServer(Self.router(orphans: orphans, failEveryAdd: true))
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "Fixture Test Meeting"
        do {
            _ = try await connection.saveAndWait(fresh)
            Issue.record("the failed create succeeded")
        } catch let error as BMLTError {
            let failure = BMLTWriteFailure(writeKind: .createMeeting, code: 500, leftBehind: .newMeetingChangeRecord(serverVersion: "2.16.6"))
            #expect(error == .serverFailedOnWrite(failure))
            let text = error.description
            #expect(text.hasPrefix("The server failed on this write (creating a meeting)"))
            #expect(text.contains("“new” change") && text.contains("2.16.6") && !text.contains("check the URL"))
        }
        #expect(orphans.withLock { $0 } == 1)
    }

    @Test("HTTP 500 on modify_meeting: the server failed on this write (no URL advice)")
    func serverFailureOnEdit() async throws {
        let captured = LegacyAdminReplayTests.router()
        let stub = StubServer { request in
            let form = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            if form.hasPrefix("admin_action=modify_meeting") { return StubServer.Response(status: 500, body: Data()) }
            return captured(request)
        }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "nasc_admin", password: "pw")
        var draft = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work").editable()   // as the server holds it
        draft.name = "B"
        await #expect(throws: BMLTError.self) { try await connection.saveAndWait(draft) }
        let text = connection.admin.lastError?.description ?? ""
        #expect(connection.admin.lastError == .serverFailedOnWrite(BMLTWriteFailure(writeKind: .saveMeeting, code: 500)))
        #expect(text.hasPrefix("The server failed on this write (saving the meeting): it answered with HTTP status 500."))
        #expect(!text.contains("check the URL") && !text.contains("change record"))
    }
}

/// Which answers to a write say "the server failed on this write".
@Suite("Write failures: which statuses")
struct WriteFailureStatusTests {
    @Test("500 and 501 are the server failing on the write; 502, 503 and 504 (a gateway, an overloaded server) keep their own sentence")
    func statuses() {
        for code in [500, 501] {
            let failed = BMLTError.httpStatus(code: code, message: "Server Error").asWriteFailure(.saveMeeting)
            // The server's words are kept apart, never replaced by a sentence of BMLTKit's.
            #expect(failed == .serverFailedOnWrite(BMLTWriteFailure(writeKind: .saveMeeting, code: code, message: "Server Error")))
            #expect(failed.description.hasPrefix("The server failed on this write (saving the meeting): it answered with HTTP status \(code) (“Server Error”)."))
            #expect(failed.asWriteFailure(.createMeeting) == failed)
        }
        for code in [502, 503, 504] {
            let error = BMLTError.httpStatus(code: code, message: nil)
            #expect(error.asWriteFailure(.saveMeeting) == error)
            #expect(!error.description.hasPrefix("The server failed on this write"))
        }
    }
}
