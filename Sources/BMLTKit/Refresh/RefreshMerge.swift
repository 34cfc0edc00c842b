import Foundation

/// A refresh's second round: the changed meetings read, each put where a new download would have it.
///
/// - The meetings the change log names are read by id (several requests when their ids do not fit one request line;
///   a server's 414 is a whole download).
/// - Each stays where it was when nothing an order reads changed, and those that left the list go
///   (`RefreshPlacement`); those that joined it or moved in it are placed by `RefreshRank` — proposed, then checked
///   by the server with a few ids.
/// - Where that cannot be done — no known order fits the list, the server orders them otherwise, criteria 2.x ignores
///   beside ids that a meeting cannot decide, fields narrowed — the list's skeleton (`ListSkeleton`) says which
///   meetings the list holds now and in what order, as the server decides both for the criteria (on 2.x too, whose
///   answer by id comes whatever the criteria, unpublished meetings included:
///   `server-truths/216-GetSearchResults-meeting_ids-weekdays.json`; whatever its `default_sort_key`, review R9; ties
///   as its database orders them). Each meeting of the skeleton is the one just read, or else the one the list held;
///   one that neither holds (it joined the list without a record, or changed between the reads) is read by id too.
/// - 2.x measures no distance for a search by id (its `meeting_ids[]` branch sets no centre): with a location (read
///   with the skeleton), the skeleton asks the distances beside the ids, and the meetings read get them.
enum RefreshMerge {
    static func bring(_ ids: Set<Int>, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults,
                      order: ServerOrder, units: BMLTDistanceUnit,
                      _ context: OperationContext) async throws(BMLTError) -> Result<BMLTSearchResults, RefreshFallback> {
        let placement = RefreshPlacement(criteria: criteria, legacy: order == .legacy)
        let distances = order == .legacy && criteria.location != nil ? ["distance_in_km", "distance_in_miles"] : []
        async let skeletonRead = placement.always ? skeleton(criteria, extraKeys: distances, context) : nil
        async let broughtRead = meetings(ids.sorted(), criteria: criteria, extent: extent, units: units, context)
        var skeleton: BMLTSearchResults?
        switch await skeletonRead {
        case .success(let read)?: skeleton = read
        case .failure(let error)?:
            // Not awaited: the changed meetings still arriving are cancelled as the scope ends (MeetingRefresh's rule).
            return try fallback(error, asking: criteria.meetingIDs.count, what: "the list's ids")
        case nil: break
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
        var merged: [BMLTMeeting]?
        if skeleton == nil {
            let (list, placing) = placement.split(previous.meetings, asked: ids, read: read, answered: brought.meetings.map(\.id))
            if placing.isEmpty {
                merged = list
            } else if let (placed, date) = try await rank(list, placing: placing, criteria: criteria, units: units,
                                                         legacy: order == .legacy, context) {
                merged = placed
                brought.serverDate = earliest(brought.serverDate, date)
            }
        }
        if merged == nil {
            if skeleton == nil {
                switch await Self.skeleton(criteria, extraKeys: distances, context) {
                case .success(let list): skeleton = list
                case .failure(let error): return try fallback(error, asking: criteria.meetingIDs.count, what: "the list's ids")
                }
            }
            guard let skeleton else { return .failure(.readFailed("the list's ids")) }
            switch try await place(skeleton, ids: ids, read: &read, brought: &brought, criteria: criteria, extent: extent,
                                   units: units, previous: previous, distances: !distances.isEmpty, context) {
            case .success(let list): merged = list
            case .failure(let fallback): return .failure(fallback)
            }
            brought.serverDate = earliest(brought.serverDate, skeleton.serverDate)
        }
        let list = merged ?? []
        var results = BMLTSearchResults(meetings: list, formats: [])
        if extent == .meetingsAndFormats {
            results.formats = order.usedFormats(of: list, from: brought.formats + previous.formats)
        }
        let held = Dictionary(previous.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Set(list.map(\.id))
        results.delta = BMLTSearchDelta(
            added: list.filter { held[$0.id] == nil }.map(\.id),
            changed: list.filter { meeting in held[meeting.id].map { $0 != meeting } ?? false }.map(\.id),
            removed: previous.meetings.filter { !now.contains($0.id) }.map(\.id))
        results.serverDate = brought.serverDate
        return .success(results)
    }

    /// `placing` put into `list` by `RefreshRank`, with the server's time of its answer; `nil` when the server's order
    /// of the meetings asked is not the proposal's, no known order fits the list, or they do not fit one request line.
    private static func rank(_ list: [BMLTMeeting], placing: [BMLTMeeting], criteria: BMLTSearchCriteria,
                             units: BMLTDistanceUnit, legacy: Bool,
                             _ context: OperationContext) async throws(BMLTError) -> ([BMLTMeeting], Date?)? {
        let log = context.transport.log
        guard let order = RefreshRank.order(of: list, legacy: legacy) else {
            log.note("refresh: the list is in no order known here: its ids read to place \(placing.count) meetings")
            return nil
        }
        let proposal = RefreshRank.propose(list, placing: placing, order: order)
        let placed = Set(placing.map(\.id))
        let asked = RefreshRank.checked(proposal, placing: placed, order: order)
        var template = criteria
        template.meetingIDs = []
        template.dataFieldKeys = ["id_bigint"]
        let ask = ByIDSearch.Ask(criteria: template, extent: .meetingsOnly, units: units, fresh: true, bare: true)
        guard ByIDSearch.runs(asked, template: template, ask: ask, context).count == 1 else { return nil }
        var query = template
        query.meetingIDs = asked
        let answer: BMLTSearchResults
        do {
            answer = try await SearchRequest.send(ask.query(query), criteria: query, fresh: true, context)
        } catch .cancelled {
            throw .cancelled
        } catch {
            return nil
        }
        guard let settled = RefreshRank.settle(proposal, asked: asked, ranked: answer.meetings.map(\.id), placing: placed,
                                               order: order, tiesAsAnswered: !legacy || order == .legacy) else {
            log.note("refresh: the server orders the \(placing.count) meetings placed otherwise: the list's ids read")
            return nil
        }
        log.note("refresh: \(placing.count) meetings placed, checked by the server's order of \(asked.count)")
        return (settled, answer.serverDate)
    }

    /// The skeleton's meetings: each the one read, or the one held; those neither holds read by id now.
    private static func place(_ skeleton: BMLTSearchResults, ids: Set<Int>, read: inout [Int: BMLTMeeting],
                              brought: inout BMLTSearchResults, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                              units: BMLTDistanceUnit, previous: BMLTSearchResults, distances: Bool,
                              _ context: OperationContext) async throws(BMLTError) -> Result<[BMLTMeeting], RefreshFallback> {
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
        if distances {
            let measured = Dictionary(skeleton.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for (id, meeting) in read {
                var placed = meeting
                placed.distanceInKilometers = measured[id]?.distanceInKilometers
                placed.distanceInMiles = measured[id]?.distanceInMiles
                read[id] = placed
            }
        }
        return .success(list.compactMap { read[$0] ?? held[$0] })
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
    private static func fallback<Value>(_ error: BMLTError, asking count: Int,
                                        what: String) throws(BMLTError) -> Result<Value, RefreshFallback> {
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
