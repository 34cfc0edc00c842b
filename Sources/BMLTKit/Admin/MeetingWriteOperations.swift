import Foundation

/// The meeting writes (save, create, delete, restore, rollback) as operations, each with the look-up that finds out what
/// the server holds when its answer is lost (`LostAnswer`, `WriteLookUp`).
extension BMLTConnection {
    static func saveOperation(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions = BMLTSaveOptions(),
                              serviceBodyIDs: Set<Int> = [], language: String = "en") -> Operation<BMLTSaveResult> {
        adminOperation(kind: .saveMeeting, what: draft.isNew ? .creatingMeetings : .savingMeetings) { write throws(BMLTError) in
            let route = write.route
            let problems = MeetingDraftRules.problems(in: draft, info: route.info, formats: route.formats,
                                                      serviceBodyIDs: serviceBodyIDs, options: options, language: language)
            guard problems.isEmpty else { throw MeetingDraftRules.error(problems, language: language) }
            // A creation is never sent twice on its own (`MeetingCreation.swift`); an update is checked first.
            return draft.isNew ? try await write.create(draft, options: options) : try await write.update(draft, options: options)
        } succeed: { connection, result, request in
            connection.meetingChanged(result.meeting)
            connection.admin.lastSave = result
            return result.wasCreated ? [.meetingAdded(result.meeting, request: request)]
                : [.meetingSaved(result.meeting, fieldChanges: result.fieldChanges, request: request)]
        }
    }

    static func deleteOperation(id: Int) -> Operation<MeetingDeletion> {
        adminOperation(kind: .deleteMeeting, what: .deletingMeetings) { write throws(BMLTError) in
            let refused = Locked(false)
            let attempt = write.attempt(.deleteMeeting, id, resendable: true)
            var deletion = try await write.settle(attempt, also: { error in
                // Already gone: REST answers 404, 2.x "ERROR" (a `.malformedResponse`, looked up anyway).
                if case .notFound = error { refused.withLock { $0 = true } }
                if case .malformedResponse(_, .unexpectedAnswer("ERROR")) = error { refused.withLock { $0 = true } }
                return refused.withLock { $0 }
            }) { () async throws(BMLTError) in
                try await write.route.interface.delete(meetingID: id)
                return MeetingDeletion(id: id)
            } lookUp: { lookUp, _ throws(BMLTError) in
                guard case .done(var deletion) = try await lookUp.deleted(id) else { return .notDone }
                deletion.wasAlreadyDeleted = refused.withLock { $0 }
                return .done(deletion)
            }
            // Already deleted: who deleted it and when, read after the verdict, as a best effort within the look-up's
            // budget (D9: 2.16.6 reads its whole change log for a query without dates; it never changes the verdict).
            if deletion.wasAlreadyDeleted {
                let finder = WriteLookUp(context: write.context, interface: write.route.interface)
                deletion.record = await LostAnswer.race(budget: attempt.lookUpBudget, late: nil) { () async -> BMLTChange? in
                    await finder.deletionRecord(id, around: attempt.since)
                }
            }
            return deletion
        } succeed: { connection, deletion, request in
            connection.meetingDeleted(deletion.id)
            connection.admin.lastDeletion = BMLTMeetingDeletion(meetingID: deletion.id, wasAlreadyDeleted: deletion.wasAlreadyDeleted,
                                                                deletion: deletion.record)
            return [.meetingDeleted(id: deletion.id, request: request)]
        }
    }

    static func restoreOperation(_ deletion: BMLTChange) -> Operation<BMLTMeeting> {
        adminOperation(kind: .restoreMeeting, what: .restoringMeetings) { write throws(BMLTError) in
            // 2.x restores under the old id (idempotent); REST creates the meeting again (never sent twice on its own;
            // a second restore of the same deletion looks first, keyed by the deleted meeting's id).
            let original = deletion.meetingID ?? deletion.before?.id
            let legacy = write.route.kind == .legacy
            let attempt = write.attempt(.restoreMeeting, original, resendable: legacy,
                                        openKey: legacy ? nil : original.map { "restore:\($0)" })
            return try await write.settle(attempt) { () async throws(BMLTError) in
                try await write.route.interface.restore(deletion)
            } lookUp: { lookUp, attempt throws(BMLTError) in
                if legacy, let id = original { return try await lookUp.restoredInPlace(id) }
                guard var before = deletion.before else { return .notDone }
                before.id = 0
                // The deleted original's own creation record is never this restore's (issue 47).
                return try await lookUp.created(before, attempt, excluding: Set(original.map { [$0] } ?? []))
            }
        } succeed: { connection, meeting, request in
            connection.meetingRestored(meeting, from: deletion)
            return [.meetingAdded(meeting, request: request)]
        }
    }

