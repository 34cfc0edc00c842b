import Foundation
import LoopbackHTTPServer

/// The read interface of `CheckStandIn` (`client_interface/json`, the NAWS `csv`), from its meetings.
extension CheckStandIn {
    func semantic(_ request: LoopbackHTTPServer.Request, path: String) -> LoopbackHTTPServer.Behavior {
        let folder = generation.rawValue
        let switcher = request.query("switcher") ?? ""
        if path.hasPrefix("client_interface/csv") {
            guard switcher == "GetNAWSDump", !generation.isAggregator else { return Self.json(["message": "Invalid data format"], status: 422) }
            return naws(Int(request.query("sb_id") ?? "") ?? 0)
        }
        switch switcher {
        case "GetServerInfo": return capture(folder, Self.file(generation, "info"))
        case "GetFormats": return capture(folder, Self.file(generation, "formats"))
        case "GetServiceBodies": return capture(folder, Self.file(generation, "bodies"))
        case "GetFieldKeys": return capture(folder, Self.file(generation, "keys"))
        case "GetFieldValues": return fieldValues(request.query("meeting_key") ?? "")
        case "GetChanges": return changes(request)
        case "GetCoverageArea": return coverage()
        case "GetSearchResults":
            if searchAnswersHTML {
                return .respond(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                body: FixtureCaptures.body("rootserver-42", "235-legacy-json-get_meeting_search_results-unsupported.html"))
            }
            return search(request)
        default:
            return generation.isLegacy ? .respond(status: 200, headers: ["Content-Type": "application/json"], body: FixtureCaptures.body("rootserver", "json_bad_switcher.json"))
                : capture(folder == "aggregator-4x" ? "rootserver-4x" : folder, "020-json-bad-switcher.json", status: 422)
        }
    }

    /// The query's values for a name given as `name[]=a&name[]=b`, `name=a,b` or `name=a`.
    static func values(_ request: LoopbackHTTPServer.Request, _ name: String) -> [String] {
        request.queryItems.filter { $0.name == name || $0.name == name + "[]" }.flatMap { ($0.value ?? "").split(separator: ",").map(String.init) }
    }

    static func ids(_ request: LoopbackHTTPServer.Request, _ name: String) -> (include: Set<Int>, exclude: Set<Int>) {
        let numbers = values(request, name).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return (Set(numbers.filter { $0 > 0 }), Set(numbers.filter { $0 < 0 }.map { -$0 }))
    }

    func search(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let observer = isObserver(request)
        let (found, distances) = lock.withLock { () -> ([[String: String]], [Int: Double]) in
            matches(request)
        }
        var page = found
        if let size = Int(request.query("page_size") ?? ""), size > 0 {
            let number = max(1, Int(request.query("page_num") ?? "") ?? 1)
            page = Array(page.dropFirst((number - 1) * size).prefix(size))
        }
        let only = request.query("data_field_key").map { Set($0.split(separator: ",").map(String.init)) }
        let objects = page.map { served($0, distance: distances[Int($0["id_bigint"] ?? "") ?? 0], only: only, observer: observer) }
        if request.query("get_used_formats") != nil || request.query("get_formats_only") != nil {
            let used = Set(page.flatMap { ($0["format_shared_id_list"] ?? "").split(separator: ",").map(String.init) })
            let formats = formatRows.filter { used.contains("\($0["id"] ?? "")") && ($0["lang"] as? String ?? "en") == "en" }
            if request.query("get_formats_only") != nil { return Self.json(["formats": formats]) }
            return Self.json(["meetings": objects, "formats": formats])
        }
        return Self.json(objects)
    }

