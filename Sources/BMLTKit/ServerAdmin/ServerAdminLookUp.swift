import Foundation

/// Server administration writes whose answer is lost (issue 41): a creation (format, service body, user) is looked up
/// by listing what the server holds, and never sent again on its own (issue 47: not found is `.notFoundYet`); any other
/// change is reported as an open outcome, never as a failure to try again.
///
/// A format or a service body follows the meeting's rule (issue 57, R16): it is keyed by what it is made of (a format by
/// its language:key pairs, a service body by its parent and name), so after an open outcome the second tap waits the
/// settle time and looks first, and one made already (a double tap) is reported as the one the server holds. 4.1.0 and
/// 4.2.7 refuse a key a format of the same language already has (422; bmlt-server `app/Rules/FormatTranslationKey.php:53-60`):
/// that refusal is looked up too, and the format the first attempt made is reported "created". 3.1.2 has no such rule
/// (`FormatController.php:119`: `notIn` VM/HY/TC only): a first attempt that reaches it after the second tap's look-up
/// makes a second format, which nothing on the server can prevent.
extension RESTServerAdmin {
    /// `run(action)`, with a lost answer settled (`LostAnswer`).
    func settled(_ action: BMLTServerAdminAction, generation: Int) async throws(BMLTError) -> BMLTServerAdminResult {
        if action.isRead { return try await run(action) }
        switch action {
        case .createFormat(let format):
            let keys = Set(format.translations.map { $0.language + ":" + WriteLookUp.normalized($0.key) })
            return try await settle(action, .createFormat, generation, key: "format:" + keys.sorted().joined(separator: ","),
                                    also: Self.isDuplicateFormatKey) { done throws(BMLTError) in
                guard case .formats(let all) = try await run(.formats) else { return .notDone }
                let matching = { (held: BMLTAdminFormat) -> Bool in
                    Set(held.translations.map { $0.language + ":" + WriteLookUp.normalized($0.key) }) == keys
                }
                if let done { return all.first { $0.id == done && matching($0) }.map { .done(.format($0, wasCreated: true)) } ?? .notDone }
                return Self.newest(all, id: \.id, matching: matching).map { .format($0, wasCreated: true) }
            }
        case .createServiceBody(let body):
            let key = "serviceBody:\(body.parentID.map(String.init) ?? "-")/" + WriteLookUp.normalized(body.name).lowercased()
            return try await settle(action, .createServiceBody, generation, key: key) { done throws(BMLTError) in
                guard case .serviceBodies(let all) = try await run(.serviceBodies) else { return .notDone }
                let matching = { (held: BMLTAdminServiceBody) -> Bool in WriteLookUp.sameText(held.name, body.name) && held.parentID == body.parentID }
                if let done { return all.first { $0.id == done && matching($0) }.map { .done(.serviceBody($0, wasCreated: true)) } ?? .notDone }
                return Self.newest(all, id: \.id, matching: matching).map { .serviceBody($0, wasCreated: true) }
            }
        case .createUser(let user, _):
            let attempt = WriteAttempt(context, write: .createUser, itemID: nil, generation: generation, resendable: false)
            return try await LostAnswer.settle(context, attempt, { () async throws(BMLTError) in try await run(action) }) { _, _ throws(BMLTError) in
                guard case .users(let all) = try await run(.users) else { return .notDone }
                // A user name already held by another admin's account is no proof (D7): the newest account, with the
                // name, display name, e-mail and type sent, is the one created. (4.x refuses a user name twice:
                // `unique:comdef_users,login_string`, so a second tap cannot make a second account.)
                return Self.newest(all, id: \.id, matching: { held in
                    WriteLookUp.sameText(held.username, user.username) && WriteLookUp.sameText(held.displayName, user.displayName)
                        && WriteLookUp.sameText(held.email, user.email) && (user.type.isEmpty || held.type == user.type)
                }).map { .user($0, wasCreated: true) }
            }
        default:
            return try await LostAnswer.unsettled(context, write: .serverAdministration) { () async throws(BMLTError) in try await run(action) }
        }
    }

    /// A creation under `key` (one at a time): one made already under it and still held as made is reported (nothing
    /// sent); else the creation, with an earlier open attempt's window looked in first (`LostAnswer.settleHolding`).
    /// `lookUp(id)`: with the id of the one made already, whether the server still holds it as made; with `nil`, the
    /// look-up after a lost answer.
    private func settle(_ action: BMLTServerAdminAction, _ write: BMLTWriteKind, _ generation: Int, key: String,
                        also: (BMLTError) -> Bool = { _ in false },
                        lookUp: @escaping @Sendable (_ done: Int?) async throws(BMLTError) -> LookUpVerdict<BMLTServerAdminResult>) async throws(BMLTError) -> BMLTServerAdminResult {
        let openWrites = context.adminSession.openWrites
        return try await openWrites.exclusive(key) { () async throws(BMLTError) -> BMLTServerAdminResult in
            if let done = openWrites.done(key)?.id {
                if case .done(let value) = try await lookUp(done) { return value }
                openWrites.forget(key)          // gone or changed since: another one is a new creation
            }
            let attempt = WriteAttempt(context, write: write, itemID: nil, generation: generation, resendable: false, openKey: key)
            let value = try await LostAnswer.settleHolding(context, attempt, also: also, { () async throws(BMLTError) in
                try await run(action)
            }) { _, _ throws(BMLTError) in try await lookUp(nil) }
            openWrites.done(key, since: openWrites.started(key) ?? attempt.since, OpenWrites.Done(id: value.createdID, announced: true))
            return value
        }
    }

    /// 4.1.0/4.2.7's refusal of a format key its language has already (`FormatTranslationKey.php:59-60`: 422, the
    /// field `translations.N.key`, ":attribute cannot be the same as another format's for the same language."): the
    /// format may be the one this creation's first attempt made, so it is looked up; the refusal stands otherwise.
    static func isDuplicateFormatKey(_ error: BMLTError) -> Bool {
        guard case .validationFailed(_, let fields) = error else { return false }
        return fields.contains { key, messages in
            key.hasPrefix("translations.") && key.hasSuffix(".key") && messages.contains { $0.contains("same as another format") }
        }
    }

    /// What a listing says about a creation: the server gives each new item the next id, so an item matching what was
    /// sent that is also the newest of the list is the one created; matching items that are not the newest were
    /// there before (open: nothing is claimed); none → not done.
    static func newest<Item: Sendable>(_ all: [Item], id: (Item) -> Int, matching: (Item) -> Bool) -> LookUpVerdict<Item> {
        let matches = all.filter(matching)
        guard let newest = all.max(by: { id($0) < id($1) }), !matches.isEmpty else { return .notDone }
        if matches.count == 1, id(matches[0]) == id(newest) { return .done(newest) }
        return .open(matches.count > 1 ? .severalCandidates(ids: matches.map(id).sorted()) : .noRecordButSimilar(ids: matches.map(id)))
    }
}

extension BMLTServerAdminResult {
    /// The id of the item a creation made.
    var createdID: Int? {
        switch self {
        case .format(let format, _): return format.id
        case .serviceBody(let body, _): return body.id
        case .user(let user, _): return user.id
        default: return nil
        }
    }
}

extension LookUpVerdict {
    /// The verdict with its value changed.
    func map<Other: Sendable>(_ transform: (Value) -> Other) -> LookUpVerdict<Other> {
        switch self {
        case .done(let value): return .done(transform(value))
        case .notDone: return .notDone
        case .open(let finding, let id): return .open(finding, meetingID: id)
        }
    }
}
