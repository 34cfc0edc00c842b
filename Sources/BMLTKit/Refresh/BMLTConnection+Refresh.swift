import Foundation

extension BMLTConnection {
    /// Brings `previous` up to date: the same list `meetings(matching:extent:)` would return now, for the few kilobytes
    /// of what changed since. It reads the server's change log from the previous results' server time, reads the
    /// meetings created, changed or deleted since by id, and puts each where the server lists it: in its place when
    /// nothing any server order reads changed, where the server's own order of it and its neighbours says when it
    /// joined the list or moved, or by the list's ids in the server's order (`data_field_key=id_bigint`). Which
    /// meetings belong, and their order, are the server's on every generation — 2.x's answer by id, which ignores the
    /// other criteria, is completed as a search by id is (see *Searching*), and a server's `default_sort_key` decides
    /// the order. `delta` says what was added, changed and removed. The same notifications and store updates as a
    /// search (one `.bmltMeetingSearchResults` with the whole list).
    ///
    /// A refresh never costs more than a whole download: when the change log (its size as last read) with what else a
    /// refresh reads costs more than the list (its download's bytes, kept in the results), the list is downloaded whole
    /// without reading it; when nothing is known yet, the change log is read with that budget and its read stopped past
    /// it. What the change log cannot answer is downloaded whole too (`delta` is `nil`, and the log says why): an
    /// aggregator, a change log that fails or cannot be trusted, a search only the server can order (`.nearest(n)`,
    /// pages, time windows, sorts, address searches, child service bodies), previous results without a usable server
    /// time (from the cache, decoded from an old encoding, or absurd) or older than 30 days, more changes than a fifth
    /// of the list, or a request the server finds too long (414). Results of another server or of other criteria are
    /// refused: `BMLTError.invalidArgument(.previousResults(_))`.
    /// ```swift
    /// var list = try await connection.meetings(matching: criteria)
    /// // … later, at a pull-to-refresh:
    /// list = try await connection.meetings(matching: criteria, updating: list)
    /// if let delta = list.delta { print(delta.added.count, "added,", delta.removed.count, "removed") }
    /// ```
    public func meetings(matching criteria: BMLTSearchCriteria, extent: BMLTSearchExtent = .meetingsAndFormats,
                         updating previous: BMLTSearchResults) async throws -> BMLTSearchResults {
        try await run(Self.meetingRefresh(criteria, extent: extent, previous: previous))
    }

    /// Brings `previous` up to date (the fire-and-forget form of `meetings(matching:extent:updating:)`, with the same
    /// notifications and store updates): posts one `.bmltMeetingSearchResults` with the whole list, or one `.bmltError`;
    /// fills `search`.
    /// ```swift
    /// let previous = try await connection.meetings(matching: criteria)
    /// connection.searchMeetings(criteria, updating: previous)   // at a pull-to-refresh
    /// ```
    @discardableResult
    public func searchMeetings(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent = .meetingsAndFormats,
                               updating previous: BMLTSearchResults) -> BMLTRequest {
        start(Self.meetingRefresh(criteria, extent: extent, previous: previous))
    }

    /// A refresh as an operation: its results fill `search` and are announced as a search's (`feedsStore: false`, a
    /// `BMLTMeetingQuery`'s: only announced).
    static func meetingRefresh(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, previous: BMLTSearchResults,
                               feedsStore: Bool = true) -> Operation<BMLTSearchResults> {
        Operation(
            kind: .meetingSearch,
            work: { context throws(BMLTError) in
                try await MeetingRefresh.run(criteria, extent: extent, previous: previous, context)
            },
            succeed: { connection, results, request in
                guard feedsStore else { return searchEvents(results, extent: extent, request: request) }
                ErrorStore.search.set(nil, on: connection)
                return store(results, of: criteria, extent: extent, in: connection, request: request)
            },
            fail: { connection, error, _ in
                if feedsStore { ErrorStore.search.set(error, on: connection) }
                return []
            }
        )
    }
}
