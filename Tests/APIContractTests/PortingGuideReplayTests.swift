import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// The flows of the BMLTiOSLib apps (the admin app NA-Meeting-List-Administrator and the meeting finders), written from
/// the "Moving from BMLTiOSLib" article's code with the public API only, against the replayed replies of the real
/// 2.16.6 (legacy `json.php`), 3.1.2, 4.1.0 and 4.2.7 (REST `/api/v1`) servers. Every write is undone before the end
/// (the edit rolled back, the copy deleted, the restored copy deleted again), and the server's write log shows it.
@Suite("Porting guide: the BMLTiOSLib apps' flows against replayed 2.16.6, 3.1.2, 4.1.0 and 4.2.7", .needsCaptures, .serialized)
@MainActor
struct PortingGuideReplayTests {
    /// One server generation: its replay, the login, the meeting the admin flow edits and copies, and its service body.
    struct Server: Sendable, CustomStringConvertible {
        let folder: String
        var isLegacy: Bool { folder == "rootserver" }
        var username: String { isLegacy ? "nasc_admin" : "serveradmin" }
        var password: String { isLegacy ? LegacyAdminReplay.password : RESTAdminReplay.password }
        var meetingID: Int { isLegacy ? 2339 : 2 }
        var description: String { folder }
        func start() throws -> LoopbackHTTPServer {
            isLegacy ? try LegacyAdminReplay.start() : try RESTAdminReplay.start(folder: folder)
        }
    }

    nonisolated static let servers = ["rootserver", "rootserver-3x", "rootserver-4x", "rootserver-42"].map(Server.init)

