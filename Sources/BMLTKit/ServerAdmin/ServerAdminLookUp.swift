import Foundation

/// Server administration writes whose answer is lost (issue 41): a creation (format, service body, user) is looked up
/// by listing what the server holds, and never sent again on its own (issue 47: not found is `.notFoundYet`); any other
/// change is reported as an open outcome, never as a failure to try again.
extension RESTServerAdmin {
    /// `run(action)`, with a lost answer settled (`LostAnswer`).
    func settled(_ action: BMLTServerAdminAction, generation: Int) async throws(BMLTError) -> BMLTServerAdminResult {
        if action.isRead { return try await run(action) }
        switch action {
        case .createFormat(let format):
            let keys = Set(format.translations.map { $0.language + ":" + WriteLookUp.normalized($0.key) })
            return try await settle(action, .createFormat, generation) { () async throws(BMLTError) in
                guard case .formats(let all) = try await run(.formats) else { return .notDone }
                return Self.newest(all, id: \.id, matching: { Set($0.translations.map { $0.language + ":" + WriteLookUp.normalized($0.key) }) == keys })
                    .map { .format($0, wasCreated: true) }
            }
        case .createServiceBody(let body):
            return try await settle(action, .createServiceBody, generation) { () async throws(BMLTError) in
                guard case .serviceBodies(let all) = try await run(.serviceBodies) else { return .notDone }
                return Self.newest(all, id: \.id, matching: { WriteLookUp.sameText($0.name, body.name) && $0.parentID == body.parentID })
                    .map { .serviceBody($0, wasCreated: true) }
            }
        case .createUser(let user, _):
            return try await settle(action, .createUser, generation) { () async throws(BMLTError) in
                guard case .users(let all) = try await run(.users) else { return .notDone }
                // A user name already held by another admin's account is no proof (D7): the newest account, with the
                // name, display name, e-mail and type sent, is the one created.
                return Self.newest(all, id: \.id, matching: { held in
                    WriteLookUp.sameText(held.username, user.username) && WriteLookUp.sameText(held.displayName, user.displayName)
                        && WriteLookUp.sameText(held.email, user.email) && (user.type.isEmpty || held.type == user.type)
                }).map { .user($0, wasCreated: true) }
            }
        default:
            return try await LostAnswer.unsettled(context, write: .serverAdministration) { () async throws(BMLTError) in try await run(action) }
        }
    }

    private func settle(_ action: BMLTServerAdminAction, _ write: BMLTWriteKind, _ generation: Int,
                        lookUp: @escaping @Sendable () async throws(BMLTError) -> LookUpVerdict<BMLTServerAdminResult>) async throws(BMLTError) -> BMLTServerAdminResult {
        let attempt = WriteAttempt(context, write: write, itemID: nil, generation: generation, resendable: false)
        return try await LostAnswer.settle(context, attempt, { () async throws(BMLTError) in
            try await run(action)
        }) { _ throws(BMLTError) in try await lookUp() }
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
