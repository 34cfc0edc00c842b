import Foundation

/// The change log since a list's server time, as a refresh needs it: the ids of the meetings created, changed or
/// deleted, and the server's time of the answer (the refreshed list's new `serverDate`).
struct ChangeLogRead: Sendable {
    /// The meetings that changed since and are worth reading again (`RefreshPlacement.worthReading`; every one without a placement).
    var candidates: Set<Int>
    /// How many records were read (those older than the previous list's time included).
    var records: Int
    /// The server's time when it answered.
    var serverDate: Date
    /// The bytes of the reply.
    var bytes: Int
    /// The newest record read (`change_id`), for the next refresh.
    var lastChangeID: Int?

    /// `GetChanges` from a day or two before `since` (dates in the server's own zone, which is not known: the start is
    /// taken two days early and the records are filtered), past every cache, taking at most `limit` bytes. A record is
    /// kept when it is newer than `lastChangeID` (the newest the previous refresh read) or dated after `since` less a
    /// margin: 300 s beside a known `lastChangeID` (a change saved while the list was read), 14 hours without one.
    /// A record's `date_int` is MySQL's `CURRENT_TIMESTAMP` read as UTC (3.x/4.x: `MeetingChangeResource`,
    /// `strtotime($this->change_date)` in an app whose zone is UTC, on a connection that sets none): on a database
    /// whose zone is not UTC every record is hours off — up to 12 early (UTC−12) — and a 5-minute margin dropped
    /// every change for good (review R10). The change ids do not depend on any clock.
    ///
    /// A failure, a reply that is not a list of records, a record without `json_data` or a meeting id, a reply
    /// without a `Date` header or longer than `limit` is a `RefreshFallback`; cancellation is thrown as `.cancelled`.
    static func read(since: Date, after lastChangeID: Int?, limit: Int?, placement: RefreshPlacement? = nil, held: Set<Int> = [],
                     _ context: OperationContext) async throws(BMLTError) -> Result<ChangeLogRead, RefreshFallback> {
        var utc = TimeZone(identifier: "UTC") ?? .current
        utc = TimeZone(secondsFromGMT: 0) ?? utc
        let start = WireChange.day(since.addingTimeInterval(-2 * 86_400), timeZone: utc)
        let reply: HTTPReply
        do {
            reply = try await context.freshSemanticReply("GetChanges", [URLQueryItem(name: "start_date", value: start)],
                                                         unique: true, limit: limit.map { max(1, $0) })
        } catch {
            if case .cancelled = error { throw error }
            if case .responseTooLarge(let bytes) = error, let limit, bytes <= max(1, limit) {
                // Longer than `bytes`, by how much unknown: counted as twice that, so that a budget a few bytes larger
                // next time (the formats' size known instead of guessed) does not read it again only to stop again.
                context.transport.refreshMemory.noteChangeLog(bytes: 2 * max(1, bytes))
                return .failure(.changeLogTooLarge(limit: bytes))
            }
            return .failure(.changeLogFailed(error.localizedDescription))
        }
        context.transport.refreshMemory.noteChangeLog(bytes: reply.data.count)
        guard let serverDate = RefreshOrigin.serverDate(reply) else { return .failure(.noDateHeader) }
        let value: WireValue
        do { value = try WireReply.body(reply.data, what: .changes) } catch {
            return .failure(.changeLogUntrusted(error.localizedDescription))
        }
        guard let entries = WireShape.objectList(value) else {
            return .failure(.changeLogUntrusted("the reply is not a list of change records"))
        }
        guard entries.count <= RefreshLimits.maximumRecords else {
            return .failure(.tooManyChanges(meetings: -1, records: entries.count))
        }
        var context = MeetingDecodingContext(formats: WireFormatTable(context.serverFormats))
        var candidates = Set<Int>()
        var newest = lastChangeID
        let from = since.addingTimeInterval(-(lastChangeID == nil ? RefreshLimits.databaseClockMargin : RefreshLimits.clockMargin))
        for entry in entries {
            guard let change = WireChange.decode(entry, context: &context) else {
                return .failure(.changeLogUntrusted("a record without a change id"))
            }
            newest = max(newest ?? change.id, change.id)
            // A record newer than the last one read is kept whatever its date; one without a time is kept (it may be
            // recent); one older than the previous list (less the margin) is not needed.
            let unread = lastChangeID.map { change.id > $0 } ?? false
            if !unread, let date = change.date, date < from { continue }
            guard hasJSONData(change), let id = change.meetingID ?? change.after?.id ?? change.before?.id else {
                return .failure(.changeRecordIncomplete(changeID: change.id))
            }
            if placement?.worthReading(change, meeting: id, held: held) ?? true { candidates.insert(id) }
        }
        return .success(ChangeLogRead(candidates: candidates, records: entries.count, serverDate: serverDate,
                                      bytes: reply.data.count, lastChangeID: newest))
    }

    /// Whether a record carries the meeting as `json_data` says it should: after a creation, before a deletion, one
    /// of the two for a change or a rollback (every generation's records do, 2.16.6 included).
    private static func hasJSONData(_ change: BMLTChange) -> Bool {
        switch change.type {
        case .created: change.after != nil
        case .deleted: change.before != nil
        case .changed, .rolledBack, .other: change.before != nil || change.after != nil
        }
    }
}
