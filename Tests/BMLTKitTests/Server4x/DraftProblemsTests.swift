import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// `connection.problems(in:)` and the check `save(_:)` makes before sending, against the replayed 4.1.0 server:
/// the rules of bmlt-server's `MeetingController::validateInputs` and `VenueTypeLocation`.
@Suite("Drafts checked before sending (REST rules)", .needsCorpus, .serialized)
@MainActor
struct DraftProblemsTests {
    /// A validated, logged-in connection to the replayed 4.1.0 server, with its router.
    static func connect() async throws -> (BMLTConnection, StubServer, Server4xRouter, NotificationCenter) {
        let router = Server4xRouter()
        let stub = StubServer(router.handler)
        let center = NotificationCenter()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(center: center))
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        return (connection, stub, router, center)
    }

    /// A new in-person meeting that the server would accept (the captured request 120).
    static func complete() -> BMLTMeetingDraft {
        var draft = BMLTMeetingDraft(serviceBodyID: 1002)
        draft.name = "Fixture Test Meeting"
        draft.weekday = .monday
        draft.startTime = BMLTTimeOfDay(hour: 19)
        draft.coordinate = BMLTCoordinate(latitude: 40.7128, longitude: -73.6)
        draft.street = "1 Main St"
        draft.municipality = "Hempstead"
        draft.province = "NY"
        draft.postalCode = "11550"
        return draft
    }

    @Test("a complete draft has no problems; the same draft without a street has exactly that one")
    func street() async throws {
        let (connection, _, _, _) = try await Self.connect()
        #expect(connection.problems(in: Self.complete()).isEmpty)
        var draft = Self.complete()
        draft.street = nil
        var expected = BMLTFieldProblem(key: "location_street", message: "In-person meetings must have a street address.")
        expected.reason = .streetRequired(.inPerson)
        #expect(connection.problems(in: draft) == [expected])
        draft.municipality = nil
        #expect(connection.problems(in: draft).count == 1, "a postal code alone is a location")
        draft.postalCode = nil
        #expect(Set(connection.problems(in: draft).map(\.key))
                == ["location_street", "location_municipality", "location_province", "location_postal_code_1"])
    }

    @Test("saving an in-person draft without a street fails with .validationFailed, posts it, and sends nothing")
    func saveSendsNothing() async throws {
        let (connection, stub, router, center) = try await Self.connect()
        var draft = Self.complete()
        draft.street = "  "
        draft.weekday = nil
        let posted = Locked<[BMLTError]>([])
        let token = center.addObserver(forName: .bmltError, object: connection, queue: nil) { note in
            if let error = note.bmltError { posted.withLock { $0.append(error) } }
        }
        defer { center.removeObserver(token) }
        let sent = stub.requests.count
        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("a draft with problems must not be saved")
        } catch let error as BMLTError {
            guard case .validationFailed(_, let fields) = error else { Issue.record("\(error)"); return }
            #expect(Set(fields.keys) == ["location_street", "weekday_tinyint"])
            #expect(error.localizedDescription.contains("location_street: In-person meetings must have a street address."))
        }
        #expect(stub.requests.count == sent, "nothing is sent")
        #expect(router.recordedWrites.filter { $0.path.hasPrefix("api/v1/meetings") }.isEmpty)
        #expect(posted.withLock { $0.count } == 1)
        #expect(connection.admin.lastError != nil && connection.admin.isLoggedIn)
    }

    @Test("the captured 422 of request 121: every field the server named is a problem here, or a field BMLTKit fills itself")
    func capture121() async throws {
        let (connection, _, _, _) = try await Self.connect()
        // Request 121: serviceBodyId 999999, venueType 1, day 7 (no such REST day), startTime "7pm", name "".
        var draft = BMLTMeetingDraft(serviceBodyID: 999_999)
        draft.venueType = .inPerson
        let problems = Set(connection.problems(in: draft).map(\.key))
        let reply = try #require(try FixtureCorpus.raw(Server4xRouter.folder, "121-meeting-create-invalid-422.json") as? [String: Any])
        let refused = try #require(reply["errors"] as? [String: Any]).keys
        let semantic = ["serviceBodyId": "service_body_bigint", "day": "weekday_tinyint", "startTime": "start_time",
                        "latitude": "latitude", "longitude": "longitude", "name": "meeting_name"]
        let filledByBMLTKit: Set<String> = ["formatIds", "duration", "published"]   // always in the body BMLTKit writes
        for key in refused {
            if filledByBMLTKit.contains(key) { continue }
            let wire = try #require(semantic[key], "no rule for the server's \(key)")
            #expect(problems.contains(wire), "\(key)")
        }
        #expect(refused.count == semantic.count + filledByBMLTKit.count)
        #expect(problems.isSuperset(of: ["location_street", "location_municipality"]), "the venue rule the server reports once the rest passes")
    }

    @Test("virtual needs a link or a phone, hybrid both kinds, the time zone an IANA name, VM/HY/TC follow from the venue type")
    func otherRules() async throws {
        let (connection, _, _, _) = try await Self.connect()
        var virtual = Self.complete()
        virtual.venueType = .virtual
        virtual.street = nil
        #expect(Set(connection.problems(in: virtual).map(\.key)) == ["virtual_meeting_link", "phone_meeting_number"])
        virtual.phoneMeetingNumber = "+1 555 0100"
        #expect(connection.problems(in: virtual).isEmpty)

        var hybrid = virtual
        hybrid.venueType = .hybrid
        #expect(Set(connection.problems(in: hybrid).map(\.key)) == ["location_street"])

        var zoned = Self.complete()
        zoned.timeZone = TimeZone(secondsFromGMT: 3600)
        #expect(connection.problems(in: zoned).map(\.key) == ["time_zone"])
        zoned.timeZone = TimeZone(identifier: "America/New_York")
        #expect(connection.problems(in: zoned).isEmpty)

        let vm = try #require(connection.server.formats.first { $0.key == "VM" })
        var formats = Self.complete()
        formats.formatIDs = [vm.id]
        formats.formatKeys = ["VM"]
        #expect(connection.problems(in: formats).map(\.key) == ["formats"])
        formats.venueType = .virtual
        formats.virtualMeetingLink = "https://example.org/join"
        #expect(connection.problems(in: formats).isEmpty)
    }

    @Test("an edit is checked where it changed something; skipVenueTypeLocationValidation lets a street be cleared and is sent as the query")
    func editAndSkip() async throws {
        let (connection, _, router, _) = try await Self.connect()
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [1, 2]
        let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
        var partial = meeting
        partial.coordinate = nil                      // a meeting read with only some fields
        var unrelated = partial.editable()
        unrelated.comments = "x"
        #expect(connection.problems(in: unrelated).isEmpty)

        var draft = meeting.editable()
        draft.street = nil
        #expect(connection.problems(in: draft).map(\.key) == ["location_street"])
        let options = BMLTSaveOptions(skipVenueTypeLocationValidation: true)
        #expect(connection.problems(in: draft, options: options).isEmpty)
        _ = try await connection.saveAndWait(draft, options: options)
        let patch = try #require(router.recordedWrites.first { $0.method == "PATCH" })
        #expect(patch.query == "skipVenueTypeLocationValidation=true")
        #expect(String(decoding: patch.body, as: UTF8.self) == #"{"location_street":null}"#)
    }

    @Test("2.x has none of these rules")
    func legacyHasNone() throws {
        let info = try WireServerInfo.decode(try JSONScanner.parse(FixtureCorpus.data(FixtureCorpus.legacy, "json_GetServerInfo.json")))
        let draft = BMLTMeetingDraft(serviceBodyID: 3)
        #expect(MeetingDraftRules.problems(in: draft, info: info, formats: [], serviceBodyIDs: [], options: BMLTSaveOptions(), language: "en").isEmpty)
        #expect(!MeetingDraftRules.problems(in: draft, info: nil, formats: [], serviceBodyIDs: [], options: BMLTSaveOptions(), language: "en").isEmpty)
    }
}
