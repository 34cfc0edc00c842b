import Foundation

/// A draft's write identity (issue 47): the second tap of Save after an open outcome makes no second meeting. The
/// identity and the open attempt travel with the value and its `Codable` form (a draft saved by an app before it was
/// ended keeps them); equality and hashing compare the meeting only, as before.
extension BMLTMeetingDraft {
    private enum CodingKeys: String, CodingKey {
        case original, meeting, copiedFrom, writeIdentity, openAttemptStarted, originalIsAdminRead
    }

    /// Decodes a draft; one encoded before write identities existed gets a new identity and no open attempt.
    /// ```swift
    /// let draft = try JSONDecoder().decode(BMLTMeetingDraft.self, from: saved)
    /// ```
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(serviceBodyID: 0)
        original = try container.decodeIfPresent(BMLTMeeting.self, forKey: .original)
        meeting = try container.decode(BMLTMeeting.self, forKey: .meeting)
        copiedFrom = try container.decodeIfPresent(BMLTMeeting.self, forKey: .copiedFrom)
        writeIdentity = (try? container.decodeIfPresent(UUID.self, forKey: .writeIdentity)) ?? UUID()
        openAttemptStarted = try? container.decodeIfPresent(Date.self, forKey: .openAttemptStarted)
        originalIsAdminRead = (try? container.decodeIfPresent(Bool.self, forKey: .originalIsAdminRead)) ?? false
    }

    /// Encodes the draft with its write identity and open attempt.
    /// ```swift
    /// let saved = try JSONEncoder().encode(draft)
    /// ```
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(original, forKey: .original)
        try container.encode(meeting, forKey: .meeting)
        try container.encodeIfPresent(copiedFrom, forKey: .copiedFrom)
        try container.encode(writeIdentity, forKey: .writeIdentity)
        try container.encodeIfPresent(openAttemptStarted, forKey: .openAttemptStarted)
        if originalIsAdminRead { try container.encode(true, forKey: .originalIsAdminRead) }
    }

    /// Two drafts are equal when they hold the same meeting, made from the same one (the write identity is not compared).
    /// ```swift
    /// print(meeting.editable() == meeting.editable())   // true
    /// ```
    public static func == (lhs: BMLTMeetingDraft, rhs: BMLTMeetingDraft) -> Bool {
        lhs.original == rhs.original && lhs.meeting == rhs.meeting && lhs.copiedFrom == rhs.copiedFrom
    }

    /// Hashes what `==` compares.
    /// ```swift
    /// let seen: Set<BMLTMeetingDraft> = [draft]
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(original)
        hasher.combine(meeting)
        hasher.combine(copiedFrom)
    }

    /// Keeps, in the draft value, the open outcome of saving it: a later save of this draft — after the app was
    /// relaunched too — first looks for the meeting that attempt may have made, in that attempt's window, and makes
    /// none when it finds it. (The connection also remembers open attempts while it lives.)
    /// ```swift
    /// do {
    ///     _ = try await connection.saveAndWait(draft)
    /// } catch BMLTError.writeOutcomeUnknown(let open) {
    ///     draft.recordOpenOutcome(open)   // store the draft: the next Save will not make a second meeting
    /// }
    /// ```
    public mutating func recordOpenOutcome(_ open: BMLTUnknownWriteOutcome) {
        guard isNew, open.writeKind == .createMeeting, let started = open.attemptStarted else { return }
        if openAttemptStarted == nil || started < openAttemptStarted! { openAttemptStarted = started }
    }
}

extension BMLTMeetingDraft {
    /// A draft of another new meeting with this draft's fields and a write identity of its own: saving it creates a
    /// meeting even after this draft, or another copy of its value, created one. What a "Save & New" form or a template
    /// that makes several meetings needs — copies of one draft value share its identity, and such a copy saved after
    /// the first creation is read as the same draft saved again (an edit of the meeting it created, as a form that keeps
    /// its draft after saving wants). A draft of an existing meeting gives a new meeting copied from it as edited
    /// (`init(copyOf:)`: unpublished, nothing the server computes).
    /// ```swift
    /// let template = BMLTMeetingDraft(serviceBodyID: 1002)
    /// for day in [BMLTWeekday.monday, .thursday] {
    ///     var draft = template.anotherMeeting()
    ///     draft.weekday = day
    ///     _ = try await connection.saveAndWait(draft)   // two meetings, one for each day
    /// }
    /// ```
    public func anotherMeeting() -> BMLTMeetingDraft {
        guard isNew else { return BMLTMeetingDraft(copyOf: meeting) }
        var another = self
        another.writeIdentity = UUID()
        another.openAttemptStarted = nil
        return another
    }
}
