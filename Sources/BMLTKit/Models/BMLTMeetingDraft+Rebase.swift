import Foundation

extension BMLTMeetingDraft {
    /// This draft's changes over `current`, the meeting as the server now holds it (`BMLTEditConflict.current`): a draft
    /// whose original is `current` and which changes exactly the fields this draft changes, to this draft's values.
    /// Saving it overwrites the conflicting fields knowingly; every field this draft did not change keeps the server's
    /// value (the other administrator's changes to them are kept). A draft of a new meeting is returned unchanged.
    /// ```swift
    /// do {
    ///     _ = try await connection.saveAndWait(draft)
    /// } catch BMLTError.editConflict(let conflict) {
    ///     let again = draft.rebased(onto: conflict.current)   // mine over theirs, the rest theirs
    ///     _ = try await connection.saveAndWait(again)
    /// }
    /// ```
    public func rebased(onto current: BMLTMeeting) -> BMLTMeetingDraft {
        guard !isNew else { return self }
        var rebased = BMLTMeetingDraft(current)
        let edited = Self.formatsAligned(meeting, original)
        for change in changes {
            switch change.key {
            case "formats", "format_shared_id_list":
                rebased.meeting.formats = edited.formats
                rebased.meeting.formatKeys = edited.formatKeys
                rebased.meeting.formatIDs = edited.formatIDs
            default:
                WireMeetingFieldTable.set(change.key, WireMeetingFieldTable.value(change.key, of: meeting), in: &rebased.meeting)
            }
        }
        return rebased
    }
}
