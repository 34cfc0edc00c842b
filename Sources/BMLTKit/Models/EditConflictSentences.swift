import Foundation

/// The sentences of `BMLTError.editConflict(_:)` and `BMLTError.meetingDeleted(_:)` (keys `write.editConflict*`, `write.meetingDeleted*`). Neither says
/// "try again": sending the same draft again would meet the same conflict, or make nothing (the meeting is gone). Field
/// values are never part of a sentence (they can be personal data: a contact's address); the fields are named by key.
enum EditConflictSentences {
    /// "Meeting 42 was changed on the server (by …, <date>) since this draft was made: …" in `language`; `forLog`:
    /// the date in ISO 8601 (a `description`).
    static func conflict(_ conflict: BMLTEditConflict, in language: String, forLog: Bool = false) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        let id = String(conflict.meetingID)
        let keys = ListFormatting.join(conflict.fields.map(\.key), language: language)
        let details = who(conflict.changedBy, conflict.changedAt, in: language, forLog: forLog)
        guard !details.isEmpty else { return text("write.editConflict", id, keys) }
        return text("write.editConflict.details", id, details, keys)
    }

    /// "Meeting 7 was deleted on the server (by …, <date>) since this draft was made. …" in `language`; `forLog` as
    /// for `conflict`.
    static func deleted(_ gone: BMLTDeletedMeeting, in language: String, forLog: Bool = false) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        let id = String(gone.meetingID)
        let details = who(gone.deletedBy, gone.deletedAt, in: language, forLog: forLog)
        guard !details.isEmpty else { return text("write.meetingDeleted", id) }
        return text("write.meetingDeleted.details", id, details)
    }

    /// "by Nassau Area Administrator, Nov 28, 2026 at 6:00 PM": the date in the language's own form for a reader
    /// (English too), ISO 8601 for a log (`forLog`: `BMLTError.description`); empty when neither is known.
    static func who(_ user: String?, _ date: Date?, in language: String, forLog: Bool) -> String {
        var details: [String] = []
        if let user, !user.isEmpty { details.append(StringTables.text("write.deletedBy", [user], language: language)) }
        if let date { details.append(WriteOutcomeSentences.shownDate(date, in: language, forLog: forLog)) }
        return details.joined(separator: StringTables.text("list.comma", language: language))
    }
}
