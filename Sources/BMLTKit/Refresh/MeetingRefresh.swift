import Foundation

/// A list brought up to date from the server's change log (`meetings(matching:updating:)`): the change log since the
/// list's server time, then side by side the list's skeleton — the ids of the meetings the criteria find now, in the
/// server's order (`ListSkeleton`) — and the meetings the log names that the list holds now, asked for by id; the list
/// is the skeleton, each meeting the one just read or the one held. The server decides which meetings belong and where
/// on every generation: 2.x's answer by id ignores the other criteria (review R1) and a server's `default_sort_key`
/// changes the order (review R9), neither of which the skeleton depends on. Whatever the log cannot answer, and a
/// refresh that would cost more than a download (`RefreshCost`), is a whole download (`RefreshFallback`, said in the
/// log): never a wrong list.
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
            // What this refresh learnt of the change log goes with the list (the next launch's first refresh).
            whole.changeLogBytes = context.transport.refreshMemory.known.changeLogBytes
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
        guard let since = previous.serverDate, RefreshAge.isUsable(since) else { return .failure(.noServerDate) }
        guard previous.origin != nil else { return .failure(.noOrigin) }
        let info = try await context.requireServerInfo()
        if info.aggregatorModeEnabled { return .failure(.aggregator) }
        // 4.x reports 0 and keeps every change (`rootserver-4x/001-GetServerInfo.json` beside `200-GetChanges-after-edits.json`);
        // before 4.x, 0 is a server configured to keep none.
        if info.majorVersion < 4, info.changesPerMeeting == 0 { return .failure(.noChangeHistory) }
        let cost = RefreshCost(previous: previous, memory: context.transport.refreshMemory.known,
                               serverFormats: context.serverFormats.count)
        if let why = cost.wholeIsCheaper { return .failure(.costsMore(why)) }
        let fresh = context.uncached
        let changeLog: ChangeLogRead
        let order = ServerOrder(info)
        let placement = RefreshPlacement(criteria: criteria, legacy: order == .legacy)
        let read = { () async throws(BMLTError) -> Result<ChangeLogRead, RefreshFallback> in
            try await ChangeLogRead.read(since: since, after: previous.lastChangeID, limit: cost.changeLogBudget,
                                         placement: placement, held: Set(previous.meetings.map(\.id)), fresh)
        }
        let checks: [(String, Result<Set<Int>, BMLTError>)]
        if cost.readsChangeLogFirst {
            // Its size not known yet: the change log alone first, so that a log past its budget costs only what of it
            // arrived before the read stopped, not the formats and service bodies too (one more round trip, once).
            switch try await read() {
            case .success(let log): changeLog = log
            case .failure(let fallback): return .failure(fallback)
            }
            checks = await Self.sideChecks(previous, criteria, fresh)
        } else {
            // The change log, the formats and the service body names side by side: one round trip.
            async let side = Self.sideChecks(previous, criteria, fresh)
            switch try await read() {
            case .success(let log): changeLog = log
            case .failure(let fallback):
                // Not awaited: the formats and service bodies still arriving are cancelled as the scope ends (what
                // they would still cost is not spent on a list downloaded whole).
                return .failure(fallback)
            }
            checks = await side
        }
        var affected = Set<Int>()
        for (what, check) in checks {
            switch check {
            case .success(let ids): affected.formUnion(ids)
            case .failure(.cancelled): throw .cancelled
            case .failure(let error): return .failure(.changeLogFailed(what + ": " + error.localizedDescription))
            }
        }
        let age = changeLog.serverDate.timeIntervalSince(since)
        if age > RefreshLimits.maximumAge { return .failure(.tooOld(days: RefreshAge.days(age))) }
        if age < -RefreshLimits.clockMargin {
            return .failure(.changeLogUntrusted("the server's clock is \(RefreshAge.seconds(-age)) s behind the previous list's time"))
        }
        var ids = changeLog.candidates.union(affected)
        if !criteria.meetingIDs.isEmpty { ids.formIntersection(criteria.meetingIDs) }
        let limit = RefreshLimits.maximumMeetings(listCount: previous.meetings.count)
        guard ids.count <= limit else { return .failure(.tooManyChanges(meetings: ids.count, records: changeLog.records)) }
        let units = info.distanceUnits
        let merge: Result<BMLTSearchResults, RefreshFallback>
        if ids.isEmpty {
            var same = previous
            same.delta = BMLTSearchDelta()
            same.serverDate = nil   // the change log's time, below
            merge = .success(same)
        } else {
            merge = try await RefreshMerge.bring(ids, criteria: criteria, extent: extent, previous: previous, order: order,
                                                 units: units, fresh)
        }
        guard case .success(var results) = merge else { return merge }
        results.serverDate = min(changeLog.serverDate, results.serverDate ?? changeLog.serverDate)
        results.origin = previous.origin
        results.bodyBytes = RefreshCost.scaled(previous.bodyBytes, from: previous.meetings.count, to: results.meetings.count)
        results.changeLogBytes = changeLog.bytes
        results.lastChangeID = changeLog.lastChangeID
        let delta = results.delta ?? BMLTSearchDelta()
        context.transport.log.note("refresh of \(previous.meetings.count) meetings: \(changeLog.records) change records "
                                   + "(\(changeLog.bytes) bytes), \(ids.count) meetings asked for (\(affected.count) for changed "
                                   + "formats or service body names): \(delta.added.count) added, \(delta.changed.count) changed, "
                                   + "\(delta.removed.count) removed")
        return .success(results)
    }

    /// The formats and service body names the list shows, checked side by side: the meetings whose format or service
    /// body changed without a change record of their own.
    private static func sideChecks(_ previous: BMLTSearchResults, _ criteria: BMLTSearchCriteria,
                                   _ context: OperationContext) async -> [(String, Result<Set<Int>, BMLTError>)] {
        async let formats = FormatCheck.affected(previous, language: criteria.language, context)
        async let bodies = ServiceBodyCheck.affected(previous, context)
        return [("GetFormats", await formats), ("GetServiceBodies", await bodies)]
    }
}
