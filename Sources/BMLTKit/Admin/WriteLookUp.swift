import Foundation

/// Finds out, with BMLTKit's own reads, what the server holds after a meeting write whose answer was lost
/// (see `LostAnswer.settle`): the meeting itself, the change log (`GetChanges`, which records every creation with
/// the user, the time and the meeting id on every generation) and the service body's meetings.
struct WriteLookUp: Sendable {
    let context: OperationContext
    let interface: any AdminInterface

    // MARK: - Creations

    /// A creation (a new meeting; a restore over REST, which creates the meeting again): one creation by this login,
    /// in the meeting's service body, since just before the request, matching what was sent → done, with that meeting.
    /// Another login's creations are never claimed; two matching → open, none picked; none, with a working change
    /// log → not done; none with an empty log → the service body's meetings decide (a meeting like it → open).
    func created(_ meeting: BMLTMeeting, since: Date) async throws(BMLTError) -> LookUpVerdict<BMLTMeeting> {
        let me = try await interface.loggedInUserID()
        let log = try await ChangeLogWindow.read(context, serviceBodyID: meeting.serviceBodyID, since: since)
        let threshold = log.threshold
        // This login's creations in the window (any login's when it is unknown).
        let mine = log.changes.filter { (change: BMLTChange) -> Bool in
            guard change.type == .created, change.meetingID != nil, me == nil || change.userID == me else { return false }
            if let date = change.date, date < threshold { return false }
            return true
        }
        let matching = mine.filter { (change: BMLTChange) -> Bool in
            if let after = change.after { return Self.alike(after, meeting) }
            return Self.sameText(change.meetingName ?? meeting.name, meeting.name)
        }
        let ids = Set(matching.compactMap { $0.meetingID }).sorted()
        // Without knowing who is logged in, a matching creation may be another login's: never claimed.
        if me == nil, !ids.isEmpty { return .open(.noRecordButSimilar(ids: ids)) }
        if ids.count > 1 { return .open(.severalCandidates(ids: ids)) }
        if let id = ids.first {
            do throws(BMLTError) {
                return .done(try await interface.meeting(id: id))
            } catch {
                if case .unauthorized = error { throw error }
                return .open(.doneButUnread(id: id, error), meetingID: id)
            }
        }
        // A creation by this login that does not match may be this one as the server stored it (changed on the way):
        // never "not done", so never sent again.
        let unmatched = Set(mine.compactMap { $0.meetingID }).sorted()
        if !unmatched.isEmpty { return .open(.unmatchedRecord(ids: unmatched)) }
        // The log answers for this service body and holds no creation by this login: not done.
        if !log.changes.isEmpty { return .notDone }
        let similar = try await interface.meetings(serviceBodyID: meeting.serviceBodyID).filter { Self.alike($0, meeting) }.map(\.id)
        return similar.isEmpty ? .notDone : .open(.noRecordButSimilar(ids: similar.sorted()))
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

    /// An update (a saved draft): the server holds the values sent for every field sent → done; it holds the values
    /// from before for all of them → not done; other values → someone else changed the meeting in between (open).
    func saved(_ draft: BMLTMeetingDraft, sent meeting: BMLTMeeting, keys: Set<String>) async throws(BMLTError) -> LookUpVerdict<BMLTSaveResult> {
        let held: BMLTMeeting
        do {
            held = try await interface.meeting(id: meeting.id)
        } catch .notFound {
            return .notDone
        }
        let unlikeSent = WireMeetingFieldTable.differences(from: held, to: meeting).map(\.key).filter(keys.contains)
        let changes = WireMeetingFieldTable.differences(from: draft.original, to: held).filter { keys.contains($0.key) }
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

    /// A deletion: the meeting is gone → done (with its deletion record from the change log, when it has one: who
    /// deleted it and when); still there → not done.
    func deleted(_ meetingID: Int) async throws(BMLTError) -> LookUpVerdict<MeetingDeletion> {
        do {
            _ = try await interface.meeting(id: meetingID)
            return .notDone
        } catch .notFound {
            return .done(MeetingDeletion(id: meetingID, record: await deletionRecord(meetingID)))
        }
    }

    /// The latest deletion of a meeting in the change log, `nil` when the log has none or cannot be read.
    func deletionRecord(_ meetingID: Int) async -> BMLTChange? {
        do {
            let value = try await context.semantic("GetChanges", [URLQueryItem(name: "meeting_id", value: String(meetingID))],
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
        let day: TimeInterval = 86_400
        let query = [URLQueryItem(name: "start_date", value: WireChange.day(since.addingTimeInterval(-day))),
                     URLQueryItem(name: "end_date", value: WireChange.day(Date().addingTimeInterval(day))),
                     URLQueryItem(name: "service_body_id", value: String(serviceBodyID))]
        let reply = try await context.semanticReply("GetChanges", query)
        let received = Date()
        let changes = try WireChange.decodeList(try WireReply.json(reply, what: .changes),
                                                formats: WireFormatTable(context.serverFormats))
        let header = reply.headers.first { $0.key.caseInsensitiveCompare("Date") == .orderedSame }?.value
        guard let serverNow = header.flatMap(Self.httpDate) else {
            return ChangeLogWindow(changes: changes, threshold: since.addingTimeInterval(-600))
        }
        // The server's clock runs `offset` ahead of ours (its Date header is whole seconds, and was written before the
        // reply travelled: the margin covers both).
        let offset = serverNow.timeIntervalSince(received)
        return ChangeLogWindow(changes: changes, threshold: since.addingTimeInterval(offset - 5))
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
