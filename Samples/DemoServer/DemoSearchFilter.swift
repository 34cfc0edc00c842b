import Foundation

/// GetSearchResults: applies every supported filter of a 3.x root server to the demo meetings.
enum DemoSearchFilter {
    /// A matching meeting and, for geographic searches, its distance from the search centre.
    typealias Hit = (meeting: DemoMeeting, distanceKm: Double?)

    /// The text fields `SearchString` looks in.
    static let textKeys = ["meeting_name", "location_text", "location_info", "location_street", "location_city_subsection",
                           "location_neighborhood", "location_municipality", "location_sub_province", "location_province",
                           "location_postal_code_1", "location_nation", "comments", "train_lines", "bus_lines"]

    /// All matches, sorted, before paging.
    static func run(_ q: DemoQuery, _ set: DemoDataSet) -> [Hit] {
        var meetings = set.sortedMeetings

        switch q.int("advanced_published") ?? 1 {
        case 0: break
        case -1: meetings = meetings.filter { !$0.published }
        default: meetings = meetings.filter { $0.published }
        }

        let ids = q.signedIDs("meeting_ids")
        if !ids.include.isEmpty { meetings = meetings.filter { ids.include.contains($0.id) } }

        let weekdays = q.signedIDs("weekdays")
        meetings = meetings.filter { included($0.weekday, weekdays) }

        let venues = q.signedIDs("venue_types")
        meetings = meetings.filter { included($0.venueType, venues) }

        var services = q.signedIDs("services")
        if q.string("recursive") == "1" {
            if !services.include.isEmpty { services.include = set.withDescendants(services.include) }
            if !services.exclude.isEmpty { services.exclude = set.withDescendants(services.exclude) }
        }
        meetings = meetings.filter { included($0.serviceBodyID, services) }

        let formats = q.signedIDs("formats")
        let anyFormat = q.string("formats_comparison_operator")?.uppercased() == "OR"
        meetings = meetings.filter { m in
            let own = Set(m.formatIDs)
            if !own.isDisjoint(with: formats.exclude) { return false }
            if formats.include.isEmpty { return true }
            return anyFormat ? !own.isDisjoint(with: formats.include) : formats.include.isSubset(of: own)
        }

        if let key = q.nonEmpty("meeting_key") {
            guard let wanted = q.string("meeting_key_value"), !wanted.isEmpty else { return [] }
            meetings = meetings.filter { fieldMatches($0, key: key, wanted: wanted, set) }
        }

        if let text = q.nonEmpty("SearchString"), text.count >= 3 || Int(text) != nil {
            meetings = meetings.filter { m in textKeys.contains { m[field: $0].range(of: text, options: .caseInsensitive) != nil } }
        }

        if let after = clock(q, "StartsAfter") { meetings = meetings.filter { $0.startMinutes > after } }
        if let before = clock(q, "StartsBefore") { meetings = meetings.filter { $0.startMinutes < before } }
        if let ends = clock(q, "EndsBefore") { meetings = meetings.filter { $0.endMinutes <= ends } }
        if let least = clock(q, "MinDuration") { meetings = meetings.filter { $0.durationMinutes >= least } }
        if let most = clock(q, "MaxDuration") { meetings = meetings.filter { $0.durationMinutes <= most } }

        guard let hits = geo(q, meetings) else { return [] }
        return sorted(hits, q, set)
    }

    private static func included(_ value: Int, _ ids: (include: Set<Int>, exclude: Set<Int>)) -> Bool {
        if ids.exclude.contains(value) { return false }
        return ids.include.isEmpty || ids.include.contains(value)
    }

    private static func fieldMatches(_ m: DemoMeeting, key: String, wanted: String, _ set: DemoDataSet) -> Bool {
        switch key {
        case "start_time": return DemoText.minutes(wanted) == m.startMinutes
        case "duration_time": return DemoText.minutes(wanted) == m.durationMinutes
        default: return DemoRender.value(key, of: m, in: set, lang: "en") == wanted
        }
    }

