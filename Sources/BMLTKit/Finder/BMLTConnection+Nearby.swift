import Foundation

extension BMLTConnection {
    /// Searches around a point, widening the circle until it holds at least `count` meetings or reaches
    /// `maximumRadius` (the fire-and-forget form). A new `searchNearby` cancels the previous `searchNearby` still
    /// running, since both fill the one `search` store (an app following a moving map or a typing user wants only the
    /// last); it never cancels anything else — the `async` form, a `BMLTMeetingQuery` or any other search go on. The
    /// meetings arrive nearest first, in one `.bmltMeetingSearchResults`, and fill `search`.
    ///
    /// Each step doubles the radius, from `startingRadius`; `criteria` narrows every step (weekday, formats, …; its
    /// `location` is replaced). Use this rather than `.nearest(n)` when the answer must stay within a distance, or
    /// on aggregators, whose widths are capped.
    /// ```swift
    /// connection.searchNearby(BMLTCoordinate(latitude: 44.9, longitude: -93.2), atLeast: 10,
    ///                         maximumRadius: Measurement(value: 50, unit: .kilometers))
    /// ```
    @discardableResult
    public func searchNearby(_ point: BMLTCoordinate, atLeast count: Int,
                             startingRadius: Measurement<UnitLength> = Measurement(value: 2, unit: .kilometers),
                             maximumRadius: Measurement<UnitLength>, criteria: BMLTSearchCriteria = BMLTSearchCriteria()) -> BMLTRequest {
        startNearby(Self.nearby(point, count: count, start: startingRadius, maximum: maximumRadius, criteria: criteria))
    }

    /// The `async` form of `searchNearby(_:atLeast:startingRadius:maximumRadius:criteria:)`: the meetings, nearest
    /// first (fewer than `count` when the maximum radius holds fewer). Any number run at once on one connection: none
    /// cancels another (cancel the calling task to stop one). For one view's nearby search, kept apart from the
    /// others, see `BMLTMeetingQuery.nearby`.
    /// ```swift
    /// let nearest = try await connection.meetings(near: here, atLeast: 5, maximumRadius: Measurement(value: 30, unit: .miles))
    /// print(nearest.first?.distance(from: here)?.converted(to: .miles) ?? "none")
    /// ```
    public func meetings(near point: BMLTCoordinate, atLeast count: Int,
                         startingRadius: Measurement<UnitLength> = Measurement(value: 2, unit: .kilometers),
                         maximumRadius: Measurement<UnitLength>,
                         criteria: BMLTSearchCriteria = BMLTSearchCriteria()) async throws -> [BMLTMeeting] {
        let operation = Self.nearby(point, count: count, start: startingRadius, maximum: maximumRadius, criteria: criteria)
        return try await run(operation).results.meetings
    }

    private func startNearby(_ operation: Operation<NearbyResults>) -> BMLTRequest {
        nearbySearch?.cancel()
        let request = start(operation)
        nearbySearch = request
        return request
    }

    /// What a nearby search found, and the criteria of its last step (the radius it stopped at).
    struct NearbyResults: Sendable {
        let results: BMLTSearchResults
        let criteria: BMLTSearchCriteria
    }

    /// One operation: `GetSearchResults` with a growing radius, then the meetings sorted by distance. `feedsStore:
    /// false` (a `BMLTMeetingQuery`'s) leaves the stores alone and only announces the results.
    static func nearby(_ point: BMLTCoordinate, count: Int, start: Measurement<UnitLength>, maximum: Measurement<UnitLength>,
                       criteria: BMLTSearchCriteria, feedsStore: Bool = true,
                       delivered: SearchDelivered? = nil) -> Operation<NearbyResults> {
        let maximumKilometers = max(0.01, maximum.converted(to: .kilometers).value)
        let firstKilometers = min(max(0.01, start.converted(to: .kilometers).value), maximumKilometers)
        let work: @Sendable (OperationContext) async throws(BMLTError) -> NearbyResults = { context throws(BMLTError) in
            var radius = firstKilometers
            var narrowed = criteria
            while true {
                narrowed.location = .init(latitude: point.latitude, longitude: point.longitude, radius: .kilometers(radius))
                let results = try await search(narrowed, extent: .meetingsOnly, context)
                if results.meetings.count >= count || radius >= maximumKilometers {
                    var sorted = results
                    sorted.meetings = results.meetings.sortedByDistance(from: point)
                    return NearbyResults(results: sorted, criteria: narrowed)
                }
                if Task.isCancelled { throw .cancelled }
                radius = min(radius * 2, maximumKilometers)
            }
        }
        guard feedsStore else {
            return Operation(kind: .meetingSearch, work: work, succeed: { _, found, request in
                delivered?(request, found.results.meetings)
                return searchEvents(found.results, extent: .meetingsOnly, request: request)
            })
        }
        return Operation.read(.meetingSearch, errorIn: .search, work: work, succeed: { connection, found, request in
            store(found.results, of: found.criteria, extent: .meetingsOnly, in: connection, request: request)
        })
    }
}

extension BMLTMeeting {
    /// The great-circle distance from `point` to the meeting (haversine, mean Earth radius 6,371 km), or `nil` when
    /// the meeting has no coordinates (0,0, the servers' "not geocoded", counts as none). Convert it to the app's
    /// unit: `.converted(to: .miles)`.
    /// ```swift
    /// let miles = meeting.distance(from: here)?.converted(to: .miles).value
    /// ```
    public func distance(from point: BMLTCoordinate) -> Measurement<UnitLength>? {
        guard let coordinate = placedCoordinate else { return nil }
        let radians = Double.pi / 180
        let dLat = (coordinate.latitude - point.latitude) * radians, dLon = (coordinate.longitude - point.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(point.latitude * radians) * cos(coordinate.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return Measurement(value: 6_371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot()), unit: .kilometers)
    }
}

extension Sequence where Element == BMLTMeeting {
    /// The meetings nearest `point` first (stable for equal distances); meetings without coordinates (or at 0,0)
    /// last.
    /// ```swift
    /// let nearest = results.meetings.sortedByDistance(from: here).prefix(10)
    /// ```
    public func sortedByDistance(from point: BMLTCoordinate) -> [BMLTMeeting] {
        enumerated().map { (offset: $0.offset, meeting: $0.element, distance: $0.element.distance(from: point)?.value) }
            .sorted { lhs, rhs in
                switch (lhs.distance, rhs.distance) {
                case let (left?, right?): return left != right ? left < right : lhs.offset < rhs.offset
                case (.some, .none): return true
                case (.none, .some): return false
                case (.none, .none): return lhs.offset < rhs.offset
                }
            }.map(\.meeting)
    }
}
