import Foundation
import Testing
@testable import BMLTKit

/// Issue 47's pieces without a server: the comparison as the servers store values, `rebased(onto:)`, what the check
/// reports as changed between it and the read-back, and the sentences in the twelve languages.
@Suite("Edit conflicts: comparison, rebase, sentences")
struct EditConflictUnitTests {
    static let languages = ["da", "de", "el", "en", "es", "fa", "fr", "it", "pl", "pt", "ru", "sv"]

    static func meeting() -> BMLTMeeting {
        var meeting = BMLTMeeting(id: 42, serviceBodyID: 1002, name: "Hope", weekday: .tuesday, startTime: BMLTTimeOfDay(hour: 19, minute: 0))
        meeting.comments = "Ring the bell"
        meeting.formatKeys = ["O", "D"]
        meeting.formatIDs = [17, 4]
        return meeting
    }

    @Test("values as the servers store them: trimmed text, format sets, HH:MM vs HH:MM:SS, numbers; other values differ")
    func sameAsStored() {
        #expect(EditConflictCheck.same("meeting_name", "Hope ", "Hope"))
        #expect(EditConflictCheck.same("comments", nil, "  "))
        #expect(EditConflictCheck.same("formats", "O,D", "D, O"))
        #expect(EditConflictCheck.same("start_time", "19:00", "19:00:00"))
        #expect(EditConflictCheck.same("latitude", "40.70000000", "40.7"))
        #expect(EditConflictCheck.same("published", "true", "1"))
        #expect(!EditConflictCheck.same("meeting_name", "Hope", "hope"))
        #expect(!EditConflictCheck.same("formats", "O,D", "O"))
        #expect(!EditConflictCheck.same("start_time", "19:00", "19:30:00"))
        #expect(!EditConflictCheck.same("comments", "A", nil))
    }

    @Test("conflicts: a field changed elsewhere to another value; not one changed to the draft's value or left as it was")
    func conflicts() {
        let original = Self.meeting()
        var mine = original
        mine.name = "Hope Group"
        mine.comments = "Knock"
        var held = original
        held.name = "Hope (Tuesday)"      // theirs: a conflict
        held.comments = "Knock "          // already the draft's, as stored: none
        held.zone = "North"               // a field the draft does not change: none
        let found = EditConflictCheck.conflicts(original: original, mine: mine, held: held, keys: ["meeting_name", "comments"])
        #expect(found == [BMLTFieldConflict(key: "meeting_name", original: "Hope", mine: "Hope Group", theirs: "Hope (Tuesday)")])
    }

    @Test("rebased(onto:): the draft's changes over the server's meeting, the rest the server's; Codable round trip first")
    func rebased() throws {
        var draft = Self.meeting().editable()
        draft.name = "Hope Group"
        draft.formatKeys = ["O", "D", "WC"]
        let kept = try JSONDecoder().decode(BMLTMeetingDraft.self, from: try JSONEncoder().encode(draft))
        var current = Self.meeting()
        current.name = "Hope (Tuesday)"
        current.comments = "Use the side door"
        let again = kept.rebased(onto: current)
        #expect(again.original == current)
        #expect(again.name == "Hope Group" && again.formatKeys == ["O", "D", "WC"] && again.comments == "Use the side door")
        #expect(Set(again.changes.map(\.key)) == ["meeting_name", "formats"])
        let new = BMLTMeetingDraft(serviceBodyID: 1002)
        #expect(new.rebased(onto: current) == new)
    }

    @Test("changed meanwhile: another field (kept), a field not holding what was sent; derived fields left out")
    func meanwhile() {
        let checked = Self.meeting()
        var sent = checked
        sent.name = "Hope Group"
        sent.street = "2 Main St"
        var after = sent
        after.comments = "Use the side door"      // another change, kept
        after.coordinate = BMLTCoordinate(latitude: 40.7, longitude: -73.6)   // derived from the address by a 4.x server: not reported
        let result = BMLTSaveResult(meeting: after, fieldChanges: [], wasCreated: false)
        let seen = EditConflictCheck.meanwhile(checked: checked, draftOriginal: checked, sent: sent, keys: ["meeting_name", "location_street"],
                                               result: result, legacy: false)
        #expect(seen == [BMLTFieldConflict(key: "comments", original: "Ring the bell", mine: nil, theirs: "Use the side door")])
        // 2.x: modify_meeting's answer says the name held another value just before the write.
        let legacy = BMLTSaveResult(meeting: sent, fieldChanges: [BMLTFieldChange(key: "meeting_name", before: "Slipped", after: "Hope Group")],
                                    wasCreated: false)
        #expect(EditConflictCheck.meanwhile(checked: checked, draftOriginal: checked, sent: sent, keys: ["meeting_name", "location_street"], result: legacy, legacy: true)
                == [BMLTFieldConflict(key: "meeting_name", original: "Hope", mine: "Hope Group", theirs: "Slipped")])
    }

    @Test("the sentences in twelve languages: the meeting, the fields by key, never a value, never 'try again'")
    func sentences() {
        let conflict = BMLTEditConflict(meetingID: 42, fields: [BMLTFieldConflict(key: "meeting_name", original: "Hope", mine: "Mine", theirs: "Theirs")],
                                        current: Self.meeting(), changedBy: "Nassau Admin", changedAt: Date(timeIntervalSince1970: 1_790_000_000))
        let gone = BMLTDeletedMeeting(meetingID: 42, deletedBy: "Nassau Admin", deletedAt: Date(timeIntervalSince1970: 1_790_000_000))
        var seen: Set<String> = []
        for language in Self.languages {
            let locale = Locale(identifier: language)
            let text = BMLTError.editConflict(conflict).localizedDescription(for: locale)
            let deleted = BMLTError.meetingDeleted(gone).localizedDescription(for: locale)
            #expect(text.contains("42") && text.contains("meeting_name") && text.contains("Nassau Admin") && !text.contains("Theirs"), "\(language): \(text)")
            #expect(deleted.contains("42") && deleted.contains("Nassau Admin"), "\(language): \(deleted)")
            seen.insert(text)
        }
        #expect(seen.count == Self.languages.count)
        #expect(BMLTError.editConflict(conflict).description.hasPrefix("Meeting 42 was changed on the server (by Nassau Admin, 2026-"))
        #expect(!BMLTError.editConflict(conflict).description.localizedCaseInsensitiveContains("try again"))
        // A reader's English is the reader's date (D21): ISO 8601 only in the log's description.
        let english = BMLTError.editConflict(conflict).localizedDescription(for: Locale(identifier: "en_US"))
        #expect(english.contains("2026") && !english.contains("2026-"), "\(english)")
        #expect(BMLTError.meetingDeleted(gone).localizedDescription(for: Locale(identifier: "en")).contains("2026-") == false)
        #expect(gone.description.contains("2026-") && conflict.description.contains("2026-"), "the log's form keeps ISO 8601")
        #expect(BMLTError.meetingDeleted(BMLTDeletedMeeting(meetingID: 7)).description
                == "Meeting 7 was deleted on the server since this draft was made. Nothing was saved, and the meeting was not made again; "
                + "restore it from the deleted meetings if it should exist.")
    }
}
