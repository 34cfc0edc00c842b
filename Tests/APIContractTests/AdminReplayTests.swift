import BMLTKit
import Foundation
import CaptureReplay
import LoopbackHTTPServer
import Testing

/// Issue 4's acceptance flow, written only from design/API.md's names (no `@testable`): log in as a service-body
/// editor, edit a meeting and save, read its change list, roll it back, create a meeting, delete it, restore it,
/// log out. The fire-and-forget calls (`save`, `rollback`, `deleteMeeting`, `restoreDeletedMeeting`, `logout`) are
/// followed through their notifications only, as a host app would. The server is the real 2.16.6 (legacy
/// `json.php`, cookie session) or 3.1.2 (REST `/api/v1`, bearer token) replayed over HTTP on 127.0.0.1 from the
/// captures, in the order they were recorded.
@Suite("API contract: administration against replayed real root servers", .needsCaptures, .serialized)
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
        /// What was seen, for a failure's message: each name, with its error.
        var summary: String { seen.map { $0.name + ($0.error.map { ": \($0.localizedDescription)" } ?? "") }.joined(separator: ", ") }
    }

    /// A validated connection to the replayed server, and an observer of its administration notifications.
    /// `log`: the connection's debug log (each request and its answer), for a failure's message.
    func connect(_ http: LoopbackHTTPServer, log: Locked = Locked()) async throws -> (BMLTConnection, Observer) {
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout, logLevel: .debug, logHandler: { _, line in log.append(line) }))
        _ = try await connection.validate()
        return (connection, Observer(connection))
    }

    @Test("2.16.6 over the legacy json.php: the whole flow, notifications in order, stores consistent")
    func legacy() async throws {
        let http = try LegacyAdminReplay.start()
        defer { http.stop() }
        let log = Locked()
        let (connection, observer) = try await connect(http, log: log)
        defer { observer.stop() }

        try await connection.login(username: "nasc_admin", password: LegacyAdminReplay.password)
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
        let added = try #require(observer.last("meeting.added")?.meeting, "\(observer.summary)\n\(log.values.suffix(12).joined(separator: "\n"))")
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
        #expect(http.requests.allSatisfy { !$0.target.contains(LegacyAdminReplay.password) })
        #expect(admin.dropFirst().allSatisfy { !String(decoding: $0.body, as: UTF8.self).contains(LegacyAdminReplay.password) })
    }

    @Test("3.1.2, 4.1.0 and 4.2.7 over REST /api/v1: the whole flow, rollback by PUT and restore by POST of before-images",
          arguments: ["rootserver-3x", "rootserver-4x", "rootserver-42"])
    func rest(folder: String) async throws {
        let http = try RESTAdminReplay.start(folder: folder)
        defer { http.stop() }
        let (connection, observer) = try await connect(http)
        defer { observer.stop() }

        try await connection.login(username: "serveradmin", password: RESTAdminReplay.password)
        #expect(connection.admin.isLoggedIn)

        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        #expect(connection.admin.canEdit(meeting))
        // 4.x reports the service body's name with each meeting (typed, read-only); 3.x does not.
        let serviceBodyName: String? = meeting.serviceBodyName, adminNotes: String? = meeting.adminNotes
        #expect(serviceBodyName == (folder == "rootserver-3x" ? nil : "Bronx Area Service") && adminNotes == nil)
        #expect(meeting.extraFields.isEmpty)
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
        fresh.coordinate = BMLTCoordinate(latitude: 40.7128, longitude: -73.6)   // as the captured request 120
        fresh.street = "1 Main St"
        fresh.municipality = "Hempstead"
        fresh.province = "NY"
        fresh.postalCode = "11550"
        #expect(connection.problems(in: fresh).isEmpty)
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
        #expect(rest.filter { $0.method != "GET" }.map { "\($0.method) \(RESTAdminReplay.path($0))" } == [
            "POST api/v1/auth/token", "PATCH api/v1/meetings/2", "PUT api/v1/meetings/2", "POST api/v1/meetings",
            "DELETE api/v1/meetings/2693", "POST api/v1/meetings", "POST api/v1/auth/logout"])
        let token = RESTAdminReplay.token(folder)
        #expect(rest.dropFirst().allSatisfy { $0.headers["authorization"] == "Bearer " + token })
        #expect(http.requests.allSatisfy { !$0.target.contains(RESTAdminReplay.password) && !$0.target.contains(String(token.suffix(20))) })
        // Never a value the server computes in a write, on either generation.
        for write in rest where write.method != "GET" {
            let body = String(decoding: write.body, as: UTF8.self)
            #expect(!body.contains("service_body_name") && !body.contains("root_server_uri") && !body.contains("distance_in"), "\(body)")
        }
    }
}
