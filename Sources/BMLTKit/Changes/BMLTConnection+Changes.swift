import Foundation

extension BMLTConnection {
    /// Asks for the change history (`GetChanges`): posts `.bmltChangeListResults`; fills `changes.changes`.
    /// Each change carries the meeting before and after it, where the server recorded them.
    ///
    /// - Parameters:
    ///   - from: the first day (inclusive; the day of this date in the device's time zone).
    ///   - to: the last day (inclusive).
    ///   - meetingID: only this meeting's changes.
    ///   - serviceBodyID: only changes to this service body's meetings.
    ///   - userID: only changes made by this user (the server cannot filter by user; BMLTKit does).
    @discardableResult
    public func fetchChanges(from: Date? = nil, to: Date? = nil, meetingID: Int? = nil, serviceBodyID: Int? = nil,
                             userID: Int? = nil) -> BMLTRequest {
        start(Self.changeQuery(from: from, to: to, meetingID: meetingID, serviceBodyID: serviceBodyID, userID: userID))
    }

    /// The `async` form of `fetchChanges(from:to:meetingID:serviceBodyID:userID:)`.
    public func changes(from: Date? = nil, to: Date? = nil, meetingID: Int? = nil,
                        serviceBodyID: Int? = nil) async throws -> [BMLTChange] {
        try await run(Self.changeQuery(from: from, to: to, meetingID: meetingID, serviceBodyID: serviceBodyID, userID: nil))
    }

    /// The changes one user made (the `async` form of `fetchChanges(from:to:userID:)`).
    public func changes(madeBy userID: Int, from: Date? = nil, to: Date? = nil) async throws -> [BMLTChange] {
        try await run(Self.changeQuery(from: from, to: to, meetingID: nil, serviceBodyID: nil, userID: userID))
    }

    /// The changes of one meeting (`GetChanges&meeting_id=`), newest first.
    public func changes(of meeting: BMLTMeeting) async throws -> [BMLTChange] {
        try await changes(meetingID: meeting.id)
    }

    /// Asks for the meetings deleted and not restored since: the latest deletion of each, newest first, with the
    /// meeting as it was in `before` (what `restoreDeletedMeeting(_:)` needs). Posts `.bmltChangeListResults`
    /// (its request's kind is `.deletedMeetings`); fills `changes.deletedMeetings`.
    @discardableResult
    public func fetchDeletedMeetings(from: Date? = nil, to: Date? = nil, serviceBodyIDs: [Int]? = nil) -> BMLTRequest {
        start(Self.deletedMeetingQuery(from: from, to: to, serviceBodyIDs: serviceBodyIDs))
    }

    /// The `async` form of `fetchDeletedMeetings(from:to:serviceBodyIDs:)`.
    public func deletedMeetings(from: Date? = nil, to: Date? = nil, serviceBodyIDs: [Int]? = nil) async throws -> [BMLTChange] {
        try await run(Self.deletedMeetingQuery(from: from, to: to, serviceBodyIDs: serviceBodyIDs))
    }

    static func changeQuery(from: Date?, to: Date?, meetingID: Int?, serviceBodyID: Int?, userID: Int?) -> Operation<[BMLTChange]> {
        Operation.read(
            .changes, errorIn: .changes,
            work: { context throws(BMLTError) in
                var changes = try await fetchChangeList(context, from: from, to: to, meetingID: meetingID,
                                                        serviceBodyID: serviceBodyID)
                if let userID { changes = changes.filter { $0.userID == userID } }
                return changes
            },
            succeed: { connection, changes, request in
                connection.changes.changes = changes
                return [.changeListResults(changes, request: request)]
            }
        )
    }

    static func deletedMeetingQuery(from: Date?, to: Date?, serviceBodyIDs: [Int]?) -> Operation<[BMLTChange]> {
        Operation.read(
            .deletedMeetings, errorIn: .changes,
            work: { context throws(BMLTError) in
                // GetChanges takes one service body; several are asked for side by side.
                let ids = Array(Set(serviceBodyIDs ?? [])).sorted()
                let all: [BMLTChange]
                if ids.count <= 1 {
                    all = try await fetchChangeList(context, from: from, to: to, meetingID: nil, serviceBodyID: ids.first)
                } else {
                    all = try await withTaskGroup(of: Result<[BMLTChange], BMLTError>.self) { group -> Result<[BMLTChange], BMLTError> in
                        for id in ids {
                            group.addTask {
                                do throws(BMLTError) {
                                    return .success(try await fetchChangeList(context, from: from, to: to, meetingID: nil,
                                                                               serviceBodyID: id))
                                } catch { return .failure(error) }
                            }
                        }
                        var merged: [BMLTChange] = []
                        for await result in group {
                            switch result {
                            case .success(let changes): merged += changes
                            case .failure(let error):
                                group.cancelAll()
                                return .failure(error)
                            }
                        }
                        return .success(merged)
                    }.get()
                }
                return WireChange.latestDeletions(all)
            },
            succeed: { connection, deletions, request in
                connection.changes.deletedMeetings = deletions
                return [.changeListResults(deletions, request: request)]
            }
        )
    }

    private static func fetchChangeList(_ context: OperationContext, from: Date?, to: Date?, meetingID: Int?,
                                        serviceBodyID: Int?) async throws(BMLTError) -> [BMLTChange] {
        try AggregatorRefusal.changes(context.serverInfo, meetingID == nil ? .changesAndDeletedMeetings : .meetingChanges)
        var query: [URLQueryItem] = []
        if let from { query.append(URLQueryItem(name: "start_date", value: WireChange.day(from))) }
        if let to { query.append(URLQueryItem(name: "end_date", value: WireChange.day(to))) }
        if let meetingID { query.append(URLQueryItem(name: "meeting_id", value: String(meetingID))) }
        if let serviceBodyID { query.append(URLQueryItem(name: "service_body_id", value: String(serviceBodyID))) }
        let reply = try await context.semantic("GetChanges", query, what: .changes)
        return try WireChange.decodeList(reply, formats: WireFormatTable(context.serverFormats))
    }
}
