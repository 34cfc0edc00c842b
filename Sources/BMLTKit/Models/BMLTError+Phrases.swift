import Foundation

// The phrases of `BMLTError`'s structured reasons, from the string tables: what a sentence puts in its placeholders.
// Each reason's `description` is its English phrase (for logs and `print`).

extension BMLTError.Subject: CustomStringConvertible {
    /// The English phrase, e.g. "the meeting search results".
    /// ```swift
    /// print(BMLTError.Subject.meetingSearch)   // the meeting search results
    /// ```
    public var description: String { phrase(in: "en") }

    func phrase(in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        switch self {
        case .serverInfo: return text("subject.serverInfo")
        case .meetingSearch: return text("subject.meetingSearch")
        case .searchFormats: return text("subject.searchFormats")
        case .usedFormats: return text("subject.usedFormats")
        case .formats: return text("subject.formats")
        case .serviceBodies: return text("subject.serviceBodies")
        case .changes: return text("subject.changes")
        case .changesAndDeletedMeetings: return text("subject.changesAndDeletedMeetings")
        case .meetingChanges: return text("subject.meetingChanges")
        case .languages: return text("subject.languages")
        case .fieldKeys: return text("subject.fieldKeys")
        case .fieldValues(let key): return text("subject.fieldValues", key)
        case .coverageArea: return text("subject.coverageArea")
        case .nawsExport: return text("subject.nawsExport")
        case .rootServers: return text("subject.rootServers")
        case .rootServer(let id): return text("subject.rootServer", String(id))
        case .rootServerInfo: return text("subject.rootServerInfo")
        case .contactMessage: return text("subject.contactMessage")
        case .login: return text("subject.login")
        case .loginToken: return text("subject.loginToken")
        case .tokenRefresh: return text("subject.tokenRefresh")
        case .logout: return text("subject.logout")
        case .loggedInUser: return text("subject.loggedInUser")
        case .permissions: return text("subject.permissions")
        case .users: return text("subject.users")
        case .serverSettings: return text("subject.serverSettings")
        case .request: return text("subject.request")
        case .meeting(let id): return text("subject.meeting", String(id))
        case .format(let id): return text("subject.format", String(id))
        case .serviceBody(let id): return text("subject.serviceBody", String(id))
        case .serviceBodyEditors(let id): return text("subject.serviceBodyEditors", String(id))
        case .serviceBodyMeetings(let id): return text("subject.serviceBodyMeetings", String(id))
        case .user(let id): return text("subject.user", String(id))
        case .newMeeting: return text("subject.newMeeting")
        case .savedMeeting: return text("subject.savedMeeting")
        case .meetingDeletion: return text("subject.meetingDeletion")
        case .restoredMeeting: return text("subject.restoredMeeting")
        case .meetingRollback: return text("subject.meetingRollback")
        case .newFormat: return text("subject.newFormat")
        case .newServiceBody: return text("subject.newServiceBody")
        case .newUser: return text("subject.newUser")
        case .serverAdministration: return text("subject.serverAdministration")
        case .administration: return text("subject.administration")
        case .loggingOut: return text("subject.loggingOut")
        case .readingPermissions: return text("subject.readingPermissions")
        case .serverAdministrationAccess: return text("subject.serverAdministrationAccess")
        case .creatingMeetings: return text("subject.creatingMeetings")
        case .savingMeetings: return text("subject.savingMeetings")
        case .deletingMeetings: return text("subject.deletingMeetings")
        case .restoringMeetings: return text("subject.restoringMeetings")
        case .rollingBackMeetings: return text("subject.rollingBackMeetings")
        case .serverAdministrationChanges: return text("subject.serverAdministrationChanges")
        }
    }
}

extension BMLTError.ReplyProblem: CustomStringConvertible {
    /// The English phrase, e.g. "the body is empty".
    /// ```swift
    /// print(BMLTError.ReplyProblem.emptyBody)   // the body is empty
    /// ```
    public var description: String { phrase(in: "en") }

    func phrase(in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        switch self {
        case .notHTTP: return text("reply.notHTTP")
        case .noHTTPHead: return text("reply.noHTTPHead")
        case .emptyBody: return text("reply.emptyBody")
        case .page: return text("reply.page")
        case .invalidJSON(let offset): return text("reply.invalidJSON", StringTables.number(offset, language: language))
        case .serverError(let message): return text("reply.serverError", message)
        case .unexpectedAnswer(let word): return text("reply.unexpectedAnswer", word)
        case .unexpectedShape(let expected): return text("reply.unexpectedShape", expected)
        case .noUsableEntry(let count, let key):
            return StringTables.plural("reply.noUsableEntry", count: count, [StringTables.number(count, language: language), key],
                                       language: language)
        case .notUTF8: return text("reply.notUTF8")
        case .notNAWSHeader: return text("reply.notNAWSHeader")
        case .unknownResultCode(let code): return text("reply.unknownResultCode", String(code))
        case .meetingMismatch(let sent, let reported): return text("reply.meetingMismatch", String(sent), String(reported))
        case .listChangedOnRetry(let delivered):
            return StringTables.plural("reply.listChangedOnRetry", count: delivered,
                                       [StringTables.number(delivered, language: language)], language: language)
        case .unexpectedResult: return text("reply.unexpectedResult")
        }
    }
}

