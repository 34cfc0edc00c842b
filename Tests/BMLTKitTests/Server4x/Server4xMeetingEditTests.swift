import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Meeting edits against the captured 4.1.0 server: 4.x's new meeting keys are typed, and a write carries only
/// what the client may change (the bug: `"customFields":{"service_body_name":…}` answered with 422).
@Suite("Root server 4.x: meeting edits", .needsCorpus, .serialized)
@MainActor
struct Server4xMeetingEditTests {
    @Test("4.x search results type service_body_name and admin_notes; nothing is left in extraFields")
    func typedFields() throws {
        let value = try JSONScanner.parse(Server4xRouter.capture("012-GetSearchResults-meeting_ids.json"))
        let meetings = try WireMeeting.decodeList(value, formats: .empty)
        let raw = try #require(try FixtureCorpus.raw(Server4xRouter.folder, "012-GetSearchResults-meeting_ids.json") as? [[String: Any]])
        #expect(meetings.count == raw.count && !meetings.isEmpty)
        for (meeting, object) in zip(meetings, raw) {
            let name = try #require(object["service_body_name"] as? String)
            #expect(meeting.serviceBodyName == name && !name.isEmpty)
            #expect(object["admin_notes"] as? String == "" && meeting.adminNotes == nil)
            #expect(meeting.extraFields.isEmpty, "\(meeting.extraFields)")
        }
    }

    @Test("editing name, start time and comments of a 4.x meeting sends exactly those three fields, and reads the result back")
    func patchBody() async throws {
        let router = Server4xRouter()
        let stub = StubServer(router.handler)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        #expect(meeting.serviceBodyName == "Bronx Area Service")
        var draft = meeting.editable()
        draft.name = "Nothing Macho (edited)"
        draft.startTime = BMLTTimeOfDay(hour: 14, minute: 30)
        draft.comments = "Edited via REST PATCH"
        let saved = try await connection.saveAndWait(draft)

        let patch = try #require(router.recordedWrites.first { $0.method == "PATCH" })
        #expect(patch.path == "api/v1/meetings/2" && patch.query == nil)
        #expect(String(decoding: patch.body, as: UTF8.self)
                == #"{"startTime":"14:30","name":"Nothing Macho (edited)","comments":"Edited via REST PATCH"}"#)
        #expect(saved.meeting.name == "Nothing Macho (edited)" && saved.meeting.comments == "Edited via REST PATCH")
        #expect(Set(saved.fieldChanges.map(\.key)) == ["meeting_name", "start_time", "comments"])
    }

    @Test("a full body (PUT/POST) on 4.x: admin_notes sent, customFields only the server's custom keys, computed keys never")
    func fullBody() throws {
        let info = try WireServerInfo.decode(try JSONScanner.parse(Server4xRouter.capture("001-GetServerInfo.json")))
        #expect(WireRESTMeeting.customKeys(server: info, meeting: BMLTMeeting(id: 1, serviceBodyID: 1)) == ["zone"])
        var meeting = try WireRESTMeeting.decode(try JSONScanner.parse(Server4xRouter.capture("114-meeting-2.json")),
                                                 formats: [], what: .meeting(id: 2))
        meeting.serviceBodyName = "Bronx Area Service"
        meeting.rootServerURI = "http://127.0.0.1:8002/main_server"
        meeting.distanceInKilometers = 2
        meeting.zone = "North"
        meeting.adminNotes = "Key at the desk"
        meeting.extraFields = ["service_body_name": "x", "root_server_uri": "y", "distance_in_miles": "1",
                               "format_shared_id_list": "1,2", "not_a_custom_field": "z"]
        let body = WireRESTMeeting.body(meeting, formats: [], defaultDuration: info.defaultDuration, server: info)
        let keys = body.map(\.0)
        for computed in ["service_body_name", "root_server_uri", "distance_in_km", "distance_in_miles", "format_shared_id_list",
                         "not_a_custom_field", "id"] {
            #expect(!keys.contains(computed), "\(computed)")
        }
        #expect(body.first { $0.0 == "admin_notes" }?.1 == .string("Key at the desk"))
        #expect(body.first { $0.0 == "customFields" }?.1 == .object(["zone": .string("North")]))

        // The same meeting's PATCH of an unrelated field carries no customFields at all.
        let patch = WireRESTMeeting.body(meeting, keys: ["meeting_name"], formats: [], defaultDuration: nil, server: info)
        #expect(patch.map(\.0) == ["name"])
    }

