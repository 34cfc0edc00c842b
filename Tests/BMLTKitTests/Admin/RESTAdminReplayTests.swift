import Foundation
import Testing
@testable import BMLTKit

/// Administration over REST `/api/v1` against the real 3.1.2 replies, in the order they were captured: login,
/// edit and save, change list, roll back, create, delete, restore, log out. Every request is checked against the
/// server's OpenAPI schema and for where the secrets go.
@Suite("REST administration (3.1.2 captures)", .needsCorpus)
@MainActor
struct RESTAdminReplayTests {
    static let password = "CoreysGoryStory"
    nonisolated static let folder = FixtureCorpus.modern

    nonisolated static func capture(_ name: String) -> Data { (try? FixtureCorpus.served(folder, name)) ?? Data() }

    /// Answers like the 3.1.2 server did, by method and path.
    nonisolated static func router(afterPatch: Locked<Bool>, afterRollback: Locked<Bool>) -> StubServer.Handler {
        { request in
            let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
            let method = request.httpMethod ?? "GET"
            func json(_ name: String, _ status: Int = 200) -> StubServer.Response {
                StubServer.Response(status: status, body: capture(name))
            }
            switch (method, path) {
            case ("GET", "client_interface/json"), ("GET", "client_interface/json/"):
                switch request.query("switcher") {
                case "GetServerInfo": return json("001-GetServerInfo.json")
                case "GetServiceBodies": return json("004-GetServiceBodies.json")
                case "GetFormats": return json("003-GetFormats-show_all.json")
                case "GetSearchResults": return json("012-GetSearchResults-meeting_ids.json")
                case "GetChanges": return json(request.query("meeting_id") == "2" ? "201-GetChanges-meeting_id-2.json" : "200-GetChanges-after-edits.json")
                default: return .json("[]")
                }
            case ("POST", "api/v1/auth/token"): return json("101-auth-token-serveradmin.json")
            case ("POST", "api/v1/auth/refresh"): return json("102-auth-refresh.json")
            case ("POST", "api/v1/auth/logout"): return StubServer.Response(headers: ["Content-Type": "text/html; charset=UTF-8"])
            case ("GET", "api/v1/users/1"):
                let users = (try? JSONScanner.parse(capture("150-users.json")))?.array ?? []
                let admin = users.first { $0["id"]?.int == 1 }
                return .json(admin.map { WireJSONWriter.text($0) } ?? "{}")
            case ("GET", "api/v1/servicebodies"): return json("140-servicebodies.json")
            case ("PATCH", "api/v1/meetings/2"):
                afterPatch.withLock { $0 = true }
                return StubServer.Response(status: 204, headers: [:])
            case ("PUT", "api/v1/meetings/2"):
                afterRollback.withLock { $0 = true }
                return StubServer.Response(status: 204, headers: [:])
            case ("GET", "api/v1/meetings/2"):
                if afterRollback.withLock({ $0 }) { return json("114-meeting-2.json") }
                return json(afterPatch.withLock { $0 } ? "117-meeting-2-after-patch.json" : "114-meeting-2.json")
            case ("POST", "api/v1/meetings"): return json("120-meeting-create-201.json", 201)
            case ("DELETE", "api/v1/meetings/2693"): return StubServer.Response(status: 204, headers: [:])
            default: return json("128-meeting-404.json", 404)
            }
        }
    }

