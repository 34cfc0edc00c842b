import Foundation

/// `BMLTSearchCriteria` → the query of `GetSearchResults`.
///
/// Arrays go as repeated `name[]=value` (2.x accepts nothing else; 3.x accepts both), excluded ids as negative
/// values, times as an hour and a minute parameter, and every value is percent-encoded by `RootServerURL`.
enum WireSearchQuery {
    /// The keys BMLTKit always asks for when the caller narrows the fields with `dataFieldKeys`.
    static let requiredDataFieldKeys = ["id_bigint", "service_body_bigint"]

    /// `bareKeys`: `data_field_key` exactly as the criteria name the fields, without the keys BMLTKit always adds (a
    /// list's ids alone, in the server's order: `ListSkeleton`).
    static func items(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                      distanceUnits: BMLTDistanceUnit, bareKeys: Bool = false) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        func add(_ name: String, _ value: String) { items.append(URLQueryItem(name: name, value: value)) }
        func add(_ name: String, _ value: Int) { add(name, String(value)) }
        func addTime(_ prefix: String, _ time: BMLTTimeOfDay) {
            add(prefix + "H", time.hour)
            add(prefix + "M", time.minute)
        }
        func addDuration(_ prefix: String, _ seconds: TimeInterval) {
            let minutes = WireTime.wholeSeconds(seconds / 60)    // a host's .nan or .infinity never traps
            add(prefix + "H", minutes / 60)
            add(prefix + "M", minutes % 60)
        }

        for id in criteria.meetingIDs { add("meeting_ids[]", id) }
        for day in criteria.weekdays.sorted() { add("weekdays[]", day.rawValue) }
        for day in criteria.excludedWeekdays.sorted() { add("weekdays[]", -day.rawValue) }
        for type in criteria.venueTypes.sorted(by: { $0.rawValue < $1.rawValue }) { add("venue_types[]", type.rawValue) }
        for type in criteria.excludedVenueTypes.sorted(by: { $0.rawValue < $1.rawValue }) { add("venue_types[]", -type.rawValue) }
        for id in criteria.serviceBodyIDs { add("services[]", id) }
        for id in criteria.excludedServiceBodyIDs { add("services[]", -id) }
        if criteria.includeChildServiceBodies, !(criteria.serviceBodyIDs.isEmpty && criteria.excludedServiceBodyIDs.isEmpty) {
            add("recursive", 1)
        }
        for id in criteria.formats.included { add("formats[]", id) }
        for id in criteria.formats.excluded { add("formats[]", -id) }
        if !criteria.formats.requiresAll, !criteria.formats.included.isEmpty { add("formats_comparison_operator", "OR") }

        if let text = criteria.text, !text.isEmpty {
            add("SearchString", text)
            switch criteria.textMatch {
            case .anyWords: break
            case .allWords: add("SearchStringAll", 1)
            case .exact: add("SearchStringExact", 1)
            case .address(let radius):
                add("StringSearchIsAnAddress", 1)
                if let radius { add("SearchStringRadius", serverUnitsWidth(radius, units: distanceUnits)) }
            }
        }
        if let time = criteria.startsAfter { addTime("StartsAfter", time) }
        if let time = criteria.startsBefore { addTime("StartsBefore", time) }
        if let time = criteria.endsBefore { addTime("EndsBefore", time) }
        if let duration = criteria.minimumDuration { addDuration("MinDuration", duration) }
        if let duration = criteria.maximumDuration { addDuration("MaxDuration", duration) }

