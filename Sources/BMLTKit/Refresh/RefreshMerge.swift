import Foundation

/// A refresh's second round: the list's skeleton and the changed meetings, side by side, made into the list a new
/// download would give.
///
/// - The skeleton (`ListSkeleton`) says which meetings the list holds now and in what order, as the server decides both
///   for the criteria: on 2.x too (where the changed meetings asked by id come whatever the criteria, unpublished ones
///   included: `server-truths/216-GetSearchResults-meeting_ids-weekdays.json`), whatever the server's
///   `default_sort_key` (3.x/4.x `SwitcherController::getSearchResults`; 2.x `search_results_csv.php`) and however
///   its database orders ties.
/// - The meetings the change log names are read by id (several requests when their ids do not fit one request line;
///   a server's 414 is a whole download): each meeting of the skeleton is the one just read, or else the one the
///   list held. A meeting the skeleton lists that neither holds (it joined the list without a record, or changed
///   between the two reads) is read by id too.
/// - 2.x measures no distance for a search by id (its `meeting_ids[]` branch sets no centre): with a location, the
///   skeleton asks the distances beside the ids, and the meetings read get them.
enum RefreshMerge {
    static func bring(_ ids: Set<Int>, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults,
                      order: ServerOrder, units: BMLTDistanceUnit,
                      _ context: OperationContext) async throws(BMLTError) -> Result<BMLTSearchResults, RefreshFallback> {
        var legacy = false
        if case .legacy = order { legacy = true }
        let distances = legacy && criteria.location != nil ? ["distance_in_km", "distance_in_miles"] : []
        async let skeletonRead = skeleton(criteria, extraKeys: distances, context)
        async let broughtRead = meetings(ids.sorted(), criteria: criteria, extent: extent, units: units, context)
        let skeleton: BMLTSearchResults
        switch await skeletonRead {
        case .success(let read): skeleton = read
        case .failure(let error):
            _ = await broughtRead
            return try fallback(error, asking: criteria.meetingIDs.count, what: "the list's ids")
        }
        var brought: BMLTSearchResults
        switch await broughtRead {
        case .success(let read): brought = read
        case .failure(let error): return try fallback(error, asking: ids.count, what: "the changed meetings")
        }
        guard brought.meetings.allSatisfy({ ids.contains($0.id) }), brought.skippedFormats == 0 else {
            return .failure(.changeLogUntrusted("the server answered meetings it was not asked for"))
        }
        var read: [Int: BMLTMeeting] = [:]
        for meeting in brought.meetings where read[meeting.id] == nil { read[meeting.id] = meeting }
        let held = Dictionary(previous.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<Int>()
        let list = skeleton.meetings.map(\.id).filter { seen.insert($0).inserted }
        let unread = list.filter { read[$0] == nil && (held[$0] == nil || ids.contains($0)) }
        if !unread.isEmpty {
            switch await meetings(unread, criteria: criteria, extent: extent, units: units, context) {
            case .success(let more):
                for meeting in more.meetings where read[meeting.id] == nil && unread.contains(meeting.id) { read[meeting.id] = meeting }
                brought.formats += more.formats
                brought.serverDate = earliest(brought.serverDate, more.serverDate)
            case .failure(let error): return try fallback(error, asking: unread.count, what: "the meetings that joined the list")
            }
            guard unread.allSatisfy({ read[$0] != nil }) else {
                return .failure(.changeLogUntrusted("the list changed while it was read"))
            }
            context.transport.log.note("refresh: \(unread.count) meetings of the list were read beside the change log's")
        }
        if !distances.isEmpty {
            let measured = Dictionary(skeleton.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for (id, meeting) in read {
                var placed = meeting
                placed.distanceInKilometers = measured[id]?.distanceInKilometers
                placed.distanceInMiles = measured[id]?.distanceInMiles
                read[id] = placed
            }
        }
        let merged = list.compactMap { read[$0] ?? held[$0] }
        var results = BMLTSearchResults(meetings: merged, formats: [])
        if extent == .meetingsAndFormats {
            results.formats = order.usedFormats(of: merged, from: brought.formats + previous.formats)
        }
        let now = Set(list)
        results.delta = BMLTSearchDelta(
            added: merged.filter { held[$0.id] == nil }.map(\.id),
            changed: merged.filter { meeting in held[meeting.id].map { $0 != meeting } ?? false }.map(\.id),
            removed: previous.meetings.filter { !now.contains($0.id) }.map(\.id))
        results.serverDate = earliest(skeleton.serverDate, brought.serverDate)
        return .success(results)
    }

    /// The skeleton of the criteria, past every cache.
    private static func skeleton(_ criteria: BMLTSearchCriteria, extraKeys: [String],
                                 _ context: OperationContext) async -> Result<BMLTSearchResults, BMLTError> {
        do {
            return .success(try await ListSkeleton.read(criteria, extraKeys: extraKeys, fresh: true, context))
        } catch {
            return .failure(error)
        }
    }

    /// The meetings `ids` under the criteria, by id, past every cache: several requests when the ids do not fit one
    /// request line; a server's 414 is thrown (the refresh downloads whole).
    private static func meetings(_ ids: [Int], criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, units: BMLTDistanceUnit,
                                 _ context: OperationContext) async -> Result<BMLTSearchResults, BMLTError> {
        var template = criteria
        template.meetingIDs = []
        let ask = ByIDSearch.Ask(criteria: template, extent: extent, units: units, fresh: true, bare: false)
        do {
            let parts = try await ByIDSearch.fetch(ByIDSearch.runs(ids, template: template, ask: ask, context),
                                                   template: template, ask: ask, halving: false, context)
            var results = BMLTSearchResults()
            for part in parts {
                results.meetings += part.meetings
                results.formats += part.formats
                results.skippedFormats += part.skippedFormats
                results.serverDate = earliest(results.serverDate, part.serverDate)
            }
            return .success(results)
        } catch {
            return .failure(error)
        }
    }

    /// A read that failed, as the refresh's reason to download whole (cancellation thrown).
    private static func fallback(_ error: BMLTError, asking count: Int,
                                 what: String) throws(BMLTError) -> Result<BMLTSearchResults, RefreshFallback> {
        if case .cancelled = error { throw error }
        if RequestLine.isTooLong(error) { return .failure(.requestTooLong(meetings: count)) }
        return .failure(.readFailed(what + ": " + error.localizedDescription))
    }

    private static func earliest(_ lhs: Date?, _ rhs: Date?) -> Date? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return min(lhs, rhs)
    }
}
