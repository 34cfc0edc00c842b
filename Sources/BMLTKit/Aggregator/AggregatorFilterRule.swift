import Foundation

/// The aggregator's filter rule, applied locally: an aggregator answers `GetSearchResults` with `[]` (and
/// status 200) unless the query has at least one of a positive meeting id, service body, format or root server
/// id, `meeting_key` with `meeting_key_value`, a latitude and longitude, or `page_size`. Weekdays, times, text,
/// venue types and exclusions alone do not count. (bmlt-server 4.x, `SwitcherController::getSearchResults`.)
enum AggregatorFilterRule {
    /// The largest radius the public aggregator serves (its `aggregator_max_geo_width_km`); wider circles are
    /// cut to it without a word in the reply. Another aggregator may set another value; the server does not say.
    static let publicWidthCapKilometers = 320.0

    /// Whether the aggregator would search at all with this query (the server's own test, on the parameters).
    static func hasRequiredFilter(_ items: [URLQueryItem]) -> Bool {
        var values: [String: [String]] = [:]
        for item in items {
            let name = item.name.hasSuffix("[]") ? String(item.name.dropLast(2)) : item.name
            values[name, default: []].append(item.value ?? "")
        }
        func positive(_ name: String, splitsCommas: Bool) -> Bool {
            let list = values[name] ?? []
            let pieces = splitsCommas && list.count == 1 ? list[0].split(separator: ",").map(String.init) : list
            return pieces.contains { phpInteger($0) > 0 }
        }
        func numeric(_ name: String) -> Bool {
            guard let value = values[name]?.last else { return false }
            return Double(value.trimmingCharacters(in: .whitespaces)) != nil
        }
        if positive("meeting_ids", splitsCommas: true) || positive("services", splitsCommas: true)
            || positive("formats", splitsCommas: true) || positive("root_server_ids", splitsCommas: false) {
            return true
        }
        if values["meeting_key"] != nil, values["meeting_key_value"] != nil { return true }
        if numeric("lat_val"), numeric("long_val") { return true }
        if values["StringSearchIsAnAddress"]?.last == "1", let text = values["SearchString"]?.last?.trimmingCharacters(in: .whitespaces),
           text.count > 2 || Double(text) != nil {
            return true     // the server geocodes the text into a latitude and longitude
        }
        return numeric("page_size")
    }

    /// A value as PHP's `intval` reads it: the leading integer (`"1,3"` → 1), 0 when there is none.
    static func phpInteger(_ text: String) -> Int {
        var digits = ""
        for (offset, character) in text.trimmingCharacters(in: .whitespaces).enumerated() {
            if character.isASCII, character.isNumber { digits.append(character) }
            else if offset == 0, character == "-" || character == "+" { digits.append(character) }
            else { break }
        }
        return Int(digits) ?? 0
    }

    /// The radius of these criteria in kilometres, when it is a distance (not "nearest N", which is not capped).
    static func radiusKilometers(_ criteria: BMLTSearchCriteria, units: BMLTDistanceUnit) -> Double? {
        let kilometersPerMile = 1.609344
        func kilometers(_ radius: BMLTSearchCriteria.Radius) -> Double? {
            switch radius {
            case .miles(let miles): return abs(miles) * kilometersPerMile
            case .kilometers(let value): return abs(value)
            case .serverUnits(let value): return abs(value) * (units == .kilometers ? 1 : kilometersPerMile)
            case .nearest: return nil
            }
        }
        if let location = criteria.location { return kilometers(location.radius) }
        if case .address(let radius?) = criteria.textMatch, criteria.text?.isEmpty == false { return kilometers(radius) }
        return nil
    }

    /// Applies `check` when the server is an aggregator. Before validation, a search without a narrowing filter
    /// asks GetServerInfo first (an aggregator would answer it with nothing); if that fails, the search goes on.
    static func checkIfAggregator(_ criteria: BMLTSearchCriteria, query: [URLQueryItem], units: BMLTDistanceUnit,
                                  context: OperationContext) async throws(BMLTError) {
        var info = context.serverInfo
        if info == nil, !hasRequiredFilter(query) {
            do {
                info = try await context.requireServerInfo()
            } catch .cancelled {
                throw .cancelled
            } catch {
                info = nil
            }
        }
        guard info?.aggregatorModeEnabled == true else { return }
        try check(criteria, query: query, units: units, context: context)
    }

    /// Checks a search before it is sent to an aggregator: refuses one the server would answer with nothing,
    /// and logs a radius wider than the public aggregator's cap.
    static func check(_ criteria: BMLTSearchCriteria, query: [URLQueryItem], units: BMLTDistanceUnit,
                      context: OperationContext) throws(BMLTError) {
        guard hasRequiredFilter(query) else { throw .invalidArgument(.aggregatorSearchWithoutFilter) }
        if let radius = radiusKilometers(criteria, units: units), radius > publicWidthCapKilometers {
            context.transport.log.notice(String(format: "aggregator search: a radius of %.1f km is wider than the %.0f km an aggregator "
                                                + "usually serves; the server cuts it without saying so, so distant meetings may be missing",
                                                radius, publicWidthCapKilometers))
        }
    }
}

extension RequestLog {
    /// A note about a call (not a request), written when logging is on at all.
    func notice(_ message: String) {
        guard let handler, level >= .errors else { return }
        handler(.errors, "! " + message)
    }
}

extension BMLTSearchCriteria {
    /// Whether an aggregator would search with these criteria at all. An aggregator answers a search without one
    /// of meeting ids, service bodies, formats, root servers, a field match, a location or a page with no
    /// meetings; BMLTKit refuses such a search on an aggregator with `BMLTError.invalidArgument` naming what to
    /// add, before sending anything.
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.weekdays = [.tuesday]
    /// criteria.satisfiesAggregatorFilterRule   // false: weekdays alone do not count
    /// criteria.rootServerIDs = [2]
    /// criteria.satisfiesAggregatorFilterRule   // true
    /// ```
    public var satisfiesAggregatorFilterRule: Bool {
        AggregatorFilterRule.hasRequiredFilter(WireSearchQuery.items(self, extent: .meetingsOnly, distanceUnits: .miles))
    }
}
