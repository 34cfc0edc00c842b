import Foundation

/// A list brought up to date from the server's change log (`meetings(matching:updating:)`): the change log since the
/// list's server time, the meetings it names asked for again under the same criteria (the server decides which still
/// match), merged where a new download would have them. Whatever the log cannot answer is a whole download
/// (`RefreshFallback`, said in the log): never a wrong list.
enum MeetingRefresh {
    /// `batcher`: a search's batches (`.cacheThenNetwork`'s network half), handed the whole list at the end.
    static func run(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults,
                    _ context: OperationContext, batcher: SearchBatcher? = nil) async throws(BMLTError) -> BMLTSearchResults {
        // A refresh has nothing to deliver from the cache alone (`.cacheThenNetwork`'s first delivery): the list it
        // updates is already held, and its reads must come from the server.
        if context.isCacheOnly { throw BMLTError.notFound(message: "not in the response cache") }
        try refuseOtherOrigin(previous, criteria: criteria, extent: extent, root: context.root)
        let log = context.transport.log
        switch try await attempt(criteria, extent: extent, previous: previous, context) {
        case .success(let fresh):
            batcher?.finish(fresh.meetings)
            return fresh
        case .failure(let fallback):
            log.note("refresh of \(previous.meetings.count) meetings: downloading the whole list: \(fallback)")
            var whole = try await BMLTConnection.search(criteria, extent: extent, context, batcher: batcher)
            whole.delta = nil
            return whole
        }
    }

    /// Results of another server or search are refused before anything is sent; results that do not say (an old
    /// encoding) are downloaded whole.
    static func refuseOtherOrigin(_ previous: BMLTSearchResults, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                                  root: URL) throws(BMLTError) {
        guard let origin = previous.origin else { return }
        let expected = RefreshOrigin.of(criteria, extent: extent, root: root)
        guard origin != expected else { return }
        if RefreshOrigin.root(of: origin) != RefreshOrigin.root(of: expected) {
            throw .invalidArgument(.previousResults(.otherServer))
        }
        throw .invalidArgument(.previousResults(.otherSearch))
    }

    /// What only the server can order or choose: these are downloaded whole.
    static func serverRanked(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults) -> String? {
        if criteria.window != nil { return "a time window" }
        if criteria.page != nil { return "a page" }
        if case .nearest? = criteria.location?.radius { return "the nearest meetings" }
        if criteria.sortByDistance || !criteria.sortKeys.isEmpty || criteria.sortDescending || criteria.sortAlias != nil {
            return "a sort"
        }
        if criteria.text?.isEmpty == false, case .address = criteria.textMatch { return "an address search" }
        if extent == .formatsOnly { return "formats only" }
        if criteria.includeChildServiceBodies, !(criteria.serviceBodyIDs.isEmpty && criteria.excludedServiceBodyIDs.isEmpty) {
            return "child service bodies (a service body moved leaves no change record)"
        }
        if previous.skippedFormats > 0 { return "a format list with unreadable entries" }
        return nil
    }

    private static func attempt(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults,
                                _ context: OperationContext) async throws(BMLTError) -> Result<BMLTSearchResults, RefreshFallback> {
        if let what = serverRanked(criteria, extent: extent, previous: previous) { return .failure(.serverRanked(what)) }
        guard let since = previous.serverDate else { return .failure(.noServerDate) }
        guard previous.origin != nil else { return .failure(.noOrigin) }
        let info = try await context.requireServerInfo()
        if info.aggregatorModeEnabled { return .failure(.aggregator) }
        // 4.x reports 0 and keeps every change (`rootserver-4x/001-GetServerInfo.json` beside `200-GetChanges-after-edits.json`);
        // before 4.x, 0 is a server configured to keep none.
        if info.majorVersion < 4, info.changesPerMeeting == 0 { return .failure(.noChangeHistory) }
        let order = ServerOrder(info)
        guard order.isOrdered(previous.meetings) else {
            return .failure(.orderNotReproducible("the previous list is not in the order this server gives"))
        }
        let fresh = context.uncached
        // The change log, the formats and the service body names side by side: one round trip.
        async let formatCheck = FormatCheck.affected(previous, language: criteria.language, fresh)
        async let bodyCheck = ServiceBodyCheck.affected(previous, fresh)
        let changeLog: ChangeLogRead
        switch try await ChangeLogRead.read(since: since, fresh) {
        case .success(let read): changeLog = read
        case .failure(let fallback):
            _ = await (formatCheck, bodyCheck)
            return .failure(fallback)
        }
        var affected = Set<Int>()
        for (what, check) in [("GetFormats", await formatCheck), ("GetServiceBodies", await bodyCheck)] {
            switch check {
            case .success(let ids): affected.formUnion(ids)
            case .failure(.cancelled): throw .cancelled
            case .failure(let error): return .failure(.changeLogFailed(what + ": " + error.localizedDescription))
            }
        }
        let age = changeLog.serverDate.timeIntervalSince(since)
        if age > RefreshLimits.maximumAge { return .failure(.tooOld(days: Int(age / 86_400))) }
        if age < -RefreshLimits.clockMargin {
            return .failure(.changeLogUntrusted("the server's clock is \(Int(-age)) s behind the previous list's time"))
        }
        var ids = changeLog.meetingIDs.union(affected)
        if !criteria.meetingIDs.isEmpty { ids.formIntersection(criteria.meetingIDs) }
        let limit = RefreshLimits.maximumMeetings(listCount: previous.meetings.count)
        guard ids.count <= limit else { return .failure(.tooManyChanges(meetings: ids.count, records: changeLog.records)) }
        let merge = try await bring(ids, criteria: criteria, extent: extent, previous: previous, order: order,
                                    units: info.distanceUnits, fresh)
        guard case .success(var results) = merge else { return merge }
        results.serverDate = changeLog.serverDate
        results.origin = previous.origin
        let delta = results.delta ?? BMLTSearchDelta()
        context.transport.log.note("refresh of \(previous.meetings.count) meetings: \(changeLog.records) change records, "
                                   + "\(ids.count) meetings asked for (\(affected.count) for changed formats or service body names): "
                                   + "\(delta.added.count) added, \(delta.changed.count) changed, \(delta.removed.count) removed")
        return .success(results)
    }