    @Test("admin: log in, editable meetings, edit and save, history and rollback, save as copy, delete, restore; every write undone",
          arguments: servers)
    func admin(_ server: Server) async throws {
        let http = try server.start()
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))

        // Connect and log in.
        let info = try await connection.validate()
        try await connection.login(username: server.username, password: server.password)
        #expect(connection.admin.isLoggedIn && info.majorVersion == (server.isLegacy ? 2 : Int(server.folder == "rootserver-3x" ? 3 : 4)))

        // The editable meetings of a service body.
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = server.isLegacy ? [2339, 2340] : [1, 2]
        criteria.publishedStatus = .both
        let meetings = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
        let mine = meetings.filter { connection.admin.canEdit($0) }
        let meeting = try #require(mine.first { $0.id == server.meetingID }, "\(meetings.map(\.id))")

        // Edit and save, as the guide does (the administration read; name, time, location info, comments and formats
        // on 2.16.6, as capture admin_json_modify_meeting.json changed them; name, time and comments on 3.x/4.x, as
        // 116-meeting-2-patch.empty), then history and rollback (the edit undone).
        var draft = try await connection.editableMeeting(id: meeting.id)
        #expect(draft.original?.id == meeting.id && !draft.hasChanges)
        if server.isLegacy {
            draft.name = "Recovery At Work (Updated)"
            draft.startTime = BMLTTimeOfDay(hour: 10, minute: 30)
            draft.locationInfo = "Side door"
            draft.setFormats(["O", "M", "WC"].compactMap { key in connection.server.formats.first { $0.key == key } })
        } else {
            draft.name = "Nothing Macho (edited)"
            draft.startTime = BMLTTimeOfDay(hour: 14, minute: 30)
            draft.comments = "Edited via REST PATCH"
        }
        #expect(connection.problems(in: draft).isEmpty)
        let saved = try await connection.saveAndWait(draft)
        #expect(saved.meeting.name == draft.name && saved.fieldChanges.contains { $0.key == "meeting_name" })
        if server.isLegacy { #expect(saved.meeting.formatKeys == ["O", "M", "WC"] && saved.fieldChanges.contains { $0.key == "formats" }) }

        let history = try await connection.changes(meetingID: meeting.id)
        let last = try #require(history.first { $0.type == .changed && $0.before != nil && $0.after != nil })
        let rolledBack = try await connection.rollbackAndWait(meetingID: meeting.id, toBefore: last)
        #expect(rolledBack.meeting.name == meeting.name)

        // Save as copy (a create made from a meeting read from this server), then delete it (the create undone).
        let copy = meeting.editableCopy()
        #expect(copy.isNew && copy.isPublished == false)
        #expect(connection.problems(in: copy).isEmpty, "\(connection.problems(in: copy))")
        let created = try await connection.saveAndWait(copy)
        #expect(created.wasCreated && created.meeting.id != meeting.id)
        try await connection.deleteMeetingAndWait(id: created.meeting.id)

        // The deleted list and restore, then delete again (the restore undone).
        let deleted = try await connection.deletedMeetings()
        let deletion = try #require(deleted.first { $0.meetingID == created.meeting.id })
        let restored = try await connection.restoreDeletedMeetingAndWait(deletion)
        #expect(restored.name == created.meeting.name)
        try await connection.deleteMeetingAndWait(id: restored.id)

        try await connection.logoutAndWait()
        #expect(!connection.admin.isLoggedIn && connection.admin.lastError == nil)

        // Nothing left behind: each write is matched by the write that undoes it, in order.
        let writes = http.requests.compactMap { Self.write($0, legacy: server.isLegacy) }
        let expected = server.isLegacy
            ? ["modify 2339", "rollback 2339", "add", "delete 2693", "restore 2693", "delete 2693"]
            : ["PATCH 2", "PUT 2", "POST meeting", "DELETE 2693", "POST meeting", "DELETE 2693"]
        #expect(writes == expected)
        if server.isLegacy {
            // The copy carried no field json.php cannot take (2.16.6 would answer 500 and leave a "new" change record).
            let add = try #require(http.requests.first { String(decoding: $0.body, as: UTF8.self).hasPrefix("admin_action=add_meeting") })
            let form = String(decoding: add.body, as: UTF8.self)
            #expect(!form.contains("meeting_field%5B%5D=venue_type") && !form.contains("meeting_field%5B%5D=shared_group_id_bigint"))
        }
    }

    /// A write as the server saw it (nil for a read or a login).
    static func write(_ request: LoopbackHTTPServer.Request, legacy: Bool) -> String? {
        if legacy {
            let form = String(decoding: request.body, as: UTF8.self)
            let fields = Dictionary(form.split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
            switch fields["admin_action"] {
            case "modify_meeting": return "modify " + (fields["meeting_id"] ?? "?")
            case "rollback_meeting_to_before_change": return "rollback " + (fields["meeting_id"] ?? "?")
            case "add_meeting": return "add"
            case "delete_meeting": return "delete " + (fields["meeting_id"] ?? "?")
            case "restore_deleted_meeting": return "restore " + (fields["meeting_id"] ?? "?")
            default: return nil
            }
        }
        let path = RESTAdminReplay.path(request)
        guard path.hasPrefix("api/v1/meetings"), request.method != "GET" else { return nil }
        if request.method == "POST" { return "POST meeting" }
        return request.method + " " + path.replacingOccurrences(of: "api/v1/meetings/", with: "")
    }

    /// The finders' replies: validation from the folder's captures; a geographic search with `data_field_key` answers
    /// the captured nearest search, any other search the captured search with whole meetings.
    static func finderServer(_ folder: String) throws -> LoopbackHTTPServer {
        let legacy = folder == "rootserver"
        @Sendable func reply(_ file: String) -> LoopbackHTTPServer.Behavior {
            .respond(status: 200, headers: ["Content-Type": "application/json"], body: FixtureCaptures.body(folder, file))
        }
        return try LoopbackHTTPServer { request in
            if request.target.contains("GetLangs.php") { return reply("json_GetLangs.json") }
            switch request.query("switcher") {
            case "GetServerInfo": return reply(legacy ? "json_GetServerInfo.json" : "001-GetServerInfo.json")
            case "GetServiceBodies": return reply(legacy ? "json_GetServiceBodies.json" : "004-GetServiceBodies.json")
            case "GetFormats": return reply(legacy ? "json_GetFormats_show_all.json" : "003-GetFormats-show_all.json")
            case "GetSearchResults" where request.query("data_field_key") != nil && !legacy:
                return reply("013-GetSearchResults-geo-radius.json")
            case "GetSearchResults":
                return reply(legacy ? "json_GetSearchResults_geo_radius_miles.json" : "005-GetSearchResults-services-weekday.json")
            default: return .json("[]")
            }
        }
    }

    @Test("finders: today and tomorrow, the nearest; a criteria search with distances; a meeting's details", arguments: servers)
    func finder(_ server: Server) async throws {
        let http = try Self.finderServer(server.folder)
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        _ = try await connection.validate()
        let here = BMLTCoordinate(latitude: 40.7070026, longitude: -73.6233694)
        let newYork = try #require(TimeZone(identifier: "America/New_York"))

        // Today and tomorrow from now, the 10 nearest (Sunday 2026-06-07 18:00 in New York: Sunday evening and Monday).
        let now = Date(timeIntervalSince1970: 1_780_869_600)
        var near = BMLTSearchCriteria()
        near.location = .nearest(10, latitude: here.latitude, longitude: here.longitude)
        let upcoming = try await connection.upcomingMeetings(days: 2, matching: near, in: newYork, now: now)
        let window = BMLTSearchCriteria.upcomingWindow(days: 2, now, in: newYork)
        // The replay answers every search with one captured reply (3.x/4.x: Monday's meetings of service body 1002,
        // all in the window; 2.16.6: the meetings within 3 miles, any day), so the window and the cut do the work here.
        #expect(upcoming.count <= 10 && (server.isLegacy || !upcoming.isEmpty))
        #expect(upcoming.allSatisfy { window.start <= $0.occurrence.start && $0.occurrence.start < window.end })
        #expect(upcoming.map(\.occurrence.start) == upcoming.map(\.occurrence.start).sorted())
        // The first request asks the 10 nearest (a replay that keeps answering the same few makes BMLTKit ask again, wider).
        let sent = try #require(http.requests.first { $0.target.contains("GetSearchResults") })
        #expect(sent.query("geo_width") == "-10" || sent.query("geo_width_km") == "-10")
        #expect(Set(sent.queryItems.filter { $0.name == "weekdays[]" }.compactMap(\.value)) == ["7", "1", "2", "3"])

        // A criteria search with distances, nearest first.
        var criteria = BMLTSearchCriteria()
        if server.isLegacy {
            criteria.location = .init(latitude: here.latitude, longitude: here.longitude, radius: .miles(3))
        } else {
            criteria.location = .nearest(5, latitude: 40.7, longitude: -73.6)
            criteria.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_miles", "distance_in_km"]
        }
        criteria.sortByDistance = true
        let results = try await connection.meetings(matching: criteria)
        let distances = results.meetings.compactMap(\.distanceInMiles)
        #expect(!results.meetings.isEmpty && distances.count == results.meetings.count && distances == distances.sorted())
        if !server.isLegacy { #expect(results.meetings.count == 5, "exactly the 5 nearest (the server answers 7)") }

        // A meeting's details, as the finders show them.
        let details = try #require(upcoming.first?.meeting ?? results.meetings.first)
        #expect(!details.name.isEmpty && details.id > 0)
        _ = (details.addressText, details.formats.map(\.key), details.virtualMeeting?.link, details.distance(from: here))
    }
}
