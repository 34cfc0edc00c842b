import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// Issue 47, "two admins, one meeting": a second login changes or deletes the meeting between a draft and its save.
/// Against `TwoAdminsStandIn` — each generation's write interface as captured: 2.16.6 `json.php` `modify_meeting`
/// (`rootserver/admin_json_modify_meeting.json`, `admin_json_get_meetings_ids.json`), 3.1.2 / 4.1.0 / 4.2.7 `/api/v1`
/// `PATCH` (`116-meeting-2-patch.empty`, `114-meeting-2.json`, `128-meeting-404.json`) — every test asserts what the
/// stand-in holds afterwards.
@Suite("Two admins, one meeting", .needsCaptures, .serialized)
@MainActor
struct EditConflictTests {
    typealias Generation = TwoAdminsStandIn.Generation
    nonisolated static let generations = Generation.allCases

    /// A logged-in connection to a fresh stand-in (`contacts`: the meeting holds a contact, see `TwoAdminsStandIn`).
    func connect(_ generation: Generation, contacts: Bool = false) async throws -> (TwoAdminsStandIn, BMLTConnection) {
        let standIn = try TwoAdminsStandIn(generation, contacts: contacts)
        let configuration = BMLTConfiguration(timeout: hangGuardTimeout, retryPolicy: BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.01))
        let connection = BMLTConnection(rootServerURL: standIn.rootURL, configuration: configuration)
        _ = try await connection.validate()
        try await connection.login(username: "admin", password: RESTAdminReplay.password)
        return (standIn, connection)
    }

    /// The meeting as a host reads it (the semantic search), made a draft.
    func draft(_ standIn: TwoAdminsStandIn, _ connection: BMLTConnection) async throws -> BMLTMeetingDraft {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [standIn.meetingID]
        let meeting = try #require(try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first)
        return meeting.editable()
    }

    /// The edit conflict a save ends with (`nil`: it did not end with one).
    func conflict(_ connection: BMLTConnection, _ draft: BMLTMeetingDraft) async -> BMLTEditConflict? {
        do {
            _ = try await connection.saveAndWait(draft)
            return nil
        } catch BMLTError.editConflict(let conflict) {
            return conflict
        } catch {
            Issue.record("expected an edit conflict, got \(error)")
            return nil
        }
    }

    @Test("same field: nothing sent, the conflict's three values and who/when; the stand-in still holds the other admin's value",
          arguments: generations)
    func sameField(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        let original = try #require(standIn.value("meeting_name"))
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.otherAdminSets("meeting_name", "Theirs")

        let found = try #require(await conflict(connection, draft))
        #expect(found.meetingID == standIn.meetingID)
        #expect(found.fields == [BMLTFieldConflict(key: "meeting_name", original: original, mine: "Mine", theirs: "Theirs")])
        #expect(found.current.name == "Theirs")
        #expect(found.changedBy == TwoAdminsStandIn.otherAdmin && found.changedAt != nil)
        #expect(standIn.value("meeting_name") == "Theirs" && standIn.writeRequests == 0)
        #expect(connection.admin.lastError == .editConflict(found))
        let sentence = BMLTError.editConflict(found).description
        #expect(sentence.contains("meeting_name") && !sentence.localizedCaseInsensitiveContains("try again") && !sentence.contains("Theirs"),
                "\(sentence)")
    }

    @Test("another field: both edits held, and the save says nothing changed meanwhile", arguments: generations)
    func otherField(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.otherAdminSets("comments", "Their comment")

        let saved = try await connection.saveAndWait(draft)
        #expect(standIn.value("meeting_name") == "Mine" && standIn.value("comments") == "Their comment")
        #expect(saved.meeting.comments == "Their comment")
        #expect(saved.changedMeanwhile == [])   // checked (nil without the check), nothing slipped into the window
        #expect(connection.admin.lastSave == saved)
    }

    @Test("deleted by another login: reported as deleted (by whom, when), never 'server failed' or 'try again', nothing made again",
          arguments: generations)
    func deleted(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.otherAdminDeletes()

        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("the save of a deleted meeting succeeded")
        } catch BMLTError.meetingDeleted(let gone) {
            #expect(gone.meetingID == standIn.meetingID)
            #expect(gone.deletedBy == TwoAdminsStandIn.otherAdmin && gone.deletedAt != nil)
            let sentence = BMLTError.meetingDeleted(gone).description
            #expect(!sentence.localizedCaseInsensitiveContains("try again") && !sentence.contains("failed"), "\(sentence)")
        }
        #expect(!standIn.holdsMeeting && standIn.meetingCount == 0 && standIn.writeRequests == 0)
    }

    @Test("deleted between the check and the write (2.16.6: HTTP 500; 3.x/4.x: 404): reported as deleted, nothing made again",
          arguments: generations)
    func deletedInTheWindow(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.beforeNextWrite { $0.otherAdminDeletes() }

        do {
            _ = try await connection.saveAndWait(draft)
            Issue.record("the save of a deleted meeting succeeded")
        } catch BMLTError.meetingDeleted(let gone) {
            #expect(gone.meetingID == standIn.meetingID && gone.deletedBy == TwoAdminsStandIn.otherAdmin)
        }
        #expect(!standIn.holdsMeeting && standIn.writeRequests == 1)
    }

    @Test("a draft kept on disk (JSON) and saved days later, fire-and-forget: .bmltError with .editConflict, lastError, events",
          arguments: generations)
    func keptOnDisk(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        let onDisk = try JSONEncoder().encode(draft)
        standIn.otherAdminSets("meeting_name", "Theirs")          // "days later"
        let decoded = try JSONDecoder().decode(BMLTMeetingDraft.self, from: onDisk)

        var events = connection.events.makeAsyncIterator()
        let request = connection.save(decoded)
        var reported: BMLTError?
        while let event = await events.next() {
            if case .error(let error, let about) = event, about === request { reported = error; break }
            if case .meetingSaved = event { break }
        }
        guard case .editConflict(let found)? = reported else {
            Issue.record("expected .editConflict, got \(String(describing: reported))")
            return
        }
        #expect(found.fields.map(\.key) == ["meeting_name"] && found.fields.first?.theirs == "Theirs")
        #expect(connection.admin.lastError == .editConflict(found))
        #expect(standIn.value("meeting_name") == "Theirs" && standIn.writeRequests == 0)
    }

    @Test("rebased draft: saved knowingly, mine over theirs; the other admin's change to another field kept", arguments: generations)
    func rebased(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.otherAdminSets("meeting_name", "Theirs")
        standIn.otherAdminSets("comments", "Their comment")

        let found = try #require(await conflict(connection, draft))
        let again = draft.rebased(onto: found.current)
        #expect(again.changes.map(\.key) == ["meeting_name"])
        let saved = try await connection.saveAndWait(again)
        #expect(saved.meeting.name == "Mine")
        #expect(standIn.value("meeting_name") == "Mine" && standIn.value("comments") == "Their comment")
        #expect(standIn.writeRequests == 1)
    }

    @Test("values as the servers store them (trailing space, HH:MM vs HH:MM:SS, already the draft's) are no conflict",
          arguments: generations)
    func normalised(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        let start = try #require(draft.startTime)
        draft.name = "Mine"
        draft.startTime = BMLTTimeOfDay(hour: (start.hour + 1) % 24, minute: 30)
        draft.comments = "Our note"
        // The other login typed the same name with a space (2.x keeps it; 3.x/4.x trim it), the same time, the same note.
        standIn.otherAdminSets("meeting_name", generation == .legacy ? "Mine " : "Mine")
        standIn.otherAdminSets("start_time", String(format: "%02d:30:00", (start.hour + 1) % 24))
        standIn.otherAdminSets("comments", "  Our note")

        let saved = try await connection.saveAndWait(draft)
        #expect(saved.changedMeanwhile == [])
        #expect(standIn.value("comments") == "Our note" && standIn.value("meeting_name") == "Mine")
    }

    @Test("the same draft saved from two tasks at once: both succeed, the stand-in holds it once", arguments: generations)
    func twoTasks(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        let edited = draft   // a constant for the two child tasks (a captured `var` is a data race to the checker)
        async let first = connection.saveAndWait(edited)
        async let second = connection.saveAndWait(edited)
        let (one, two) = try await (first, second)
        #expect(one.meeting.name == "Mine" && two.meeting.name == "Mine")
        #expect(standIn.value("meeting_name") == "Mine" && standIn.meetingCount == 1)
        // Once more, after both: the check finds the draft's own values (no conflict), the stand-in still holds them.
        let again = try await connection.saveAndWait(draft)
        #expect(again.meeting.name == "Mine" && standIn.value("meeting_name") == "Mine")
    }

    @Test("a draft made by hand with no original: only that the meeting exists is checked (deleted → reported as deleted)",
          arguments: generations)
    func noOriginal(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        let read = try await draft(standIn, connection).meeting
        var draft = BMLTMeetingDraft(serviceBodyID: read.serviceBodyID)
        draft.meeting = read                  // by hand: every filled field is sent, none can conflict
        draft.name = "Mine"
        if generation == .legacy { draft.venueType = nil }   // 2.x's json.php cannot take it (a draft rule refuses it first)
        #expect(draft.original == nil && !draft.isNew)
        standIn.otherAdminDeletes()
        await #expect(throws: BMLTError.self) { _ = try await connection.saveAndWait(draft) }
        if case .meetingDeleted? = connection.admin.lastError {} else { Issue.record("\(String(describing: connection.admin.lastError))") }
        #expect(!standIn.holdsMeeting && standIn.writeRequests == 0)
    }

    @Test("a change slipping in between the check and the write is reported in changedMeanwhile (2.x: also the same field)",
          arguments: generations)
    func window(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        draft.name = "Mine"
        standIn.beforeNextWrite { standIn in
            standIn.otherAdminSets("comments", "Slipped in")
            standIn.otherAdminSets("meeting_name", "Slipped name")
        }
        let saved = try await connection.saveAndWait(draft)
        let seen = try #require(saved.changedMeanwhile)
        #expect(seen.contains(BMLTFieldConflict(key: "comments", original: nil, mine: nil, theirs: "Slipped in")), "\(seen)")
        // 2.x's modify_meeting answer gives the value it replaced; 3.x/4.x answer 204 and the read-back shows the save's value.
        #expect(seen.contains { $0.key == "meeting_name" && $0.theirs == "Slipped name" } == (generation == .legacy), "\(seen)")
        #expect(standIn.value("meeting_name") == "Mine" && standIn.value("comments") == "Slipped in")
    }

    @Test("cost at 300 ms round trips: one read more per save (check, write, read-back); a conflict costs two reads and no write",
          arguments: [Generation.legacy, Generation.rest4])
    func cost(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        var draft = try await draft(standIn, connection)
        standIn.server.conditions = .init(roundTrip: 0.3)
        draft.name = "Mine"
        let before = standIn.server.requests.count
        let started = Date()
        _ = try await connection.saveAndWait(draft)
        let seconds = Date().timeIntervalSince(started)
        let sent = standIn.server.requests.count - before
        #expect(sent == 3, "a save sent \(sent) requests")
        print("edit-conflict cost (\(generation.rawValue), 300 ms round trip): \(sent) requests, \(String(format: "%.2f", seconds)) s")

        var stale = draft
        stale.name = "Mine again"
        standIn.otherAdminSets("meeting_name", "Theirs")
        let middle = standIn.server.requests.count
        let conflictStarted = Date()
        _ = await conflict(connection, stale)
        let conflictRequests = standIn.server.requests.count - middle
        #expect(conflictRequests == 2 && standIn.value("meeting_name") == "Theirs")
        print("edit-conflict cost (\(generation.rawValue), 300 ms round trip): a conflict \(conflictRequests) requests, "
              + "\(String(format: "%.2f", Date().timeIntervalSince(conflictStarted))) s")
    }
}
