import Foundation

/// A meeting deletion that succeeded: the meeting is gone from the server. A deletion of a meeting that was already
/// gone (someone deleted it first, or an earlier attempt whose answer was lost did) succeeds too, and says so here,
/// with the change log's record of who deleted it and when, where the server keeps one.
/// ```swift
/// try await connection.deleteMeetingAndWait(id: 42)
/// if let done = connection.admin.lastDeletion, done.wasAlreadyDeleted {
///     print(done.description)      // "Meeting 42 was already deleted (by Nassau Area Administrator, …)."
/// }
/// ```
public struct BMLTMeetingDeletion: Sendable, Hashable, CustomStringConvertible {
    /// The deleted meeting's id.
    public var meetingID: Int
    /// Whether the server no longer held the meeting when it was asked to delete it.
    public var wasAlreadyDeleted: Bool
    /// The change log's record of the deletion (`userName`, `date`), when it has one.
    public var deletion: BMLTChange?

    /// A deletion.
    /// ```swift
    /// let done = BMLTMeetingDeletion(meetingID: 42, wasAlreadyDeleted: false)
    /// ```
    public init(meetingID: Int, wasAlreadyDeleted: Bool, deletion: BMLTChange? = nil) {
        self.meetingID = meetingID
        self.wasAlreadyDeleted = wasAlreadyDeleted
        self.deletion = deletion
    }

    /// A sentence saying what happened, in English (for logs: its date in ISO 8601, UTC).
    public var description: String { WriteOutcomeSentences.deletion(self, in: "en", forLog: true) }

    /// The sentence in `locale`'s language (English when BMLTKit has no table for it).
    /// ```swift
    /// print(done.localizedDescription(for: Locale(identifier: "es")))   // La reunión 42 ya estaba eliminada …
    /// ```
    public func localizedDescription(for locale: Locale) -> String {
        WriteOutcomeSentences.deletion(self, in: BMLTLocalization.language(for: locale))
    }
}