    /// The meetings a search finds, in the server's order, with distances (with the lock held).
    private func matches(_ request: LoopbackHTTPServer.Request) -> ([[String: String]], [Int: Double]) {
        var list = Array(meetings.values)
        let ids = Self.ids(request, "meeting_ids")
        // 2.x: the ids are the whole search (server-truths/216-GetSearchResults-meeting_ids-weekdays.json).
        if generation.isLegacy && !ids.include.isEmpty {
            return (ordered(list.filter { ids.include.contains(Int($0["id_bigint"] ?? "") ?? 0) }, request), [:])
        }
        if generation.isAggregator && !aggregatorHasFilter(request) { return ([], [:]) }
        switch request.query("advanced_published") ?? "1" {
        case "0": break
        case "-1": list = list.filter { $0["published"] != "1" }
        default: list = list.filter { $0["published"] == "1" }
        }
        func keep(_ key: String, _ name: String) {
            let wanted = Self.ids(request, name)
            list = list.filter { meeting in
                let value = Int(meeting[key] ?? "") ?? 0
                return !wanted.exclude.contains(value) && (wanted.include.isEmpty || wanted.include.contains(value))
            }
        }
        keep("id_bigint", "meeting_ids")
        keep("weekday_tinyint", "weekdays")
        keep("service_body_bigint", "services")
        keep("venue_type", "venue_types")
        if generation.isAggregator { keep("root_server_id", "root_server_ids") }
        let formats = Self.ids(request, "formats")
        if !formats.include.isEmpty || !formats.exclude.isEmpty {
            let any = request.query("formats_comparison_operator")?.uppercased() == "OR"
            list = list.filter { meeting in
                let own = Set((meeting["format_shared_id_list"] ?? "").split(separator: ",").compactMap { Int($0) })
                guard own.isDisjoint(with: formats.exclude) else { return false }
                return formats.include.isEmpty || (any ? !own.isDisjoint(with: formats.include) : formats.include.isSubset(of: own))
            }
        }
        if let text = request.query("SearchString")?.trimmingCharacters(in: .whitespaces), text.count > 2 {
            list = list.filter { meeting in
                ["meeting_name", "location_text", "location_street", "location_municipality", "location_info", "comments"]
                    .contains { (meeting[$0] ?? "").range(of: text, options: .caseInsensitive) != nil }
            }
        }
        var distances: [Int: Double] = [:]
        if let latitude = Double(request.query("lat_val") ?? ""), let longitude = Double(request.query("long_val") ?? "") {
            let miles = request.query("geo_width").flatMap(Double.init)
            let kilometers = request.query("geo_width_km").flatMap(Double.init)
            for meeting in list {
                guard let id = Int(meeting["id_bigint"] ?? ""), let lat = Double(meeting["latitude"] ?? ""), let long = Double(meeting["longitude"] ?? "") else { continue }
                distances[id] = Self.kilometers(latitude, longitude, lat, long)
            }
            list = list.filter { distances[Int($0["id_bigint"] ?? "") ?? 0] != nil }
            if let width = miles.map({ $0 * 1.609344 }) ?? kilometers {
                if width < 0 {
                    // Nearest N: the N nearest and any as near as the Nth (2.16.6's geo_width=-10 gave 11,
                    // json_GetSearchResults_geo_nearest_auto.json; 3.1.2's -5 gave 7, 013-GetSearchResults-geo-radius.json).
                    let sorted = distances.values.sorted()
                    let count = Int(-width.rounded())
                    let limit = sorted.isEmpty ? 0 : sorted[min(count, sorted.count) - 1] + 1e-9
                    list = list.filter { (distances[Int($0["id_bigint"] ?? "") ?? 0] ?? .infinity) <= limit }
                } else {
                    list = list.filter { (distances[Int($0["id_bigint"] ?? "") ?? 0] ?? .infinity) <= width }
                }
            } else {
                list = []
            }
        }
        var result = ordered(list, request)
        if request.query("sort_results_by_distance") == "1" {
            result.sort { (distances[Int($0["id_bigint"] ?? "") ?? 0] ?? 0) < (distances[Int($1["id_bigint"] ?? "") ?? 0] ?? 0) }
        }
        return (result, distances)
    }

