import Foundation

/// Creating a meeting from a new draft (issue 47, issue 57): never sent twice on its own, and a draft whose creation is
/// known done, saved again, works from the meeting it made — never a second meeting, never an open outcome for a write
/// that was not sent.
///
/// The draft's write identity keys the attempt (`draft:<uuid>` in `OpenWrites`); the whole creation, its 2.x
/// publication and the record of what it made run under that key, so a second save of the same draft (a double tap,
/// a form that keeps its draft) starts only once the first is over and sees what it left.
extension BMLTConnection.AdminWrite {
    /// Saves a new meeting's draft: the creation (its look-up after a lost answer), then on 2.x its publication; or, for
    /// a draft already created, the meeting it made (`savedAgain`).
    func create(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult {
        let sent = AdminFormats.aligned(draft, formats: route.formats)
        let key = "draft:" + draft.writeIdentity.uuidString
        let openWrites = context.adminSession.openWrites
        return try await openWrites.exclusive(key) { () async throws(BMLTError) -> BMLTSaveResult in
            if let done = openWrites.done(key), let id = done.id {
                let result = try await savedAgain(draft, sent: sent, id: id, done: done, options: options)
                openWrites.done(key, since: openWrites.started(key) ?? Date(),
                                OpenWrites.Done(sent: sent, created: result.meeting, announced: true))
                return result
            }
            let attempt = attempt(.createMeeting, nil, resendable: false, openKey: key, carriedSince: draft.openAttemptStarted)
            var result: BMLTSaveResult
            do throws(BMLTError) {
                result = try await settle(attempt, holding: true) { () async throws(BMLTError) in
                    try await route.interface.save(draft, options: options)
                } lookUp: { lookUp, attempt throws(BMLTError) in
                    switch try await lookUp.created(sent, attempt) {
                    case .done(let meeting):
                        return .done(BMLTSaveResult(meeting: meeting, fieldChanges: WireMeetingFieldTable.differences(from: nil, to: meeting),
                                                    wasCreated: true))
                    case .notDone: return .notDone
                    case .open(let finding, let id): return .open(finding, meetingID: id)
                    }
                }
            } catch {
                // Known done though unread (R3): what was sent is kept with the id, for the next save of this draft.
                if openWrites.done(key) != nil { openWrites.done(key, since: attempt.since, OpenWrites.Done(sent: sent)) }
                throw error
            }
            let since = openWrites.started(key) ?? attempt.since
            openWrites.done(key, since: since, OpenWrites.Done(id: result.meeting.id, sent: sent, created: result.meeting))
            result = try await published(result, wanted: sent.isPublished)
            openWrites.done(key, since: since, OpenWrites.Done(created: result.meeting, announced: true))
            return result
        }
    }

    /// A draft whose creation is known done, saved again (issue 57, R5). Unchanged since: the meeting as the server
    /// holds it now (reported as created when no success was reported for it yet, else as a save that changed
    /// nothing). Changed since: an edit of that meeting, through the edit-conflict check, from the meeting as it was
    /// created; when it was never read back, refused with a sentence that names it (nothing is sent).
    private func savedAgain(_ draft: BMLTMeetingDraft, sent: BMLTMeeting, id: Int, done: OpenWrites.Done,
                            options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult {
        // What was sent is always kept with a done creation; without it the edits since cannot be told (refused).
        guard let first = done.sent else { throw .invalidArgument(.draftAlreadyCreated(meetingID: id)) }
        guard !WireMeetingFieldTable.differences(from: first, to: sent).isEmpty else {
            let held: BMLTMeeting
            do {
                held = try await route.interface.meeting(id: id)
            } catch .notFound {
                throw .meetingDeleted(await EditConflictCheck.deletion(id, context: context))
            }
            let result = BMLTSaveResult(meeting: held, fieldChanges: done.announced ? [] : WireMeetingFieldTable.differences(from: nil, to: held),
                                        wasCreated: !done.announced)
            return try await published(result, wanted: sent.isPublished)
        }
        guard let created = done.created else { throw .invalidArgument(.draftAlreadyCreated(meetingID: id)) }
        // The person's edits since the last save of this draft, over the meeting as the server held it then.
        var made = first
        made.id = id
        var edit = BMLTMeetingDraft(made)
        // The draft as it was sent (its formats aligned to the server's), like `first`: a draft whose formats were set
        // by id alone would otherwise differ from `first` in its format keys, and the save would clear its formats.
        edit.meeting = sent
        edit.meeting.id = id
        var rebased = edit.rebased(onto: created)
        rebased.originalIsAdminRead = true
        var result = try await update(rebased, options: options)
        result.wasCreated = !done.announced
        return result
    }

    /// 2.x's `add_meeting` ignores `published` (`server-truths/216-admin-add_meeting-published-1.json`: every field
    /// sent is listed but `published`, and the meeting is stored unpublished; `216-admin-get_meetings-after-add.json`):
    /// a draft that asks for a published meeting is published by a second write, `modify_meeting … published,1`
    /// (`216-admin-modify_meeting-published-1.json`), under a save's rules — a lost answer to it is looked up (the
    /// meeting read: published or not), a write proven not done is sent again under the retry policy — and the result
    /// is the meeting as the server then holds it. Issue 56. Nothing is sent when the draft does not ask for it, on
    /// 3.x/4.x (which store `published` on creation), or when the meeting is published already.
    func published(_ result: BMLTSaveResult, wanted: Bool?) async throws(BMLTError) -> BMLTSaveResult {
        guard route.kind == .legacy, wanted == true, result.meeting.isPublished != true else { return result }
        var publishing = BMLTMeetingDraft(result.meeting)
        publishing.originalIsAdminRead = true
        publishing.isPublished = true
        let draft = publishing, sent = publishing.meeting
        let before = result.meeting
        let saved = try await settle(attempt(.saveMeeting, result.meeting.id, resendable: true)) { () async throws(BMLTError) in
            try await route.interface.save(draft, options: BMLTSaveOptions())
        } lookUp: { lookUp, _ throws(BMLTError) in
            try await lookUp.saved(draft, sent: sent, keys: ["published"], before: before)
        }
        var published = result
        published.meeting = saved.meeting
        published.fieldChanges = result.wasCreated ? WireMeetingFieldTable.differences(from: nil, to: saved.meeting)
            : result.fieldChanges.filter { $0.key != "published" } + saved.fieldChanges
        return published
    }
}