    /// The meetings `ids` asked for under `criteria`, merged into `previous` in the server's order.
    private static func bring(_ ids: Set<Int>, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                              previous: BMLTSearchResults, order: ServerOrder, units: BMLTDistanceUnit,
                              _ context: OperationContext) async throws(BMLTError) -> Result<BMLTSearchResults, RefreshFallback> {
        var brought = BMLTSearchResults()
        if !ids.isEmpty {
            var asked = criteria
            asked.meetingIDs = ids.sorted()
            brought = try await search(asked, extent: extent, units: units, context)
            guard brought.meetings.allSatisfy({ ids.contains($0.id) }), brought.skippedFormats == 0 else {
                return .failure(.changeLogUntrusted("the server answered meetings it was not asked for"))
            }
        }
        let kept = previous.meetings.filter { !ids.contains($0.id) }
        var rank: [Int: Int] = [:]
        if case .sql = order {
            let ties = tieGroups(kept: kept, brought: brought.meetings, order: order)
            if !ties.isEmpty {
                var asked = criteria
                asked.meetingIDs = ties.sorted()
                asked.dataFieldKeys = ["weekday_tinyint", "start_time", "duration_time"]
                let ranked = try await search(asked, extent: .meetingsOnly, units: units, context).meetings.map(\.id)
                guard Set(ranked) == ties else { return .failure(.orderNotReproducible("a tie changed while it was ordered")) }
                for (index, id) in ranked.enumerated() { rank[id] = index }
                let keptRanks = kept.compactMap { rank[$0.id] }
                guard keptRanks == keptRanks.sorted() else {
                    return .failure(.orderNotReproducible("the server ordered tied meetings unlike before"))
                }
            }
        }
        guard let merged = order.merge(kept: kept, brought: brought.meetings, rank: rank) else {
            return .failure(.orderNotReproducible("a meeting without a weekday or start time, or an unranked tie"))
        }
        var results = BMLTSearchResults(meetings: merged, formats: [])
        if extent == .meetingsAndFormats {
            results.formats = order.usedFormats(of: merged, from: brought.formats + previous.formats)
        }
        let before = Dictionary(previous.meetings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let broughtIDs = Set(brought.meetings.map(\.id))
        results.delta = BMLTSearchDelta(
            added: brought.meetings.filter { before[$0.id] == nil }.map(\.id),
            changed: brought.meetings.filter { meeting in before[meeting.id].map { $0 != meeting } ?? false }.map(\.id),
            removed: previous.meetings.filter { ids.contains($0.id) && !broughtIDs.contains($0.id) }.map(\.id))
        return .success(results)
    }

    /// The ids of every tie between a meeting brought and meetings kept (the same weekday, start and duration): the
    /// server alone knows their order (3.x/4.x).
    private static func tieGroups(kept: [BMLTMeeting], brought: [BMLTMeeting], order: ServerOrder) -> Set<Int> {
        var keptByKey: [ServerOrder.Key: [Int]] = [:]
        for meeting in kept { if let key = order.key(meeting) { keptByKey[key, default: []].append(meeting.id) } }
        var ties = Set<Int>()
        for meeting in brought {
            guard let key = order.key(meeting), let group = keptByKey[key] else { continue }
            ties.insert(meeting.id)
            ties.formUnion(group)
        }
        return ties
    }

    /// One `GetSearchResults` past every cache, decoded whole.
    private static func search(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, units: BMLTDistanceUnit,
                               _ context: OperationContext) async throws(BMLTError) -> BMLTSearchResults {
        let query = WireSearchQuery.items(criteria, extent: extent, distanceUnits: units)
        let reply = try await context.freshSemanticReply("GetSearchResults", query, unique: false)
        let outcome = try WireSearchChunks.wholeBody(reply.data, query: query, serverFormats: context.serverFormats)
        if let message = outcome.phpMessage { context.transport.log.phpMessages(at: reply.url, message) }
        return outcome.results
    }
}