    /// The aggregator's "no filter → []" rule (aggregator-4x/index.md, point 2).
    private func aggregatorHasFilter(_ request: LoopbackHTTPServer.Request) -> Bool {
        !Self.ids(request, "meeting_ids").include.isEmpty || !Self.ids(request, "services").include.isEmpty
            || !Self.ids(request, "formats").include.isEmpty || !Self.ids(request, "root_server_ids").include.isEmpty
            || (request.query("meeting_key") != nil && request.query("meeting_key_value") != nil)
            || (request.query("lat_val") != nil && (request.query("geo_width") != nil || request.query("geo_width_km") != nil))
            || request.query("page_size") != nil
    }

    /// The server's order: `sort_keys`, else 2.x weekday and start time (ties as stored:
    /// `json_GetSearchResults_all.json`), 3.x/4.x weekday, start time, duration (`SwitcherController`).
    private func ordered(_ list: [[String: String]], _ request: LoopbackHTTPServer.Request) -> [[String: String]] {
        let keys = request.query("sort_keys").map { $0.split(separator: ",").map(String.init) }
            ?? (generation.isLegacy ? ["weekday_tinyint", "start_time"] : ["weekday_tinyint", "start_time", "duration_time"])
        return list.sorted { a, b in
            for key in keys {
                let x = a[key] ?? "", y = b[key] ?? ""
                if key == "weekday_tinyint" || key == "id_bigint" {
                    let (m, n) = (Int(x) ?? 0, Int(y) ?? 0)
                    if m != n { return m < n }
                } else if x != y {
                    return x.localizedCaseInsensitiveCompare(y) == .orderedAscending
                }
            }
            let (m, n) = (Int(a["id_bigint"] ?? "") ?? 0, Int(b["id_bigint"] ?? "") ?? 0)
            return generation.isLegacy ? (insertion[m] ?? m) < (insertion[n] ?? n) : m < n
        }
    }

    /// A meeting as the semantic interface serves it: the generation's keys in order, hidden fields blank (an
    /// administrator's 2.x session: `observer_only#@-@#prompt#@-@#value`), 2.x data fields as `prompt#@-@#value`.
    func served(_ meeting: [String: String], distance: Double?, only: Set<String>?, observer: Bool) -> [String: Any] {
        var out: [String: Any] = [:]
        for key in Set(keyOrder).union(meeting.keys) where only?.contains(key) ?? true {
            var value = meeting[key] ?? ""
            if Self.hiddenKeys.contains(key) {
                value = generation.isLegacy && observer && !value.isEmpty ? "observer_only#@-@#\(Self.prompts[key] ?? key)#@-@#\(value)" : ""
            } else if generation.isLegacy, !value.isEmpty, let prompt = Self.prompts[key] {
                value = "\(prompt)#@-@#\(value)"
            }
            if key == "distance_in_km" { value = distance.map { String($0) } ?? "" }
            if key == "distance_in_miles" { value = distance.map { String($0 / 1.609344) } ?? "" }
            if key == "root_server_id", generation.isAggregator, let number = Int(value) { out[key] = number; continue }
            out[key] = value
        }
        return out
    }

    /// 2.16.6's prompts of the data fields it serves as `prompt#@-@#value` (admin_json_get_field_templates.json).
    static let prompts: [String: String] = [
        "zone": "Zone", "train_lines": "Train Lines", "bus_lines": "Bus Lines", "contact_phone_2": "Contact 2 Phone",
        "contact_email_2": "Contact 2 Email", "contact_name_2": "Contact 2 Name", "contact_phone_1": "Contact 1 Phone",
        "contact_email_1": "Contact 1 Email", "contact_name_1": "Contact 1 Name", "phone_meeting_number": "Phone Meeting Dial-in Number",
        "virtual_meeting_link": "Virtual Meeting Link", "virtual_meeting_additional_info": "Virtual Meeting Additional Information",
        "email_contact": "Email Contact",
    ]