    static func rollbackOperation(meetingID: Int, change: BMLTChange) -> Operation<BMLTSaveResult> {
        adminOperation(kind: .rollbackMeeting, what: .rollingBackMeetings) { write throws(BMLTError) in
            try await write.settle(write.attempt(.rollbackMeeting, meetingID, resendable: true)) { () async throws(BMLTError) in
                try await write.route.interface.rollback(meetingID: meetingID, toBefore: change)
            } lookUp: { lookUp, _ throws(BMLTError) in
                try await lookUp.rolledBack(meetingID, to: change)
            }
        } succeed: { connection, result, request in
            connection.meetingChanged(result.meeting)
            return [.meetingSaved(result.meeting, fieldChanges: result.fieldChanges, request: request)]
        }
    }

    /// What a meeting write's work is given: where it runs, and the look-up after a lost answer.
    struct AdminWrite: Sendable {
        let context: OperationContext
        let route: AdminGateway.Route
        let generation: Int

        /// The attempt of `write` under this login (see `WriteAttempt`).
        func attempt(_ write: BMLTWriteKind, _ id: Int?, resendable: Bool, openKey: String? = nil,
                     carriedSince: Date? = nil) -> WriteAttempt {
            WriteAttempt(context, write: write, itemID: id, generation: generation, resendable: resendable, openKey: openKey,
                         carriedSince: carriedSince)
        }

        /// `body`, with the look-up after a lost answer (`LostAnswer.settle`) made by `lookUp`. `holding`: the caller
        /// holds the attempt's key already (`OpenWrites.exclusive`).
        func settle<Value: Sendable>(_ attempt: WriteAttempt,
                                     also: (BMLTError) -> Bool = { _ in false },
                                     holding: Bool = false,
                                     _ body: () async throws(BMLTError) -> Value,
                                     lookUp: @escaping @Sendable (WriteLookUp, WriteAttempt) async throws(BMLTError) -> LookUpVerdict<Value>) async throws(BMLTError) -> Value {
            let finder = WriteLookUp(context: context, interface: route.interface)
            let find: LostAnswer.LookUp<Value> = { since, acknowledged throws(BMLTError) in
                var window = attempt
                window.since = since
                window.acknowledgedID = acknowledged
                return try await lookUp(finder, window)
            }
            if holding { return try await LostAnswer.settleHolding(context, attempt, also: also, body, lookUp: find) }
            return try await LostAnswer.settle(context, attempt, also: also, body, lookUp: find)
        }

        /// Saves an edit of an existing meeting: the edit-conflict check (issue 47), the write, its look-up.
        func update(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult {
            let sent = AdminFormats.aligned(draft, formats: route.formats)
            let edited = Set(WireMeetingFieldTable.differences(from: draft.original, to: sent).map(\.key))
            let keys = route.kind == .legacy ? edited.subtracting(MeetingDraftRules.legacyUnsentKeys) : edited
            // An edit the interface would send nothing for is refused before the check reads anything.
            if let refusal = route.interface.refusal(ofEdit: draft) { throw refusal }
            // The fields sent: REST leaves out those the server neither stores nor defines. Only these are checked,
            // looked up after a lost answer and compared with the read-back (issue 57, R4: a field never sent is neither
            // "changed elsewhere" nor "changed meanwhile").
            let sentKeys = keys.subtracting(route.interface.unsentKeys(ofEdit: draft, keys: keys))
            // Issue 47: no edit lost between two admins (`EditConflictCheck`): the meeting read right before the write.
            let checked = sentKeys.isEmpty ? nil
                : try await EditConflictCheck.check(draft, sent: sent, keys: sentKeys, context: context, interface: route.interface)
            var result: BMLTSaveResult
            do throws(BMLTError) {
                result = try await settle(attempt(.saveMeeting, draft.id, resendable: true)) { () async throws(BMLTError) in
                    try await route.interface.save(draft, options: options)
                } lookUp: { lookUp, _ throws(BMLTError) in
                    // Like with like: the look-up compares the meeting held now with the check's read (the same
                    // admin read), not with the draft's source, which may not see a field or write it otherwise.
                    try await lookUp.saved(draft, sent: sent, keys: sentKeys, before: checked)
                }
            } catch {
                throw await EditConflictCheck.deletedInstead(of: error, meetingID: draft.id, context: context, interface: route.interface)
            }
            if let checked {
                result.changedMeanwhile = EditConflictCheck.meanwhile(checked: checked, draftOriginal: draft.original, sent: sent, keys: sentKeys,
                                                                      result: result, legacy: route.kind == .legacy)
                if let seen = result.changedMeanwhile, !seen.isEmpty {
                    context.transport.log.warning("meeting \(draft.id) changed on the server between the edit-conflict check and the "
                                                  + "write's read-back, other than by this save: \(seen.map(\.key).joined(separator: ", "))")
                }
            }
            return result
        }
    }
}
