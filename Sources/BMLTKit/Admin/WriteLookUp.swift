import Foundation

/// Finds out, with BMLTKit's own reads, what the server holds after a meeting write whose answer was lost
/// (see `LostAnswer.settle`): the meeting itself, the change log (`GetChanges`, which records every creation with
/// the user, the time and the meeting id on every generation) and the service body's meetings.
struct WriteLookUp: Sendable {
    let context: OperationContext
    let interface: any AdminInterface

    // MARK: - Creations

    /// A creation (a new meeting; a restore over REST, which creates the meeting again), in the first attempt's window.
    /// This login's creations in the meeting's service body are compared with what was sent *as the meeting is held
    /// now* — the newest record of each id, or the meeting read — because 2.16.6's `add_meeting` records a placeholder
    /// first (capture change 13141: weekday 1, start "20") and the fields sent in a second, "changed" record (13142).
    /// One matching since the request → done, with that meeting. Another login's creations are never claimed, nor
    /// `excluding` (a restore's deleted original); a match older than the request (clocks apart) → open, never "not
    /// done"; two matching → open, none picked; one of this login's that does not match → open; none, with a working
    /// change log → not done; none with an empty log → the service body's meetings decide (a meeting like it → open).
    func created(_ meeting: BMLTMeeting, _ attempt: WriteAttempt, excluding: Set<Int> = []) async throws(BMLTError) -> LookUpVerdict<BMLTMeeting> {
        // The write's own answer named the new meeting (2.x `add_meeting`, its read-back lost): done, that meeting —
        // read, or known done though unread (R3: remembered, never created again).
        if let id = attempt.acknowledgedID { return try await made(id) }
        let me: Int?
        if let user = attempt.userID { me = user } else { me = try await interface.loggedInUserID() }
        let log = try await ChangeLogWindow.read(context, serviceBodyID: meeting.serviceBodyID, since: attempt.since)
        // This login's creations in the whole window (any login's when it is unknown), newest first.
        let created = log.changes.filter { (change: BMLTChange) -> Bool in
            guard change.type == .created, let id = change.meetingID, !excluding.contains(id) else { return false }
            return me == nil || change.userID == me
        }
        var matching: [BMLTChange] = [], unlike: [BMLTChange] = []
        for change in created {
            guard let id = change.meetingID else { continue }
            // The newest image of the meeting in the log (2.x: the second record holds the fields sent).
            let newest = log.changes.filter { $0.meetingID == id && $0.after != nil }.max { $0.id < $1.id }?.after ?? change.after
            if let newest, Self.alike(newest, meeting) {
                matching.append(change)
            } else if newest == nil, Self.sameText(change.meetingName ?? meeting.name, meeting.name) {
                matching.append(change)
            } else {
                unlike.append(change)
            }
        }
        let isRecent = { (change: BMLTChange) -> Bool in change.date.map { $0 >= log.threshold } ?? true }
        // None matches as the log has it: the log's records may lag what the server holds (2.x writes the fields sent
        // in a second record), so the meeting as held now decides, for a few of this login's recent creations.
        if !matching.contains(where: isRecent) {
            for change in unlike.filter(isRecent).prefix(3) {
                guard let id = change.meetingID, let held = try? await interface.meeting(id: id), Self.alike(held, meeting) else { continue }
                matching.append(change)
                unlike.removeAll { $0.id == change.id }
            }
        }
        // The threshold only claims (D4): a match older than the request is reported, never taken for "not done".
        let recent = matching.filter(isRecent)
        let ids = Set(recent.compactMap { $0.meetingID }).sorted()
        // Without knowing who is logged in, a matching creation may be another login's: never claimed.
        if me == nil, !ids.isEmpty { return .open(.noRecordButSimilar(ids: ids)) }
        if ids.count > 1 { return .open(.severalCandidates(ids: ids)) }
        if let id = ids.first { return try await made(id) }
        let older = Set(matching.compactMap { $0.meetingID }).sorted()
        if !older.isEmpty { return .open(.noRecordButSimilar(ids: older)) }
        // A creation by this login since the request that does not match may be this one as the server stored it
        // (changed on the way): never "not done", so never sent again.
        let unmatched = Set(unlike.filter(isRecent).compactMap { $0.meetingID }).sorted()
        if !unmatched.isEmpty { return .open(.unmatchedRecord(ids: unmatched)) }
        // The log answers for this service body and holds no creation by this login: not done.
        if !log.changes.isEmpty { return .notDone }
        let similar = try await interface.meetings(serviceBodyID: meeting.serviceBodyID)
            .filter { Self.alike($0, meeting) && !excluding.contains($0.id) }.map(\.id)
        return similar.isEmpty ? .notDone : .open(.noRecordButSimilar(ids: similar.sorted()))
    }

