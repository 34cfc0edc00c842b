import Foundation

extension BMLTConnection {
    /// Searches for meetings (the fire-and-forget form). Posts `.bmltMeetingSearchResults` (unless `extent` is
    /// `.formatsOnly`), then `.bmltFormatSearchResults` (unless `.meetingsOnly`), or one `.bmltError`; fills
    /// `search`. On an aggregator, a search it would answer with nothing for lack of a narrowing filter fails at
    /// once with `.invalidArgument` naming what to add (see `BMLTSearchCriteria.satisfiesAggregatorFilterRule`).
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.weekdays = [.monday]
    /// connection.searchMeetings(criteria, extent: .meetingsOnly)
    /// ```
    @discardableResult
    public func searchMeetings(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent = .meetingsAndFormats) -> BMLTRequest {
        start(Self.meetingSearch(criteria, extent: extent))
    }

    /// Searches for meetings and returns them with the formats they use (the `async` form of
    /// `searchMeetings(_:extent:)`, with the same notifications and store updates).
    public func meetings(matching criteria: BMLTSearchCriteria,
                         extent: BMLTSearchExtent = .meetingsAndFormats) async throws -> BMLTSearchResults {
        try await run(Self.meetingSearch(criteria, extent: extent))
    }

    /// Asks for every format used by at least one meeting (`GetFormats` without `show_all`): posts
    /// `.bmltFormatSearchResults` with `bmltIsAllUsedFormats == true`; fills `server.usedFormats`.
    @discardableResult
    public func fetchAllUsedFormats(language: String? = nil) -> BMLTRequest {
        start(Self.allUsedFormats(language: language))
    }

    /// The `async` form of `fetchAllUsedFormats(language:)`.
    public func allUsedFormats(language: String? = nil) async throws -> [BMLTFormat] {
        try await run(Self.allUsedFormats(language: language))
    }

    /// A meeting search as an operation. Its meetings reach the search store's `meetingsSoFar` in batches while the
    /// reply arrives (see `SearchBatcher`), and `batches`, when given (`meetingBatches(matching:)`), as well.
    /// `feedsStore: false` (a `BMLTMeetingQuery`'s search) leaves every store alone — `search` and its `lastError`
    /// — and only announces: the same events, with their request. `delivered` gets each success's meetings with its
    /// request — the request's own, and `.cacheThenNetwork`'s cached delivery, a request of its own, before it.
    static func meetingSearch(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                              batches channel: MeetingBatchChannel? = nil,
                              feedsStore: Bool = true, delivered: SearchDelivered? = nil) -> Operation<BMLTSearchResults> {
        let arrival = SearchArrival(feedsStore: feedsStore)
        // `.cacheThenNetwork`: the cached delivery's list, which the network half brings up to date.
        let cachedList = Locked<BMLTSearchResults?>(nil)
        var operation = Operation<BMLTSearchResults>(
            kind: .meetingSearch,
            work: { context throws(BMLTError) in
                // A `.cacheThenNetwork` cached delivery (cache only) is a whole list of its own: no batches.
                if context.isCacheOnly {
                    let cached = try await search(criteria, extent: extent, context)
                    cachedList.withLock { $0 = cached }
                    return cached
                }
                var batcher: SearchBatcher?
                if extent != .formatsOnly {
                    batcher = SearchBatcher(serverFormats: context.serverFormats) { batch in
                        arrival.post(batch)
                        channel?.post(batch)
                    }
                }
                let previous = cachedList.withLock { list -> BMLTSearchResults? in
                    defer { list = nil }
                    return list
                }
                if let previous {
                    return try await updateCached(previous, criteria: criteria, extent: extent, context, batcher: batcher)
                }
                let results = try await search(criteria, extent: extent, context, batcher: batcher)
                if let batcher, batcher.hasDiverged {
                    context.transport.log.warning("a retried search reply listed other meetings than the cut one before it "
                                                  + "(\(batcher.handedCount) already handed over); the batches stopped there")
                    channel?.diverged(.malformedResponse(
                        what: .meetingSearch,
                        detail: .listChangedOnRetry(delivered: batcher.handedCount)))
                }
                return results
            },
            succeed: { connection, results, request in
                if feedsStore { ErrorStore.search.set(nil, on: connection) }
                arrival.end(request, deliver: true)
                delivered?(request, results.meetings)
                guard feedsStore else { return searchEvents(results, extent: extent, request: request) }
                return store(results, of: criteria, extent: extent, in: connection, request: request)
            },
            fail: { connection, error, request in
                if feedsStore { ErrorStore.search.set(error, on: connection) }
                arrival.end(request, deliver: false)
                if feedsStore { connection.search.endArrival(of: request) }
                return []
            },
            cancelled: { connection, request in
                arrival.end(request, deliver: false)
                if feedsStore { connection.search.endArrival(of: request) }
                return []
            }
        )
        operation.began = { connection, request in
            arrival.begin(connection, request)
            if feedsStore, extent != .formatsOnly { connection.search.beginArrival(of: request) }
        }
        return operation
    }