        if let location = criteria.location {
            add("lat_val", decimal(location.coordinate.latitude))
            add("long_val", decimal(location.coordinate.longitude))
            switch location.radius {
            case .miles(let miles): add("geo_width", decimal(abs(miles)))
            case .kilometers(let kilometers): add("geo_width_km", decimal(abs(kilometers)))
            case .serverUnits(let distance):
                add(distanceUnits == .kilometers ? "geo_width_km" : "geo_width", decimal(abs(distance)))
            case .nearest(let count): add("geo_width", -max(1, count))
            }
        }
        if criteria.sortByDistance { add("sort_results_by_distance", 1) }
        if let match = criteria.fieldMatch {
            add("meeting_key", match.key)
            add("meeting_key_value", match.value)
        }
        if let status = criteria.publishedStatus { add("advanced_published", status.rawValue) }
        if let keys = criteria.dataFieldKeys {
            let requested = keys.filter { !$0.isEmpty }
            let all = bareKeys ? requested : requested + requiredDataFieldKeys.filter { !requested.contains($0) }
            add("data_field_key", all.joined(separator: ","))
        }
        if !criteria.sortKeys.isEmpty { add("sort_keys", criteria.sortKeys.joined(separator: ",")) }
        if criteria.sortDescending { add("sort_dir", "desc") }
        if let alias = criteria.sortAlias { add("sort_key", alias.rawValue) }
        if let page = criteria.page {
            add("page_size", max(1, page.size))
            add("page_num", max(1, page.number))
        }
        if let language = criteria.language, !language.isEmpty { add("lang_enum", language) }
        for id in criteria.rootServerIDs { add("root_server_ids[]", id) }
        for id in criteria.excludedRootServerIDs { add("root_server_ids[]", -id) }
        switch extent {
        case .meetingsOnly: break
        case .formatsOnly: add("get_formats_only", 1)
        case .meetingsAndFormats: add("get_used_formats", 1)
        }
        return items + criteria.rawParameters
    }

    /// A radius as the server's own unit (`SearchStringRadius`); `nearest` is a negative count.
    private static func serverUnitsWidth(_ radius: BMLTSearchCriteria.Radius, units: BMLTDistanceUnit) -> String {
        let kilometersPerMile = 1.609344
        switch radius {
        case .nearest(let count): return String(-max(1, count))
        case .serverUnits(let distance): return decimal(abs(distance))
        case .miles(let miles): return decimal(abs(units == .kilometers ? miles * kilometersPerMile : miles))
        case .kilometers(let kilometers): return decimal(abs(units == .kilometers ? kilometers : kilometers / kilometersPerMile))
        }
    }

    /// A plain decimal (never exponent notation, which PHP's `floatval` would misread), up to 10 places.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = String(value)
        if !text.contains("e") { return text }
        var fixed = String(format: "%.10f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }
}

/// A `GetSearchResults` reply → meetings and formats. The reply is a list (meetings only), `{}` (nothing), or an
/// object with `meetings` and/or `formats`.
enum WireSearchResults {
    static func decode(_ value: WireValue, serverFormats: [BMLTFormat]) throws(BMLTError) -> BMLTSearchResults {
        let what: BMLTError.Subject = .meetingSearch
        guard case .object(let members) = value, members["meetings"] != nil || members["formats"] != nil else {
            let meetings = try WireMeeting.decodeList(value, formats: WireFormatTable(serverFormats), what: what)
            return BMLTSearchResults(meetings: meetings, formats: [])
        }
        var formats: [BMLTFormat] = []
        var skipped = 0
        if let list = members["formats"] {
            (formats, skipped) = try sideFormats(list, besideMeetings: members["meetings"] != nil)
        }
        var meetings: [BMLTMeeting] = []
        if let list = members["meetings"] {
            meetings = try WireMeeting.decodeList(list, formats: WireFormatTable(preferred: formats, fallback: serverFormats),
                                                  what: what)
        }
        return BMLTSearchResults(meetings: meetings, formats: formats, skippedFormats: skipped)
    }

    /// A search reply's `formats`: beside meetings a side list, read leniently (`WireFormat.decodeSideList`); alone
    /// (a formats-only search) the answer itself, read strictly.
    static func sideFormats(_ list: WireValue, besideMeetings: Bool) throws(BMLTError) -> (formats: [BMLTFormat], skipped: Int) {
        let what: BMLTError.Subject = .searchFormats
        if besideMeetings { return WireFormat.decodeSideList(list, what: what) }
        return (try WireFormat.decodeList(list, what: what), 0)
    }
}