    /// The meeting a creation made, known done: read (done), or done though unread (open, naming it); a login that
    /// ended is thrown.
    private func made(_ id: Int) async throws(BMLTError) -> LookUpVerdict<BMLTMeeting> {
        do throws(BMLTError) {
            return .done(try await interface.meeting(id: id))
        } catch {
            if case .unauthorized = error { throw error }
            return .open(.doneButUnread(id: id, error), meetingID: id)
        }
    }

    /// Whether two meetings are the same meeting as a person would tell them apart in a list: service body, name,
    /// day and start time.
    static func alike(_ one: BMLTMeeting, _ other: BMLTMeeting) -> Bool {
        one.serviceBodyID == other.serviceBodyID && sameText(one.name, other.name) && one.weekday == other.weekday
            && one.startTime == other.startTime
    }

    /// Whether two texts are the same once trimmed and with each run of white space as one space: 3.x/4.x servers trim
    /// what they receive (Laravel's `TrimStrings`), so `"Friday Night "` is held as `"Friday Night"`.
    static func sameText(_ one: String, _ other: String) -> Bool {
        normalized(one) == normalized(other)
    }

    /// `text` trimmed, each run of white space one space.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    // MARK: - Updates

    /// Whether a field's two values are the same as a server stores them: text trimmed with runs of white space as one
    /// (3.x/4.x trim), a list in any order (2.x reorders formats), a time to the minute (REST sends `HH:MM`).
    static func sameStored(_ change: BMLTFieldChange) -> Bool {
        let one = normalized(change.before ?? ""), other = normalized(change.after ?? "")
        if one == other { return true }
        if change.key == "formats" || change.key.hasSuffix("_ids") {
            func set(_ text: String) -> Set<String> { Set(text.split(separator: ",").map { normalized(String($0)) }.filter { !$0.isEmpty }) }
            return set(one) == set(other)
        }
        if change.key.hasSuffix("_time") {
            func minutes(_ text: String) -> String { text.split(separator: ":").prefix(2).map { String(Int($0) ?? -1) }.joined(separator: ":") }
            return minutes(one) == minutes(other)
        }
        return false
    }

    /// `sameStored(_:)`, with formats also compared by what they are (their shared ids, `EditConflictCheck.same`) when
    /// both meetings carry them.
    static func sameStored(_ change: BMLTFieldChange, _ one: BMLTMeeting?, _ other: BMLTMeeting) -> Bool {
        if sameStored(change) { return true }
        guard change.key == "formats", let one else { return false }
        return EditConflictCheck.same("formats", one, other)
    }

    /// An update (a saved draft): the server holds the values sent for every field sent → done; it holds the values
    /// from before for all of them → not done; other values → someone else changed the meeting in between (open).
    /// `before`: the meeting as the edit-conflict check read it right before the write (the same admin read as the one
    /// made here; issue 57), else the draft's original. `keys`: the fields the write sends.
    func saved(_ draft: BMLTMeetingDraft, sent meeting: BMLTMeeting, keys: Set<String>,
               before: BMLTMeeting? = nil) async throws(BMLTError) -> LookUpVerdict<BMLTSaveResult> {
        let held: BMLTMeeting
        do {
            held = try await interface.meeting(id: meeting.id)
        } catch .notFound {
            return .notDone
        }
        // Compared as the servers store them (D11): trimmed text, format sets, times to the minute.
        let unlikeSent = WireMeetingFieldTable.differences(from: held, to: meeting)
            .filter { keys.contains($0.key) && !Self.sameStored($0, held, meeting) }.map(\.key)
        let earlier = before ?? draft.original
        let changes = WireMeetingFieldTable.differences(from: earlier, to: held)
            .filter { keys.contains($0.key) && !Self.sameStored($0, earlier, held) }
        if unlikeSent.isEmpty { return .done(BMLTSaveResult(meeting: held, fieldChanges: changes, wasCreated: false)) }
        if changes.isEmpty { return .notDone }
        return .open(.changedElsewhere(keys: unlikeSent.sorted()), meetingID: meeting.id)
    }

    /// A rollback: the server holds the change's before-image → done; otherwise not done (a rollback sets the same
    /// values again, so sending it again is harmless).
    func rolledBack(_ meetingID: Int, to change: BMLTChange) async throws(BMLTError) -> LookUpVerdict<BMLTSaveResult> {
        let held: BMLTMeeting
        do {
            held = try await interface.meeting(id: meetingID)
        } catch .notFound {
            return .notDone
        }
        var wanted = held.editable()
        wanted.takeBeforeImage(of: change)
        guard WireMeetingFieldTable.differences(from: held, to: wanted.meeting).isEmpty else { return .notDone }
        let changes = change.after.map { WireMeetingFieldTable.differences(from: $0, to: held) } ?? []
        return .done(BMLTSaveResult(meeting: held, fieldChanges: changes, wasCreated: false))
    }