extension BMLTError.NotARootServerReason: CustomStringConvertible {
    /// The English phrase, e.g. "GetServerInfo has no version".
    /// ```swift
    /// print(BMLTError.NotARootServerReason.noVersion)   // GetServerInfo has no version
    /// ```
    public var description: String { phrase(in: "en") }

    func phrase(in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        switch self {
        case .noClientInterface: return text("notRoot.noClientInterface")
        case .unreadable(let problem): return problem.phrase(in: language)
        case .emptyServerInfo: return text("notRoot.emptyServerInfo")
        case .serverInfoNotAnObject: return text("notRoot.serverInfoNotAnObject")
        case .noVersion: return text("notRoot.noVersion")
        case .versionNotANumber(let version): return text("notRoot.versionNotANumber", version)
        }
    }
}

extension BMLTError.Capability: CustomStringConvertible {
    /// The English phrase, e.g. "server settings (/api/v1/settings exists from root server 4.0 on; …)".
    /// ```swift
    /// print(BMLTError.Capability.serverSettings)
    /// ```
    public var description: String { phrase(in: "en") }

    func phrase(in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        switch self {
        case .administration(let what, let version): return text("unsupported.administration", what.phrase(in: language), version)
        case .undefinedFields(let keys, let version):
            let list = ListFormatting.join(keys, language: language)
            return StringTables.plural("unsupported.undefinedFields", count: keys.count, [list, version], language: language)
        case .restoreWithoutMeetingID: return text("unsupported.restoreWithoutMeetingID")
        case .restoreWithoutCopy: return text("unsupported.restoreWithoutCopy")
        case .rollbackWithoutCopy: return text("unsupported.rollbackWithoutCopy")
        case .serverSettings: return text("unsupported.serverSettings")
        case .notAnAggregator(let what, let message): return text("unsupported.notAnAggregator", what.phrase(in: language), message ?? "")
        case .serverAdministration: return text("unsupported.serverAdministration")
        case .contactMessages(let version, let aggregator):
            return text(aggregator ? "unsupported.contactMessages.aggregator" : "unsupported.contactMessages", version)
        case .aggregatorChangeLog(let what): return text("unsupported.aggregatorChangeLog", what.phrase(in: language))
        case .aggregatorWrite(let what): return text("unsupported.aggregatorWrite", what.phrase(in: language))
        case .endpoint(let what, let method, let path, let version, let answer):
            let server = version.map { $0.isEmpty ? StringTables.text("unsupported.versionUnknown", language: language) : $0 }
                ?? StringTables.text("unsupported.notValidated", language: language)
            let answered: String
            switch answer {
            case .page(let status): answered = text("unsupported.answer.page", String(status))
            case .pageNotFound: answered = text("unsupported.answer.pageNotFound")
            case .notFound(let introducedIn): answered = text("unsupported.answer.notFound", introducedIn)
            }
            return text("unsupported.endpoint", what.phrase(in: language), method, path, server, answered)
        case .legacyAdminAction: return text("unsupported.legacyAdminAction")
        }
    }
}

extension BMLTError.Argument: CustomStringConvertible {
    /// The English phrase, e.g. "a field key is needed".
    /// ```swift
    /// print(BMLTError.Argument.emptyFieldKey)   // a field key is needed
    /// ```
    public var description: String { phrase(in: "en") }

    func phrase(in language: String) -> String {
        switch self {
        case .emptyFieldKey: return StringTables.text("argument.emptyFieldKey", language: language)
        case .aggregatorSearchWithoutFilter: return StringTables.text("argument.aggregatorSearchWithoutFilter", language: language)
        case .nearestNoneInWindow(let wanted):
            return StringTables.text("argument.nearestNoneInWindow", [String(wanted)], language: language)
        case .previousResults(.otherServer):
            return StringTables.text("argument.previousResults.otherServer", language: language)
        case .previousResults(.otherSearch):
            return StringTables.text("argument.previousResults.otherSearch", language: language)
        }
    }
}

extension BMLTError.BrokenReply {
    func phrase(code: Int, in language: String) -> String {
        func stackOrOwn(_ stack: String?) -> String { stack ?? BMLTError.transportPhrase(code, in: language) }
        switch self {
        case .cutOff(let bytes, let expected, let stack):
            let count = StringTables.number(bytes, language: language)
            if let expected {
                return StringTables.plural("broken.cutOff.of", count: expected,
                                           [count, StringTables.number(expected, language: language), stackOrOwn(stack)],
                                           language: language)
            }
            return StringTables.plural("broken.cutOff", count: bytes, [count, stackOrOwn(stack)], language: language)
        case .unreadable(let stack): return StringTables.text("broken.unreadable", [stackOrOwn(stack)], language: language)
        }
    }
}

/// A list in a sentence: "a, b and c" in the sentence's language.
enum ListFormatting {
    static func join(_ items: [String], language: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        let and = StringTables.text("list.and", language: language)
        let comma = StringTables.text("list.comma", language: language)
        return items.dropLast().joined(separator: comma) + and + items.last!
    }
}
