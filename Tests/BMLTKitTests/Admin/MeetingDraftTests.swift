import Foundation
import Testing
@testable import BMLTKit

/// `BMLTMeetingDraft`: what it reports as changed, and the three local undo operations (to a change's
/// before-image, to the server's state, one field). None of them sends anything.
@Suite("Meeting drafts: changes and local reverts")
struct MeetingDraftTests {
    static func meeting() -> BMLTMeeting {
        var meeting = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work", weekday: .sunday,
                                  startTime: BMLTTimeOfDay(hour: 10, minute: 15), duration: 7200)
        meeting.comments = "Side door"
        meeting.formatKeys = ["M"]
        meeting.formatIDs = [15]
        return meeting
    }

    @Test("a fresh draft has no changes; each edit is one field change with the server's wire key, before and after")
    func changes() {
        var draft = Self.meeting().editable()
        #expect(!draft.hasChanges && draft.changes.isEmpty && !draft.isNew)
        draft.name = "Recovery At Work (Updated)"
        draft.startTime = BMLTTimeOfDay(hour: 10, minute: 30)
        #expect(Set(draft.changes) == [
            BMLTFieldChange(key: "meeting_name", before: "Recovery At Work", after: "Recovery At Work (Updated)"),
            BMLTFieldChange(key: "start_time", before: "10:15:00", after: "10:30:00"),
        ])
        draft.name = "Recovery At Work"           // edited back: no longer a change
        #expect(draft.changes.map(\.key) == ["start_time"])
    }

    @Test("revert(field:) undoes one field and keeps the other edits")
    func revertField() {
        var draft = Self.meeting().editable()
        draft.name = "Other"
        draft.comments = "Front door"
        draft.revert(field: "meeting_name")
        #expect(draft.name == "Recovery At Work" && draft.comments == "Front door")
        #expect(draft.changes.map(\.key) == ["comments"])
    }

    @Test("revertToServerState() undoes every edit; for a new draft it is an empty meeting of the same service body")
    func revertAll() {
        var draft = Self.meeting().editable()
        draft.name = "Other"
        draft.weekday = .friday
        draft.revertToServerState()
        #expect(draft.meeting == Self.meeting() && !draft.hasChanges)

        var fresh = BMLTMeetingDraft(serviceBodyID: 1002)
        fresh.name = "New"
        fresh.revertToServerState()
        #expect(fresh.isNew && fresh.name.isEmpty && fresh.serviceBodyID == 1002)
    }

    @Test("revert(toBefore:) puts back what the change replaced, keeps fields the change did not record, sends nothing")
    func revertToBefore() {
        let before = Self.meeting()
        var after = before
        after.name = "Recovery At Work (Updated)"
        after.startTime = BMLTTimeOfDay(hour: 10, minute: 30)
        after.formatKeys = ["O", "M", "WC"]
        after.formatIDs = [17, 15, 33]
        let change = BMLTChange(id: 13139, type: .changed, meetingID: 2339, before: before, after: after)

        var draft = after.editable()
        draft.comments = "A local edit the change did not touch"
        draft.revert(toBefore: change)
        #expect(draft.name == "Recovery At Work")
        #expect(draft.startTime == BMLTTimeOfDay(hour: 10, minute: 30 - 15))
        #expect(draft.formatKeys == ["M"] && draft.formatIDs == [15])
        #expect(draft.comments == "A local edit the change did not touch")
        #expect(draft.id == 2339, "the id is never reverted")
        #expect(Set(draft.changes.map(\.key)).isSuperset(of: ["meeting_name", "start_time", "comments"]))

        var untouched = after.editable()
        untouched.revert(toBefore: BMLTChange(id: 1, type: .created, meetingID: 2339, after: after))
        #expect(!untouched.hasChanges, "a change without a before-image (a creation) reverts nothing")
    }

    @Test("a REST rollback takes the whole before-image (as the legacy server's rollback does), local edits included")
    func wholeBeforeImage() {
        let before = Self.meeting()
        var after = before
        after.name = "Recovery At Work (Updated)"
        var draft = after.editable()
        draft.comments = "Changed later by someone else"
        draft.takeBeforeImage(of: BMLTChange(id: 13139, type: .changed, meetingID: 2339, before: before, after: after))
        #expect(draft.meeting == before)
    }
}