    @Test("on 3.x (no admin_notes) a full body leaves admin_notes out unless it has a value")
    func adminNotesOn3x() throws {
        let info = try WireServerInfo.decode(try JSONScanner.parse(FixtureCorpus.data(FixtureCorpus.modern, "001-GetServerInfo.json")))
        var meeting = BMLTMeeting(id: 2, serviceBodyID: 1, name: "X")
        meeting.serviceBodyName = "Computed"
        #expect(!WireRESTMeeting.body(meeting, formats: [], defaultDuration: nil, server: info).contains { $0.0 == "admin_notes" })
        meeting.adminNotes = "note"
        #expect(WireRESTMeeting.body(meeting, formats: [], defaultDuration: nil, server: info).contains { $0.0 == "admin_notes" })
    }
}

/// `adminNotes` on a 2.x server, which has no such field: refused at once, nothing sent.
@Suite("adminNotes on 2.x", .needsCorpus)
@MainActor
struct AdminNotesLegacyTests {
    @Test("editing adminNotes through json.php is refused naming admin_notes and sends nothing")
    func refused() async throws {
        let info = try WireServerInfo.decode(try JSONScanner.parse(FixtureCorpus.data(FixtureCorpus.legacy, "json_GetServerInfo.json")))
        let stub = StubServer { _ in .json("[]") }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let context = OperationContext(root: stub.rootURL, transport: connection.transport, serverInfo: info, serverFormats: [],
                                       adminSession: AdminSession())
        var draft = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "X").editable()
        draft.adminNotes = "note"
        do {
            _ = try await LegacyAdmin(context: context, formats: [], info: info).save(draft, options: BMLTSaveOptions())
            Issue.record("2.x has no admin notes")
        } catch {
            guard case .validationFailed(_, let fields) = error else { Issue.record("\(error)"); return }
            #expect(fields.keys.sorted() == ["admin_notes"] && fields["admin_notes"]?.first?.contains("notes") == true)
        }
        #expect(stub.requests.isEmpty)
        #expect(MeetingDraftRules.problems(in: draft, info: info, formats: [], serviceBodyIDs: [], options: BMLTSaveOptions(), language: "en")
                    .map(\.key) == ["admin_notes"])
    }
}

/// A key a 4.x reply adds that the server does not define as a custom field: kept, never sent back.
@Suite("Unknown meeting keys on 4.x", .needsCorpus, .serialized)
@MainActor
struct UnknownMeetingKeyTests {
    @Test("an unknown key in a 4.x search is kept in extraFields, left out of every write, and editing only it is .unsupported with nothing sent")
    func keptNeverSent() async throws {
        let router = Server4xRouter()
        let stub = StubServer { request in
            if request.url?.query?.contains("GetSearchResults") == true {
                var meetings = (try? JSONSerialization.jsonObject(with: Server4xRouter.capture("012-GetSearchResults-meeting_ids.json")) as? [[String: Any]]) ?? []
                for index in meetings.indices { meetings[index]["meeting_mood"] = "calm" }
                return StubServer.Response(body: (try? JSONSerialization.data(withJSONObject: meetings)) ?? Data())
            }
            return router.handler(request)
        }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        #expect(meeting.extraFields == ["meeting_mood": "calm"])

        var draft = meeting.editable()
        draft.extraFields["meeting_mood"] = "lively"
        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("the server does not define meeting_mood")
        } catch let error as BMLTError {
            guard case .unsupported(let what) = error else { Issue.record("\(error)"); return }
            guard case .undefinedFields(let keys, _) = what else { Issue.record("\(what)"); return }
            #expect(keys.contains("meeting_mood") && what.description.contains("meeting_mood"))
        }
        #expect(router.recordedWrites.filter { $0.method == "PATCH" }.isEmpty)

        draft.comments = "edited"
        _ = try await connection.saveAndWait(draft)
        let patch = try #require(router.recordedWrites.first { $0.method == "PATCH" })
        #expect(String(decoding: patch.body, as: UTF8.self) == #"{"comments":"edited"}"#)
    }
}
