import Foundation

/// The change log since a list's server time, as a refresh needs it: the ids of the meetings created, changed or
/// deleted, and the server's time of the answer (the refreshed list's new `serverDate`).
struct ChangeLogRead: Sendable {
    /// Meetings that changed since (every record's meeting).
    var meetingIDs: Set<Int>
    /// How many records were read (those older than the previous list's time included).
    var records: Int
    /// The server's time when it answered.
    var serverDate: Date

    /// `GetChanges` from a day or two before `since` (dates in the server's own zone, which is not known: the start is
    /// taken two days early and the records are filtered by their time), past every cache. A failure, a reply that is
    /// not a list of records, a record without `json_data` or a meeting id, or a reply without a `Date` header is a
    /// `RefreshFallback`; cancellation is thrown as `.cancelled`.
    static func read(since: Date, _ context: OperationContext) async throws(BMLTError) -> Result<ChangeLogRead, RefreshFallback> {
        var utc = TimeZone(identifier: "UTC") ?? .current
        utc = TimeZone(secondsFromGMT: 0) ?? utc
        let start = WireChange.day(since.addingTimeInterval(-2 * 86_400), timeZone: utc)
        let reply: HTTPReply
        do {
            reply = try await context.freshSemanticReply("GetChanges", [URLQueryItem(name: "start_date", value: start)],
                                                         unique: true)
        } catch {
            if case .cancelled = error { throw error }
            return .failure(.changeLogFailed(error.localizedDescription))
        }
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
        var ids = Set<Int>()
        let from = since.addingTimeInterval(-RefreshLimits.clockMargin)
        for entry in entries {
            guard let change = WireChange.decode(entry, context: &context) else {
                return .failure(.changeLogUntrusted("a record without a change id"))
            }
            // A record without a time is kept (it may be recent); one older than the previous list is not needed.
            if let date = change.date, date < from { continue }
            guard hasJSONData(change), let id = change.meetingID ?? change.after?.id ?? change.before?.id else {
                return .failure(.changeRecordIncomplete(changeID: change.id))
            }
            ids.insert(id)
        }
        return .success(ChangeLogRead(meetingIDs: ids, records: entries.count, serverDate: serverDate))
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