    /// `.cacheThenNetwork`'s network half: the cached list brought up to date from the change log where
    /// `meetings(matching:updating:)` would (a whole download elsewhere, said in the log), and kept in the cache under
    /// the search's entry with its new server time, so that the next cached delivery starts from it.
    static func updateCached(_ cached: BMLTSearchResults, criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                             _ context: OperationContext, batcher: SearchBatcher?) async throws(BMLTError) -> BMLTSearchResults {
        let results = try await MeetingRefresh.run(criteria, extent: extent, previous: cached, context, batcher: batcher)
        if results.delta != nil {
            var units = context.serverInfo?.distanceUnits ?? .miles
            if context.serverInfo == nil, criteria.needsServerUnits { units = try await context.requireServerInfo().distanceUnits }
            let query = WireSearchQuery.items(criteria, extent: extent, distanceUnits: units)
            context.storeSearchResults(results, switcher: "GetSearchResults", query: query)
        }
        return results
    }

    /// A search's requests: one `GetSearchResults`, or, for criteria with a `window`, the rounds of `WindowedSearch`.
    static func search(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, _ context: OperationContext,
                       batcher: SearchBatcher? = nil) async throws(BMLTError) -> BMLTSearchResults {
        guard let window = criteria.window else {
            // Stamped with the server and search it answers: what `meetings(matching:updating:)` checks (Refresh/).
            var results = try await searchOnce(criteria, extent: extent, context, batcher: batcher)
            results.origin = RefreshOrigin.of(criteria, extent: extent, root: context.root)
            return results
        }
        let timeZones: @Sendable () async throws(BMLTError) -> [BMLTFieldValue] = { () throws(BMLTError) in
            let query = [URLQueryItem(name: "meeting_key", value: "time_zone")]
            return try WireFieldValues.decodeValues(try await context.semantic("GetFieldValues", query, what: .fieldValues(key: "time_zone")),
                                                    key: "time_zone")
        }
        let results = try await WindowedSearch.run(criteria, window: window, log: context.transport.log, serverInfo: context.serverInfo,
                                                   timeZones: timeZones) { asked throws(BMLTError) in
            try await searchOnce(asked, extent: extent, context)
        }
        batcher?.finish(results.meetings)
        return results
    }

