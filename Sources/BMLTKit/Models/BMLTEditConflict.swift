import Foundation

/// A save refused before anything was sent: the meeting changed on the server since the draft was made, in a field
/// the draft changes (`BMLTError.editConflict(_:)`). Every field concerned is listed with three values — the one the
/// draft was made from, the draft's, the server's now — with the meeting as the server holds it and, where the change
/// log says, who changed it and when. `draft.rebased(onto: conflict.current)` makes a draft that knowingly puts this
/// draft's values over the server's meeting (fields only the other administrator changed keep their new values).
/// ```swift
/// do {
///     _ = try await connection.saveAndWait(draft)
/// } catch BMLTError.editConflict(let conflict) {
///     for field in conflict.fields { print(field.key, field.original ?? "–", field.mine ?? "–", field.theirs ?? "–") }
///     print(conflict.changedBy ?? "someone", conflict.changedAt as Any)
///     _ = try await connection.saveAndWait(draft.rebased(onto: conflict.current))   // mine win, knowingly
/// }
/// ```
public struct BMLTEditConflict: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The meeting's id.
    public var meetingID: Int
    /// The fields changed both by this draft and on the server, by wire key (sorted).
    public var fields: [BMLTFieldConflict]
    /// The meeting as the server holds it now (read just before the save would have been sent).
    public var current: BMLTMeeting
    /// Who changed it, from the change log's latest change of the meeting (`nil` when the log does not say).
    public var changedBy: String?
    /// When, from the same change record (`nil` when the log does not say).
    public var changedAt: Date?

    /// A conflict.
    /// ```swift
    /// let conflict = BMLTEditConflict(meetingID: 42, fields: [], current: BMLTMeeting(id: 42, serviceBodyID: 1002))
    /// ```
    public init(meetingID: Int, fields: [BMLTFieldConflict], current: BMLTMeeting, changedBy: String? = nil, changedAt: Date? = nil) {
        self.meetingID = meetingID
        self.fields = fields
        self.current = current
        self.changedBy = changedBy
        self.changedAt = changedAt
    }

    /// What happened, as an English sentence (the error's `description`; never "try again").
    /// ```swift
    /// print(conflict)   // Meeting 42 was changed on the server (by …) since this draft was made: …
    /// ```
    public var description: String { EditConflictSentences.conflict(self, in: "en", forLog: true) }

    /// The sentence in `locale`'s language (English when BMLTKit has no table for it).
    /// ```swift
    /// print(conflict.localizedDescription(for: Locale(identifier: "de")))
    /// ```
    public func localizedDescription(for locale: Locale) -> String {
        EditConflictSentences.conflict(self, in: BMLTLocalization.language(for: locale))
    }
}

/// One field of an edit conflict (or of a change seen between the check and the write: `BMLTSaveResult.changedMeanwhile`),
/// by wire key, with its three values as wire text (`nil`: empty).
/// ```swift
/// let field = BMLTFieldConflict(key: "meeting_name", original: "Hope", mine: "Hope Group", theirs: "Hope (Tuesday)")
/// print(field.key, field.original ?? "", field.mine ?? "", field.theirs ?? "")
/// ```
public struct BMLTFieldConflict: Sendable, Hashable, Codable {
    /// The field's wire key, e.g. "meeting_name".
    public var key: String
    /// The value the draft was made from (for a change seen meanwhile: the value read just before the write).
    public var original: String?
    /// The draft's value (for a change seen meanwhile to a field this save did not send: `nil`).
    public var mine: String?
    /// The value the server holds now (for a change seen meanwhile: the value the other change left).
    public var theirs: String?

    /// A field conflict.
    /// ```swift
    /// let field = BMLTFieldConflict(key: "start_time", original: "19:00:00", mine: "19:30:00", theirs: "20:00:00")
    /// ```
    public init(key: String, original: String?, mine: String?, theirs: String?) {
        self.key = key
        self.original = original
        self.mine = mine
        self.theirs = theirs
    }
}

/// A meeting another administrator (or another device) deleted, found by a save of a draft of it
/// (`BMLTError.meetingDeleted(_:)`): nothing was sent, and nothing is made again. Who deleted it and when come from the
/// change log where it says.
/// ```swift
/// do {
///     _ = try await connection.saveAndWait(draft)
/// } catch BMLTError.meetingDeleted(let gone) {
///     print(gone.meetingID, gone.deletedBy ?? "someone", gone.deletedAt as Any)
/// }
/// ```
public struct BMLTDeletedMeeting: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The meeting's id.
    public var meetingID: Int
    /// Who deleted it, from the change log (`nil` when the log does not say).
    public var deletedBy: String?
    /// When, from the change log (`nil` when the log does not say).
    public var deletedAt: Date?
    /// The change log's record of the deletion (with the meeting as it was in `before`, what a restore needs), when it
    /// has one.
    public var deletion: BMLTChange?

    /// A deleted meeting.
    /// ```swift
    /// let gone = BMLTDeletedMeeting(meetingID: 42)
    /// ```
    public init(meetingID: Int, deletedBy: String? = nil, deletedAt: Date? = nil, deletion: BMLTChange? = nil) {
        self.meetingID = meetingID
        self.deletedBy = deletedBy
        self.deletedAt = deletedAt
        self.deletion = deletion
    }

    /// What happened, as an English sentence (the error's `description`; never "try again").
    /// ```swift
    /// print(BMLTDeletedMeeting(meetingID: 42))   // Meeting 42 was deleted on the server …
    /// ```
    public var description: String { EditConflictSentences.deleted(self, in: "en", forLog: true) }

    /// The sentence in `locale`'s language (English when BMLTKit has no table for it).
    /// ```swift
    /// print(BMLTDeletedMeeting(meetingID: 42).localizedDescription(for: Locale(identifier: "fr")))
    /// ```
    public func localizedDescription(for locale: Locale) -> String {
        EditConflictSentences.deleted(self, in: BMLTLocalization.language(for: locale))
    }
}
