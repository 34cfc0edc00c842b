import Foundation

/// A write whose answer was lost and whose outcome BMLTKit could not find out: neither "done" nor "failed".
///
/// When a write's request may have reached the server and its answer is lost (the connection lost after the request
/// was sent, a timeout, HTTP 502/503/504, a reply that cannot be read, the read-back failing), BMLTKit first looks up
/// what the server now holds (the meeting, the change log, the deleted list) and reports the true outcome: the
/// success a clean answer would have given, or — proven not done — the error, after sending the write again under
/// the retry policy. Only when the look-up cannot settle it does the write fail with
/// `BMLTError.writeOutcomeUnknown(_:)` carrying this value: which write, what is known, why the look-up did not settle
/// it. Its sentence says what to check; it never says "Try again" (that could make a duplicate).
/// ```swift
/// do {
///     _ = try await connection.saveAndWait(draft)
/// } catch BMLTError.writeOutcomeUnknown(let unknown) {
///     // Not "failed": read the server again before saving again.
///     print(unknown.write, unknown.meetingID ?? 0, unknown.finding)
/// }
/// ```
public struct BMLTUnknownWriteOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The write whose outcome is open.
    public enum Write: String, Sendable, Hashable, Codable, CaseIterable {
        /// Creating a meeting (a draft of id 0).
        case createMeeting
        /// Saving changes to a meeting.
        case saveMeeting
        /// Deleting a meeting.
        case deleteMeeting
        /// Restoring a deleted meeting.
        case restoreMeeting
        /// Rolling a meeting back to before a change.
        case rollbackMeeting
        /// Server administration: creating a format, a service body or a user.
        case createFormat, createServiceBody, createUser
        /// Server administration: another change (an update, a deletion, the settings).
        case serverAdministration
        /// A message to a meeting's contact (the server keeps no record of it).
        case contactMessage
    }

    /// What the look-up found, or why it could not settle the outcome.
    public indirect enum Finding: Sendable, Hashable {
        /// The look-up itself failed (the error says why: the network is still down, the server still failing, …).
        case lookUpFailed(BMLTError)
        /// Several new items match what was sent, all made by this login since the request: none is picked.
        case severalCandidates(ids: [Int])
        /// The server holds values that are neither those sent nor those before, for these fields: someone else
        /// changed the meeting in between.
        case changedElsewhere(keys: [String])
        /// The login ended before the look-up, and the connection keeps no password to log in again.
        case loginExpired
        /// The server did the write (the item's id when known) but it could not be read back (the error says why).
        case doneButUnread(id: Int?, BMLTError)
        /// The server's change log has no record of a creation, but the server lists items like the one sent
        /// (their ids): the log may be switched off, so nothing can be proven.
        case noRecordButSimilar(ids: [Int])
        /// There is nothing to look up (a message to a contact leaves no record; other server administration writes
        /// are not looked up).
        case notLookedUp
        /// Nothing was found, but the server may still be doing the write (its answer was lost to a timeout or to a
        /// gateway that gave up waiting, such as a 504): it was not sent again. Read it again in a few minutes.
        case notFoundYet
        /// The change log shows creations by this login since the request (their ids) that do not match what was sent
        /// exactly: one may be this write as the server stored it. None is claimed; nothing was sent again.
        case unmatchedRecord(ids: [Int])
    }

    /// The write whose outcome is open.
    public var write: Write
    /// The meeting (or format, service body, user) written, when known: for a create, only once found.
    public var meetingID: Int?
    /// How the answer was lost (a `.timeout`, a lost connection, HTTP 502/503/504, an unreadable reply, …).
    public var loss: BMLTError
    /// What the look-up found.
    public var finding: Finding

    /// An open outcome.
    /// ```swift
    /// let open = BMLTUnknownWriteOutcome(write: .deleteMeeting, meetingID: 42, loss: .timeout, finding: .loginExpired)
    /// ```
    public init(write: Write, meetingID: Int? = nil, loss: BMLTError, finding: Finding) {
        self.write = write
        self.meetingID = meetingID
        self.loss = loss
        self.finding = finding
    }

    /// What happened and what to check, as a sentence (the error's `localizedDescription`); never "Try again".
    public var description: String { WriteOutcomeSentences.unknown(self, in: "en") }

    /// Whether the server is known to have done the write (its result could not be read back).
    /// ```swift
    /// if unknown.isKnownDone { refreshList() }
    /// ```
    public var isKnownDone: Bool {
        if case .doneButUnread = finding { return true }
        return false
    }
}