    /// `<prefix>H` / `<prefix>M` as minutes, when either is given.
    private static func clock(_ q: DemoQuery, _ prefix: String) -> Int? {
        let h = q.int(prefix + "H"), m = q.int(prefix + "M")
        guard h != nil || m != nil else { return nil }
        return (h ?? 0) * 60 + (m ?? 0)
    }

    /// Great-circle distance in km.
    static func distanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r, dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371.0 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The geographic part: nil means "answer []" (3.x edge rules).
    private static func geo(_ q: DemoQuery, _ meetings: [DemoMeeting]) -> [Hit]? {
        let lat = q.double("lat_val"), lon = q.double("long_val")
        if lat == nil && lon == nil { return meetings.map { ($0, nil) } }
        guard let lat, let lon else { return nil }
        let hits: [Hit] = meetings.map { ($0, distanceKm(lat, lon, $0.latitude, $0.longitude)) }
        // Negative widths are counts, not distances, so only positive mile widths are converted.
        let widthKm: Double?
        if let km = q.double("geo_width_km") {
            widthKm = km
        } else if let miles = q.double("geo_width") {
            widthKm = miles < 0 ? miles : miles * 1.609344
        } else {
            widthKm = nil
        }
        guard let widthKm else {
            let wantsDistance = q.list("data_field_key").contains { $0.hasPrefix("distance_in_") }
            return wantsDistance ? hits : nil
        }
        if widthKm >= 0 { return hits.filter { $0.distanceKm! <= widthKm } }
        // Negative width: the N nearest meetings (meetings tied with the N-th are kept too).
        let n = Int(-widthKm.rounded())
        let byDistance = hits.sorted { $0.distanceKm! < $1.distanceKm! }
        guard n > 0, !byDistance.isEmpty else { return [] }
        let limit = byDistance[min(n, byDistance.count) - 1].distanceKm!
        return byDistance.filter { $0.distanceKm! <= limit }
    }

    private static func sorted(_ hits: [Hit], _ q: DemoQuery, _ set: DemoDataSet) -> [Hit] {
        var keys = q.list("sort_keys")
        if keys.isEmpty, let alias = q.nonEmpty("sort_key") {
            switch alias {
            case "time": keys = ["start_time", "weekday_tinyint"]
            case "town": keys = ["location_municipality", "weekday_tinyint", "start_time"]
            case "state": keys = ["location_province", "location_municipality", "weekday_tinyint", "start_time"]
            case "weekday_state": keys = ["weekday_tinyint", "location_province", "start_time"]
            default: keys = []
            }
        }
        let byDistance = q.string("sort_results_by_distance") == "1" && hits.first?.distanceKm != nil
        let descending = q.string("sort_dir")?.lowercased() == "desc"
        return hits.sorted { a, b in
            if byDistance, a.distanceKm! != b.distanceKm! { return a.distanceKm! < b.distanceKm! }
            if !keys.isEmpty {
                for key in keys {
                    let x = DemoRender.value(key, of: a.meeting, in: set, lang: "en")
                    let y = DemoRender.value(key, of: b.meeting, in: set, lang: "en")
                    if x == y { continue }
                    let order: ComparisonResult
                    if let dx = Double(x), let dy = Double(y) {
                        order = dx == dy ? .orderedSame : (dx < dy ? .orderedAscending : .orderedDescending)
                    } else {
                        order = x.caseInsensitiveCompare(y)
                    }
                    if order == .orderedSame { continue }
                    return (order == .orderedAscending) != descending
                }
                return a.meeting.id < b.meeting.id
            }
            let ma = a.meeting, mb = b.meeting
            return (ma.weekday, ma.startMinutes, ma.durationMinutes, ma.id) < (mb.weekday, mb.startMinutes, mb.durationMinutes, mb.id)
        }
    }
}
