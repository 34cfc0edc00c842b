import Foundation
import LoopbackHTTPServer
@testable import BMLTKit

/// The stand-in's answers, from what it holds when asked (see `RefreshStandIn` for the captures each follows).
extension RefreshStandIn {
    /// Query parameters the stand-in knows; any other fails the request loudly (400), so that a test never passes on
    /// a filter the stand-in ignored.
    static let searchParameters: Set<String> = ["switcher", "meeting_ids[]", "weekdays[]", "services[]", "lat_val", "long_val",
                                                "geo_width", "geo_width_km", "get_used_formats", "data_field_key",
                                                "advanced_published", "SearchString"]

    func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        lock.lock()
        defer { lock.unlock() }
        clock.addTimeInterval(1)
        var headers: [String: String] = [:]
        if let date = dateHeader(clock) { headers["Date"] = date }
        let switcher = request.query("switcher") ?? ""
        func json(_ value: Any) -> LoopbackHTTPServer.Behavior {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data("[]".utf8)
            bytesSent[switcher, default: 0] += data.count
            return .respond(status: 200, headers: headers, body: data)
        }
        func capture(_ folder: String, _ name: String) -> LoopbackHTTPServer.Behavior {
            let data = (try? FixtureCorpus.data(folder, name)) ?? Data("[]".utf8)
            bytesSent[switcher, default: 0] += data.count
            return .respond(status: 200, headers: headers, body: data)
        }
        // Apache's 414 past its `LimitRequestLine` (`server-truths/216-apache-414-headers.txt`, `-body.html`).
        if let lineLimit, request.method.utf8.count + 1 + request.target.utf8.count + " HTTP/1.1".utf8.count > lineLimit {
            let body = (try? FixtureCorpus.data("server-truths", "216-apache-414-body.html")) ?? Data()
            return .respond(status: 414, headers: headers.merging(["Content-Type": "text/html; charset=iso-8859-1"]) { $1 }, body: body)
        }
        if request.path.hasSuffix("GetLangs.php") { return capture(RefreshStandIn.Generation.v2.rawValue, "json_GetLangs.json") }
        let folder = generation.rawValue
        switch switcher {
        case "GetServerInfo":
            if isAggregator { return capture("aggregator-4x", "01-GetServerInfo.json") }
            return capture(folder, generation.isLegacy ? "json_GetServerInfo.json" : "001-GetServerInfo.json")
        case "GetFormats": return json(formats.map(\.fields))
        case "GetServiceBodies": return json(bodies)
        case "GetChanges":
            if let changeLogReply { return changeLogReply() }
            if isAggregator { return capture("aggregator-4x", "28-GetChanges.json") }
            return json(changeLog(since: request.query("start_date")))
        case "GetSearchResults":
            let unknown = request.queryItems.map(\.name).filter { !Self.searchParameters.contains($0) }
            guard unknown.isEmpty else {
                return .respond(status: 400, headers: headers, body: Data("stand-in: unknown \(unknown)".utf8))
            }
            return json(search(request))
        default:
            return .respond(status: 400, headers: headers, body: Data("stand-in: unknown switcher".utf8))
        }
    }

    private func changeLog(since day: String?) -> [[String: Any]] {
        guard let day else { return changes }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
            return []
        }
        // `start_date` against the database's own clock, which `date_int` reads as UTC (`databaseClockOffset` off).
        return changes.filter { (Double($0["date_int"] as? String ?? "") ?? 0) >= start.timeIntervalSince1970 }
    }

    /// The server's distance in miles or kilometres (its SQL: degrees of the great circle × 69 or × 111.111).
    static func distance(_ fields: [String: String], latitude: Double, longitude: Double, perDegree: Double) -> Double? {
        guard let lat = Double(fields["latitude"] ?? ""), let long = Double(fields["longitude"] ?? "") else { return nil }
        let radians = { (degrees: Double) in degrees * .pi / 180 }
        let cosine = cos(radians(lat)) * cos(radians(latitude)) * cos(radians(long) - radians(longitude))
            + sin(radians(lat)) * sin(radians(latitude))
        return perDegree * acos(min(1, cosine)) * 180 / .pi
    }

    private func search(_ request: LoopbackHTTPServer.Request) -> Any {
        let items = request.queryItems
        func all(_ name: String) -> [Int] { items.filter { $0.name == name }.compactMap { $0.value.flatMap { Int($0) } } }
        let ids = all("meeting_ids[]"), days = all("weekdays[]"), services = all("services[]")
        let id = { (meeting: Meeting) in Int(meeting.fields["id_bigint"] ?? "") ?? -1 }
        var list = Array(meetings.values)
        var geo: (Double, Double)?
        if generation.isLegacy, !ids.isEmpty {
            // 2.16.6: the ids are the whole search, unpublished meetings included, no centre
            // (`server-truths/216-GetSearchResults-meeting_ids-weekdays.json`).
            list = list.filter { ids.contains(id($0)) }
        } else {
            switch request.query("advanced_published") ?? "1" {
            case "0": break
            case "-1": list = list.filter { $0.fields["published"] != "1" }
            default: list = list.filter { $0.fields["published"] == "1" }
            }
            if !ids.isEmpty { list = list.filter { ids.contains(id($0)) } }
            let weekday = { (meeting: Meeting) in Int(meeting.fields["weekday_tinyint"] ?? "") ?? 0 }
            let included = days.filter { $0 > 0 }, excluded = days.filter { $0 < 0 }.map { -$0 }
            if !included.isEmpty { list = list.filter { included.contains(weekday($0)) } }
            list = list.filter { !excluded.contains(weekday($0)) }
            let body = { (meeting: Meeting) in Int(meeting.fields["service_body_bigint"] ?? "") ?? -1 }
            let bodies = services.filter { $0 > 0 }, notBodies = services.filter { $0 < 0 }.map { -$0 }
            if !bodies.isEmpty { list = list.filter { bodies.contains(body($0)) } }
            list = list.filter { !notBodies.contains(body($0)) }
            // A text search: not the server's metaphone (2.x) or full-text index (3.x/4.x), a word of the meeting's
            // name; the tests search for a word one meeting's name holds.
            if let text = request.query("SearchString")?.lowercased(), !text.isEmpty {
                list = list.filter { ($0.fields["meeting_name"] ?? "").lowercased().contains(text) }
            }
            if let lat = request.query("lat_val").flatMap(Double.init), let long = request.query("long_val").flatMap(Double.init) {
                geo = (lat, long)
                let width = request.query("geo_width").flatMap(Double.init).map { ($0, 69.0) }
                    ?? request.query("geo_width_km").flatMap(Double.init).map { ($0, 111.111) }
                if let (radius, perDegree) = width {
                    list = list.filter { (Self.distance($0.fields, latitude: lat, longitude: long, perDegree: perDegree) ?? .infinity) <= radius }
                }
            }
        }
        list.sort(by: serverOrder)
        let keys = request.query("data_field_key")?.split(separator: ",").map(String.init)
        let objects: [[String: String]] = list.map { meeting in
            var fields = meeting.fields
            fields["formats"] = meeting.formatIDs.compactMap { id in formats.first { $0.id == id }?.key }.joined(separator: ",")
            fields["format_shared_id_list"] = meeting.formatIDs.sorted().map(String.init).joined(separator: ",")
            fields["root_server_uri"] = rootURL.absoluteString
            if fields["service_body_name"] != nil {
                fields["service_body_name"] = bodies.first { $0["id"] == fields["service_body_bigint"] }?["name"] ?? ""
            }
            if let (lat, long) = geo {
                fields["distance_in_miles"] = Self.distance(fields, latitude: lat, longitude: long, perDegree: 69).map { String($0) } ?? ""
                fields["distance_in_km"] = Self.distance(fields, latitude: lat, longitude: long, perDegree: 111.111).map { String($0) } ?? ""
            } else if generation.isLegacy {
                fields["distance_in_miles"] = ""
                fields["distance_in_km"] = ""
            }
            if let keys { fields = fields.filter { keys.contains($0.key) } }
            return fields
        }
        guard request.query("get_used_formats") == "1" else {
            return objects.isEmpty && generation.isLegacy ? [String: Any]() : objects
        }
        var used: [Int] = []
        for meeting in list { for id in meeting.formatIDs where !used.contains(id) { used.append(id) } }
        if !generation.isLegacy { used.sort() }
        let formatObjects = used.compactMap { id in formats.first { $0.id == id }?.fields }
        if objects.isEmpty && generation.isLegacy { return [String: Any]() }
        return ["meetings": objects, "formats": formatObjects] as [String: Any]
    }

    /// The keys of each `default_sort_key` (4.x `SwitcherController::getSearchResults`; 3.1.2's the same).
    static let sortAliases: [String: [String]] = [
        "weekday": ["weekday_tinyint", "location_municipality", "location_city_subsection", "start_time", "location_neighborhood"],
        "time": ["weekday_tinyint", "start_time", "location_municipality", "location_city_subsection", "location_neighborhood"],
        "town": ["location_municipality", "location_city_subsection", "location_neighborhood", "weekday_tinyint", "start_time"],
        "state": ["location_province", "location_municipality", "location_city_subsection", "weekday_tinyint", "start_time"],
        "weekday_state": ["weekday_tinyint", "location_province", "location_municipality", "start_time", "location_city_subsection"],
    ]

    /// The generation's order of a search without sort options.
    func serverOrder(_ lhs: Meeting, _ rhs: Meeting) -> Bool {
        if !generation.isLegacy, let alias = defaultSortKey, let keys = Self.sortAliases[alias] {
            for key in keys {
                let (left, right) = (lhs.fields[key] ?? "", rhs.fields[key] ?? "")
                if key == "weekday_tinyint", let l = Int(left), let r = Int(right), l != r { return l < r }
                if left != right { return left < right }
            }
            return lhs.row < rhs.row
        }
        let left = (Int(lhs.fields["weekday_tinyint"] ?? "") ?? 0, lhs.fields["start_time"] ?? "")
        let right = (Int(rhs.fields["weekday_tinyint"] ?? "") ?? 0, rhs.fields["start_time"] ?? "")
        if left != right { return left < right }
        if generation.isLegacy { return (lhs.fields["id_bigint"] ?? "") < (rhs.fields["id_bigint"] ?? "") }
        let (leftDuration, rightDuration) = (lhs.fields["duration_time"] ?? "", rhs.fields["duration_time"] ?? "")
        if leftDuration != rightDuration { return leftDuration < rightDuration }
        return lhs.row < rhs.row
    }
}
