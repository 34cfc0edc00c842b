import Foundation

/// A write whose answer was lost and whose outcome BMLTKit could not find out: neither "done" nor "failed".
///
/// When a write's request may have reached the server and its answer is lost (the connection lost after the request
/// was sent, a timeout, HTTP 502/503/504, a reply that cannot be read, the read-back failing), BMLTKit first looks up
/// what the server now holds (the meeting, the change log, the deleted list) and reports the true outcome: the
/// success a clean answer would have given, or — proven not done — the error (a save, rollback or delete is then sent
/// again under the retry policy; a creation never is: not found, its outcome stays open, `.notFoundYet`). Only when the
/// look-up cannot settle it does the write fail with
/// `BMLTError.writeOutcomeUnknown(_:)` carrying this value: which write, what is known, why the look-up did not settle
/// it. Its sentence says what to check; it never says "Try again" (that could make a duplicate).
/// ```swift
/// do {
///     _ = try await connection.saveAndWait(draft)
/// } catch BMLTError.writeOutcomeUnknown(let unknown) {
///     // Not "failed": read the server again before saving again.
///     print(unknown.writeKind, unknown.itemID ?? 0, unknown.finding)
/// }
/// ```
public struct BMLTUnknownWriteOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The write whose outcome is open.
    /// ```swift
    /// if open.writeKind == .createMeeting { print("look for the meeting before saving again") }
    /// ```
    public var writeKind: BMLTWriteKind
    /// The item written — a meeting, format, service body or user — when known: for a create, only once found.
    public var itemID: Int?
    /// How the answer was lost (a `.timeout`, a lost connection, HTTP 502/503/504, an unreadable reply, …).
    public var loss: BMLTError
    /// What the look-up found.
    public var finding: Finding
    /// When the first attempt of this write began (the window every later look-up of it covers), when known: kept in
    /// a draft by `BMLTMeetingDraft.recordOpenOutcome(_:)`.
    /// ```swift
    /// print(open.attemptStarted ?? Date())
    /// ```
    public var attemptStarted: Date?

    /// An open outcome.
    /// ```swift
    /// let open = BMLTUnknownWriteOutcome(writeKind: .deleteMeeting, itemID: 42, loss: .timeout, finding: .loginExpired)
    /// ```
    public init(writeKind: BMLTWriteKind, itemID: Int? = nil, loss: BMLTError, finding: Finding, attemptStarted: Date? = nil) {
        self.attemptStarted = attemptStarted
        self.writeKind = writeKind
        self.itemID = itemID
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
        finding.kind == .doneButUnread
    }
}