    @Test("login, edit, changes, rollback, create, delete, restore, logout: notifications in order, stores consistent, every request as the spec says")
    func fullFlow() async throws {
        let patched = Locked(false), rolledBack = Locked(false)
        let stub = StubServer(Self.router(afterPatch: patched, afterRollback: rolledBack))
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        recorder.removeAll()

        try await connection.login(username: "serveradmin", password: Self.password)
        #expect(connection.admin.isLoggedIn && connection.admin.user?.role == .serverAdministrator)
        #expect(connection.admin.permissions.count == connection.server.serviceBodies.count)
        #expect(connection.admin.permissions.allSatisfy { $0.canEditMeetings })

        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        var draft = meeting.editable()
        draft.name = "Nothing Macho (edited)"
        draft.startTime = BMLTTimeOfDay(hour: 14, minute: 30)
        draft.comments = "Edited via REST PATCH"
        let saved = try await connection.saveAndWait(draft)
        #expect(saved.meeting.name == "Nothing Macho (edited)" && saved.meeting.startTime == BMLTTimeOfDay(hour: 14, minute: 30))
        #expect(Set(saved.fieldChanges.map(\.key)) == ["meeting_name", "start_time", "comments"])
        #expect(saved.fieldChanges.first { $0.key == "start_time" } == BMLTFieldChange(key: "start_time", before: "14:00:00", after: "14:30:00"))
        #expect(connection.search.meetings.first { $0.id == 2 }?.name == "Nothing Macho (edited)", "the search store follows the save")

        let changes = try await connection.changes(meetingID: 2)
        let change = try #require(changes.first)
        #expect(change.before?.name == "Nothing Macho" && change.after?.name == "Nothing Macho (edited)")
        let rolledBackResult = try await connection.rollbackAndWait(meetingID: 2, toBefore: change)
        #expect(rolledBackResult.meeting.name == "Nothing Macho")
        #expect(rolledBackResult.fieldChanges.contains(BMLTFieldChange(key: "meeting_name", before: "Nothing Macho (edited)", after: "Nothing Macho")))

        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "Fixture Test Meeting"
        fresh.weekday = .tuesday   // REST day 2
        fresh.startTime = BMLTTimeOfDay(hour: 19)
        fresh.duration = 3600
        fresh.venueType = .inPerson
        fresh.coordinate = BMLTCoordinate(latitude: 40.7128, longitude: -73.6)
        fresh.isPublished = true
        fresh.formatIDs = [17, 29]
        fresh.locationText = "Community Hall"; fresh.street = "1 Main St"; fresh.municipality = "Hempstead"
        fresh.province = "NY"; fresh.postalCode = "11550"; fresh.nation = "USA"; fresh.comments = "Created via REST POST"
        let created = try await connection.saveAndWait(fresh)
        #expect(created.wasCreated && created.meeting.id == 2693 && created.meeting.weekday == .tuesday)

        try await connection.deleteMeetingAndWait(id: 2693)
        let deletions = try await connection.deletedMeetings()
        let deletion = try #require(deletions.first { $0.meetingID == 2693 })
        let restored = try await connection.restoreDeletedMeetingAndWait(deletion)
        #expect(restored.name == "Fixture Test Meeting")

        try await connection.logoutAndWait()
        #expect(!connection.admin.isLoggedIn && connection.admin.user == nil && connection.admin.permissions.isEmpty)
        await #expect(throws: BMLTError.self) { try await connection.deleteMeetingAndWait(id: 1) }

        let outcomes = recorder.names.filter { !$0.hasPrefix("progress") && $0 != "error" && $0 != "search.meetingsArrived" }
        #expect(outcomes == ["admin.loginChanged", "search.meetings", "search.formats", "meeting.saved", "changes.results",
                             "meeting.saved", "meeting.added", "meeting.deleted", "changes.results", "meeting.added",
                             "admin.loginChanged"])

        // Every REST request: the right headers, bodies that match the spec, no secret in a URL.
        let token = "3|mQ5IhaaN52kHdUnxiD0GpdGWTmC8jH0xgo7yjIEee6a01ac2"
        for request in stub.requests {
            let url = request.url!.absoluteString
            #expect(!url.contains(Self.password) && !url.contains(token) && !url.contains("mQ5Ih"))
            guard url.contains("/api/v1/") else { continue }
            #expect(request.value(forHTTPHeaderField: "Accept") == "application/json", "\(url)")
            if !url.hasSuffix("auth/token") {
                #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer " + token, "\(url)")
            }
        }
        let writes = stub.requests.filter { ["POST", "PUT", "PATCH"].contains($0.httpMethod ?? "") && $0.httpBody?.isEmpty == false }
        #expect(writes.map { $0.httpMethod! } == ["POST", "PATCH", "PUT", "POST", "POST"], "token, patch, rollback, create, restore")
        for request in writes {
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let path = request.url!.path.replacingOccurrences(of: "/main_server", with: "")
                .replacingOccurrences(of: #"/\d+$"#, with: "/{meetingId}", options: .regularExpression)
            RESTSpec.expectConforms(request.httpBody, request.httpMethod!, path)
        }
        let login = try #require(stub.requests.first { $0.url!.path.hasSuffix("auth/token") })
        #expect(try JSONScanner.parse(login.httpBody ?? Data()) == .object(["username": .string("serveradmin"), "password": .string(Self.password)]))
        let patch = try #require(stub.requests.first { $0.httpMethod == "PATCH" })
        #expect(try JSONScanner.parse(patch.httpBody ?? Data())
                == (try JSONScanner.parse(Data(#"{"name":"Nothing Macho (edited)","startTime":"14:30","comments":"Edited via REST PATCH"}"#.utf8))),
                "the PATCH sends exactly the edited fields, as the captured request did")
        let post = try #require(stub.requests.first { $0.httpMethod == "POST" && $0.url!.path.hasSuffix("api/v1/meetings") })
        let recordedPost = try JSONScanner.parse(Data(#"{"serviceBodyId":1002,"formatIds":[17,29],"venueType":1,"temporarilyVirtual":false,"day":2,"startTime":"19:00","duration":"01:00","timeZone":null,"latitude":40.7128,"longitude":-73.6,"published":true,"email":null,"worldId":null,"name":"Fixture Test Meeting","location_text":"Community Hall","location_street":"1 Main St","location_municipality":"Hempstead","location_province":"NY","location_postal_code_1":"11550","location_nation":"USA","comments":"Created via REST POST"}"#.utf8))
        let sentPost = try #require(try JSONScanner.parse(post.httpBody ?? Data()).object)
        for (key, value) in recordedPost.object ?? [:] { #expect(sentPost[key] == value, "POST \(key)") }
        for (key, value) in sentPost where recordedPost[key] == nil { #expect(value == .null, "POST extra \(key) should be null") }
        let logout = try #require(stub.requests.last { $0.url!.path.hasSuffix("auth/logout") })
        #expect(logout.httpMethod == "POST")
        let text = recorder.all.map { "\($0)" }.joined() + (connection.admin.lastError?.localizedDescription ?? "")
        #expect(!text.contains(Self.password) && !text.contains(token))
    }
}