    /// GetFieldValues: the published meetings grouped by the key's value (2.16.6 `json_GetFieldValues_weekday.json`;
    /// 4.x `MeetingRepository::getFieldValues` counts published meetings).
    private func fieldValues(_ key: String) -> LoopbackHTTPServer.Behavior {
        guard !key.isEmpty else { return .respond(status: 400, headers: [:], body: Data()) }
        let groups = lock.withLock { () -> [(String, [Int])] in
            var order: [String] = []
            var ids: [String: [Int]] = [:]
            for meeting in meetings.values.sorted(by: { (Int($0["id_bigint"] ?? "") ?? 0) < (Int($1["id_bigint"] ?? "") ?? 0) })
            where meeting["published"] == "1" {
                let value = meeting[key].flatMap { $0.isEmpty ? nil : $0 } ?? "NULL"
                if ids[value] == nil { order.append(value) }
                ids[value, default: []].append(Int(meeting["id_bigint"] ?? "") ?? 0)
            }
            return order.map { ($0, ids[$0]!) }
        }
        return Self.json(groups.map { [key: $0.0, "ids": $0.1.map(String.init).joined(separator: ",")] })
    }

    private func changes(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let start = request.query("start_date").flatMap(formatter.date(from:))
        let end = request.query("end_date").flatMap(formatter.date(from:)).map { $0.addingTimeInterval(86_400) }
        let meeting = request.query("meeting_id"), body = request.query("service_body_id")
        let records = lock.withLock { log }.filter { record in
            let date = Date(timeIntervalSince1970: Double(record["date_int"] as? String ?? "") ?? 0)
            return (start.map { date >= $0 } ?? true) && (end.map { date < $0 } ?? true)
                && (meeting.map { record["meeting_id"] as? String == $0 } ?? true)
                && (body.map { record["service_body_id"] as? String == $0 } ?? true)
        }
        return Self.json(records)
    }

    /// The box around every meeting held (3.x/4.x `MeetingRepository::getBoundingBox`).
    private func coverage() -> LoopbackHTTPServer.Behavior {
        let points = lock.withLock { meetings.values.compactMap { m -> (Double, Double)? in
            guard let lat = Double(m["latitude"] ?? ""), let long = Double(m["longitude"] ?? "") else { return nil }
            return (lat, long)
        } }
        let box: [String: String] = [
            "nw_corner_longitude": String(points.map(\.1).min() ?? 0), "nw_corner_latitude": String(points.map(\.0).max() ?? 0),
            "se_corner_longitude": String(points.map(\.1).max() ?? 0), "se_corner_latitude": String(points.map(\.0).min() ?? 0),
        ]
        return Self.json([box])
    }

    /// The NAWS export of a service body: the columns of `rootserver/csv_GetNAWSDump_sb1002.csv`, a row per meeting
    /// (unpublished ones marked, as its last column says).
    private func naws(_ body: Int) -> LoopbackHTTPServer.Behavior {
        let header = String(decoding: FixtureCaptures.body("rootserver", "csv_GetNAWSDump_sb1002.csv"), as: UTF8.self)
            .split(separator: "\n").first.map(String.init) ?? ""
        let columns = header.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r")) }
        let rows = lock.withLock { meetings.values.filter { $0["service_body_bigint"] == String(body) } }.map { meeting -> String in
            let values: [String: String] = ["Committee": meeting["worldid_mixed"] ?? "", "CommitteeName": meeting["meeting_name"] ?? "",
                                            "Place": meeting["location_text"] ?? "", "Address": meeting["location_street"] ?? "",
                                            "City": meeting["location_municipality"] ?? "", "State": meeting["location_province"] ?? "",
                                            "Zip": meeting["location_postal_code_1"] ?? "", "bmlt_id": meeting["id_bigint"] ?? "",
                                            "unpublished": meeting["published"] == "1" ? "" : "1"]
            return columns.map { "\"" + (values[$0] ?? "").replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
        }
        return .respond(status: 200, headers: ["Content-Type": "text/csv; charset=UTF-8"], body: Data(([header] + rows).joined(separator: "\n").utf8))
    }

    static func kilometers(_ lat1: Double, _ long1: Double, _ lat2: Double, _ long2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r, dLong = (long2 - long1) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLong / 2) * sin(dLong / 2)
        return 6371.0 * 2 * atan2(sqrt(h), sqrt(1 - h))
    }
}