    // MARK: - Deletions and restores

    /// A deletion: the meeting is gone → done; still there → not done. (Who deleted it is read after the verdict:
    /// `deletionRecord(_:around:)`.)
    func deleted(_ meetingID: Int) async throws(BMLTError) -> LookUpVerdict<MeetingDeletion> {
        do {
            _ = try await interface.meeting(id: meetingID)
            return .notDone
        } catch .notFound {
            return .done(MeetingDeletion(id: meetingID))
        }
    }

    /// The latest deletion of a meeting in the change log around `date` (a window of days: 2.16.6 reads its whole log
    /// for a query without dates), `nil` when the log has none or cannot be read.
    func deletionRecord(_ meetingID: Int, around date: Date) async -> BMLTChange? {
        do {
            let value = try WireReply.json(try await ChangeLogWindow.reply(context, [URLQueryItem(name: "meeting_id", value: String(meetingID))],
                                                                           from: date.addingTimeInterval(-30 * 86_400), to: Date()),
                                           what: .changes)
            let changes = try WireChange.decodeList(value, formats: WireFormatTable(context.serverFormats))
            return changes.filter { $0.type == .deleted && $0.meetingID == meetingID }.max { ($0.date ?? .distantPast) < ($1.date ?? .distantPast) }
        } catch {
            return nil
        }
    }

    /// A restore under the old id (2.x): the meeting is there → done; not there → not done.
    func restoredInPlace(_ meetingID: Int) async throws(BMLTError) -> LookUpVerdict<BMLTMeeting> {
        do {
            return .done(try await interface.meeting(id: meetingID))
        } catch .notFound {
            return .notDone
        }
    }
}

/// A deletion as the server now holds it: the meeting's id and, when the change log says, who deleted it and when.
struct MeetingDeletion: Sendable {
    var id: Int
    /// The change log's record of the deletion (user, time), when it was looked up.
    var record: BMLTChange?
    /// Whether the meeting was already gone when this deletion was asked for (the server refused it as missing).
    var wasAlreadyDeleted = false
}

/// The change log of a service body around a write, with the time from which a record can be this write's.
struct ChangeLogWindow: Sendable {
    var changes: [BMLTChange]
    /// Records from this time on (in the server's clock, read from its `Date` header) may be the write's; without a
    /// `Date` header, ten minutes before the request (a clock skew of minutes between the device and the server).
    var threshold: Date

    static func read(_ context: OperationContext, serviceBodyID: Int, since: Date) async throws(BMLTError) -> ChangeLogWindow {
        let reply = try await Self.reply(context, [URLQueryItem(name: "service_body_id", value: String(serviceBodyID))], from: since, to: Date())
        let received = Date()
        let changes = try WireChange.decodeList(try WireReply.json(reply, what: .changes),
                                                formats: WireFormatTable(context.serverFormats))
        guard let serverNow = HTTPHeaders.value("Date", in: reply.headers).flatMap(HTTPHeaders.date) else {
            return ChangeLogWindow(changes: changes, threshold: since.addingTimeInterval(-600))
        }
        // The server's clock runs `offset` ahead of ours (its Date header is whole seconds, and was written before the
        // reply travelled: the margin covers both).
        let offset = serverNow.timeIntervalSince(received)
        return ChangeLogWindow(changes: changes, threshold: since.addingTimeInterval(offset - 5))
    }

    /// `GetChanges` for the days from `from` to `to`, two days wider on each side in UTC (D13: a device and a server
    /// a day apart in their zones still cover the write), never answered by a cache (D12: a unique query item, which
    /// the servers ignore, and `Cache-Control: no-cache`).
    static func reply(_ context: OperationContext, _ query: [URLQueryItem], from: Date, to: Date) async throws(BMLTError) -> HTTPReply {
        let days: TimeInterval = 2 * 86_400
        let utc = TimeZone(identifier: "UTC") ?? .current
        let window = [URLQueryItem(name: "start_date", value: WireChange.day(from.addingTimeInterval(-days), timeZone: utc)),
                      URLQueryItem(name: "end_date", value: WireChange.day(to.addingTimeInterval(days), timeZone: utc))]
        let nonce = URLQueryItem(name: "bmltkit_look_up", value: UUID().uuidString)
        let reply = try await context.get("client_interface/json/", query: [URLQueryItem(name: "switcher", value: "GetChanges")] + window + query + [nonce],
                                          headers: ["Cache-Control": "no-cache"])
        try WireReply.checkStatus(reply)
        return reply
    }
}