    /// One search's `GetSearchResults`, decoded (the aggregator filter rule checked first). A search by id that one
    /// request cannot answer as 3.x and 4.x would — 2.x ignoring every other criterion beside the ids, or more ids than
    /// a request line holds (a 414 from the server too) — goes through `ByIDSearch`. `fresh`: past every cache (a
    /// refresh's reads); `bare`: `data_field_key` without the keys BMLTKit adds (`ListSkeleton`).
    static func searchOnce(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, _ context: OperationContext,
                           batcher: SearchBatcher? = nil, fresh: Bool = false, bare: Bool = false) async throws(BMLTError) -> BMLTSearchResults {
        var units = context.serverInfo?.distanceUnits ?? .miles
        if context.serverInfo == nil, criteria.needsServerUnits {
            units = try await context.requireServerInfo().distanceUnits
        }
        let query = WireSearchQuery.items(criteria, extent: extent, distanceUnits: units, bareKeys: bare)
        try await AggregatorFilterRule.checkIfAggregator(criteria, query: query, units: units, context: context)
        let ask = ByIDSearch.Ask(criteria: criteria, extent: extent, units: units, fresh: fresh, bare: bare)
        if !criteria.meetingIDs.isEmpty, let results = try await ByIDSearch.answer(ask, query: query, context) {
            batcher?.finish(results.meetings)
            return results
        }
        do {
            return try await SearchRequest.send(query, criteria: criteria, fresh: fresh, context, batcher: batcher)
        } catch let error where RequestLine.isTooLong(error) && criteria.meetingIDs.count > 1 {
            // A server with a shorter limit than `RequestLine.limit`: the ids go in smaller requests.
            context.transport.log.note("the server found a search of \(criteria.meetingIDs.count) meeting ids too long "
                                       + "(\(error.localizedDescription)): asked in parts")
            let generation = try await ByIDSearch.generation(context)
            let results = try await ByIDSearch.split(ask, generation: generation, runs: 2, context)
            batcher?.finish(results.meetings)
            return results
        }
    }

    /// A search's results into the `search` store, and the events that announce them.
    static func store(_ results: BMLTSearchResults, of criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                      in connection: BMLTConnection, request: BMLTRequest) -> [BMLTEvent] {
        let store = connection.search
        if extent != .formatsOnly {
            // The previous results are freed off the main actor: tens of thousands of meetings take milliseconds to
            // release, which the main thread (an app's UI) would otherwise spend right when the new ones arrive.
            let previous = BackgroundRelease.take(store.meetings)
            store.meetings = results.meetings
            previous.release()
            store.endArrival(of: request)
        }
        if extent != .meetingsOnly { store.formats = results.formats }
        store.criteria = criteria
        store.extent = extent
        return searchEvents(results, extent: extent, request: request)
    }

    /// The events that announce a search's results.
    static func searchEvents(_ results: BMLTSearchResults, extent: BMLTSearchExtent, request: BMLTRequest) -> [BMLTEvent] {
        var events: [BMLTEvent] = []
        request.searchDelta = results.delta
        if extent != .formatsOnly { events.append(.meetingSearchResults(results.meetings, request: request)) }
        if extent != .meetingsOnly {
            events.append(.formatSearchResults(results.formats, isAllUsedFormats: false, request: request))
        }
        return events
    }

    static func allUsedFormats(language: String?) -> Operation<[BMLTFormat]> {
        Operation.read(
            .formats, errorIn: .server,
            work: { context throws(BMLTError) in
                var query: [URLQueryItem] = []
                if let language, !language.isEmpty { query.append(URLQueryItem(name: "lang_enum", value: language)) }
                return try WireFormat.decodeList(try await context.semantic("GetFormats", query, what: .usedFormats))
            },
            succeed: { connection, formats, request in
                connection.server.usedFormats = formats
                return [.formatSearchResults(formats, isAllUsedFormats: true, request: request)]
            }
        )
    }
}

/// Told of a search's success as it is applied, with its request (see `BMLTConnection.meetingSearch`).
typealias SearchDelivered = @MainActor @Sendable (BMLTRequest, [BMLTMeeting]) -> Void

extension BMLTSearchCriteria {
    /// The query of `GetSearchResults` these criteria make, for a server measuring in `distanceUnits` (which
    /// only `.serverUnits` radii and address searches depend on). Useful to log or compare searches.
    public func queryItems(extent: BMLTSearchExtent = .meetingsOnly,
                           distanceUnits: BMLTDistanceUnit = .miles) -> [URLQueryItem] {
        WireSearchQuery.items(self, extent: extent, distanceUnits: distanceUnits)
    }

    /// Whether the query depends on the server's distance unit.
    var needsServerUnits: Bool {
        if case .serverUnits = location?.radius { return true }
        if case .address(let radius?) = textMatch, text?.isEmpty == false {
            if case .nearest = radius { return false }
            return true
        }
        return false
    }
}
