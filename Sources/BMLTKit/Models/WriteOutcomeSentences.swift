import Foundation

/// Every sentence about a write's outcome, from the string tables (keys `write.*`): what
/// `BMLTError.writeOutcomeUnknown(_:)` (issue 41: the answer was lost), `BMLTError.serverFailedOnWrite(_:)` and
/// `BMLTMeetingDeletion` say. None says "Try again": these writes are not known not to have happened.
enum WriteOutcomeSentences {
    /// The write, as the sentence names it.
    static func name(_ write: BMLTWriteKind, id: Int?, in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        let id = id.map(String.init)
        switch write {
        case .createMeeting: return text("write.name.createMeeting")
        case .saveMeeting: return id.map { text("write.name.saveMeeting.id", $0) } ?? text("write.name.saveMeeting")
        case .deleteMeeting: return id.map { text("write.name.deleteMeeting.id", $0) } ?? text("write.name.deleteMeeting")
        case .restoreMeeting: return id.map { text("write.name.restoreMeeting.id", $0) } ?? text("write.name.restoreMeeting")
        case .rollbackMeeting: return id.map { text("write.name.rollbackMeeting.id", $0) } ?? text("write.name.rollbackMeeting")
        case .createFormat: return text("write.name.createFormat")
        case .createServiceBody: return text("write.name.createServiceBody")
        case .createUser: return text("write.name.createUser")
        case .serverAdministration: return text("write.name.serverAdministration")
        case .contactMessage: return text("write.name.contactMessage")
        // A kind without words of its own yet (none today: WriteKindTests names each): "another change".
        default: return text("write.name.serverAdministration")
        }
    }

    /// How the answer was lost, in a few words.
    static func loss(_ error: BMLTError, in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        switch error {
        case .timeout: return text("write.loss.timeout")
        case .httpStatus(let code, _): return text("write.loss.httpStatus", String(code))
        case .transport(let code): return text("write.loss.transport", BMLTError.transportPhrase(code, in: language), String(code))
        case .brokenReply, .malformedResponse: return text("write.loss.unreadable")
        default: return text("write.loss.other")
        }
    }

    /// What to read on the server before doing the write again ("its meetings").
    static func items(_ write: BMLTWriteKind, in language: String) -> String {
        switch write {
        case .createFormat: return StringTables.text("write.items.formats", language: language)
        case .createServiceBody: return StringTables.text("write.items.serviceBodies", language: language)
        case .createUser: return StringTables.text("write.items.users", language: language)
        default: return StringTables.text("write.items.meetings", language: language)
        }
    }

    /// `BMLTError.writeOutcomeUnknown(_:)`'s sentence.
    static func unknown(_ open: BMLTUnknownWriteOutcome, in language: String) -> String {
        let what = name(open.writeKind, id: open.itemID, in: language)
        let lost = loss(open.loss, in: language)
        func text(_ key: String, _ arguments: String...) -> String {
            StringTables.text(key, [what, lost] + arguments, language: language)
        }
        func plural(_ key: String, _ ids: [Int]) -> String {
            let list = ids.map(String.init).joined(separator: StringTables.text("list.comma", language: language))
            return StringTables.plural(key, count: ids.count, [what, lost, StringTables.number(ids.count, language: language), list],
                                       language: language)
        }
        let finding = open.finding
        let lookUpError = finding.error ?? .timeout
        switch finding.kind {
        case .lookUpFailed:
            return text("write.unknown.lookUpFailed", loss(lookUpError, in: language), items(open.writeKind, in: language))
        case .severalCandidates: return plural("write.unknown.severalCandidates", finding.ids)
        case .changedElsewhere: return text("write.unknown.changedElsewhere", ListFormatting.join(finding.keys, language: language))
        case .loginExpired: return text("write.unknown.loginExpired", items(open.writeKind, in: language))
        case .loginChanged: return text("write.unknown.loginChanged", items(open.writeKind, in: language))
        case .doneButUnread:
            guard let id = finding.ids.first else { return text("write.unknown.doneButUnread", loss(lookUpError, in: language)) }
            if [.createFormat, .createServiceBody, .createUser].contains(open.writeKind) {
                return text("write.unknown.doneButUnread.id", loss(lookUpError, in: language), String(id))
            }
            return text("write.unknown.doneButUnread.meeting", loss(lookUpError, in: language), String(id))
        case .noRecordButSimilar: return plural("write.unknown.noRecordButSimilar", finding.ids)
        case .notLookedUp: return text("write.unknown.notLookedUp")
        case .notFoundYet: return text("write.unknown.notFoundYet", items(open.writeKind, in: language))
        case .unmatchedRecord:
            return text("write.unknown.unmatchedRecord",
                        finding.ids.map(String.init).joined(separator: StringTables.text("list.comma", language: language)))
        }
    }

    /// `BMLTError.serverFailedOnWrite(_:)`'s sentence: what failed (with the server's words), what it left behind or
    /// what to read, and that sending it unchanged fails the same way.
    static func failed(_ failure: BMLTWriteFailure, in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        let what = name(failure.writeKind, id: nil, in: language)
        let head = failure.message.flatMap { $0.isEmpty ? nil : $0 }
            .map { text("write.failed.said", what, String(failure.code), $0) } ?? text("write.failed", what, String(failure.code))
        let left: String
        switch failure.leftBehind {
        case .newMeetingChangeRecord(let version)?: left = text("write.failed.leftBehind.newMeetingChangeRecord", version)
        case nil: left = text("write.failed.readAgain")
        }
        return [head, left, text("write.failed.advice")].joined(separator: " ")
    }

    /// `BMLTMeetingDeletion`'s sentence: the date in the language's own form for a person (English too), in ISO 8601
    /// (UTC) only for the log (`description`, `forLog`).
    /// A date in a sentence: ISO 8601 for a log line, else the language's own medium date and short time.
    static func shownDate(_ date: Date, in language: String, forLog: Bool) -> String {
        guard !forLog else { return ISO8601DateFormatter().string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language)
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }

    static func deletion(_ done: BMLTMeetingDeletion, in language: String, forLog: Bool = false) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        let id = String(done.meetingID)
        guard done.wasAlreadyDeleted else { return text("write.deleted", id) }
        var details: [String] = []
        if let user = done.deletion?.userName, !user.isEmpty { details.append(text("write.deletedBy", user)) }
        if let date = done.deletion?.date { details.append(shownDate(date, in: language, forLog: forLog)) }
        guard !details.isEmpty else { return text("write.alreadyDeleted", id) }
        return text("write.alreadyDeleted.details", id, details.joined(separator: text("list.comma")))
    }
}

extension BMLTWriteKind {
    /// The meeting write an administration operation's subject names (`nil`: not one of them).
    init?(_ subject: BMLTError.Subject) {
        switch subject {
        case .creatingMeetings: self = .createMeeting
        case .savingMeetings: self = .saveMeeting
        case .deletingMeetings: self = .deleteMeeting
        case .restoringMeetings: self = .restoreMeeting
        case .rollingBackMeetings: self = .rollbackMeeting
        case .serverAdministrationChanges: self = .serverAdministration
        default: return nil
        }
    }
}
