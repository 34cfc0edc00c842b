import Foundation

/// The semantic read interface: `<root>/client_interface/<format>/?switcher=...`.
enum DemoSemanticRoutes {
    static let jsonSwitchers = ["GetSearchResults", "GetFormats", "GetServiceBodies", "GetFieldKeys", "GetFieldValues",
                                "GetChanges", "GetServerInfo", "GetCoverageArea"]

    /// The 3.x message for a switcher that does not exist for the data format.
    static let badSwitcherMessage = "Invalid data format or endpoint name. Valid endpoint names for the json and jsonp data formats are: "
        + jsonSwitchers.joined(separator: ", ") + ". Valid endpoint names for the csv format are: GetNAWSDump."

    /// Answers a request whose first path segment is `client_interface`.
    static func route(_ request: DemoRequest, _ set: DemoDataSet) -> DemoResponse {
        let rest = Array(request.segments.dropFirst())
        if rest == ["serverInfo.xml"] {
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<bmltInfo>\n  <serverVersion>\n    <readableString>3.1.2</readableString>\n  </serverVersion>\n</bmltInfo>\n"
            return DemoResponse(status: 200, headers: DemoResponse.common.merging(["Content-Type": "application/xml"]) { $1 },
                                body: Data(xml.utf8))
        }
        // Only `<format>/` and `<format>/index.php` are routes; anything else (e.g. json/GetLangs.php) is the catch-all 404.
        guard rest.count == 1 || (rest.count == 2 && rest[1] == "index.php") else { return DemoResponse.notFoundPage }
        let format = rest[0]
        let switcher = request.query.string("switcher") ?? ""
        let q = request.query
        switch format {
        case "csv" where switcher == "GetNAWSDump":
            return DemoNAWS.dump(q, set)
        case "json", "jsonp":
            guard jsonSwitchers.contains(switcher) else { return badSwitcher }
            let result = answer(switcher, q, set)
            guard format == "jsonp" else { return result }
            let callback = q.nonEmpty("callback") ?? "callback"
            var body = Data("\(callback)(".utf8)
            body.append(result.body)
            body.append(Data(")".utf8))
            return DemoResponse(status: result.status,
                                headers: DemoResponse.common.merging(["Content-Type": "application/javascript"]) { $1 }, body: body)
        case "csv", "xml", "tsml", "kml", "gpx", "poi", "simple":
            return badSwitcher
        default:
            return DemoResponse.notFoundPage
        }
    }

    static var badSwitcher: DemoResponse { DemoResponse.prettyMessage(badSwitcherMessage, status: 422) }

    private static func answer(_ switcher: String, _ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        switch switcher {
        case "GetSearchResults": return searchResults(q, set)
        case "GetFormats": return .json(.array(formats(q, set)))
        case "GetServiceBodies": return .json(.array(serviceBodies(q, set)))
        case "GetFieldKeys":
            return .json(.array(DemoFields.visibleKeys.map { .object([("key", .string($0.0)), ("description", .string($0.1))]) }))
        case "GetFieldValues": return fieldValues(q, set)
        case "GetChanges": return changes(q, set)
        case "GetServerInfo": return .json(.array([serverInfo(set)]))
        case "GetCoverageArea": return .json(.array([coverage(set)]))
        default: return badSwitcher
        }
    }

    // MARK: GetSearchResults

    private static func searchResults(_ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        let lang = q.list("lang_enum").first ?? "en"
        var hits = DemoSearchFilter.run(q, set)
        if q.has("get_formats_only") {
            return .json(.object([("formats", .array(usedFormats(hits.map(\.meeting), set, lang)))]))
        }
        if let size = q.int("page_size"), size > 0 {
            let page = max(1, q.int("page_num") ?? 1)
            let start = (page - 1) * size
            hits = start < hits.count ? Array(hits[start..<min(hits.count, start + size)]) : []
        }
        let only = q.nonEmpty("data_field_key").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let meetings = DemoJSON.array(hits.map { DemoRender.meeting($0.meeting, set, lang: lang, distanceKm: $0.distanceKm, only: only) })
        if q.has("get_used_formats") {
            return .json(.object([("meetings", meetings), ("formats", .array(usedFormats(hits.map(\.meeting), set, lang)))]))
        }
        return .json(meetings)
    }

    private static func usedFormats(_ meetings: [DemoMeeting], _ set: DemoDataSet, _ lang: String) -> [DemoJSON] {
        let used = Set(meetings.flatMap(\.formatIDs))
        return set.formats.filter { used.contains($0.id) }.compactMap { DemoRender.format($0, lang: lang) }
    }

    // MARK: GetFormats, GetServiceBodies

    private static func formats(_ q: DemoQuery, _ set: DemoDataSet) -> [DemoJSON] {
        let langs = q.list("lang_enum").isEmpty ? ["en"] : q.list("lang_enum")
        var chosen = set.formats
        if q.string("show_all") != "1" {
            let used = Set(set.meetings.values.flatMap(\.formatIDs))
            chosen = chosen.filter { used.contains($0.id) }
        }
        let ids = Set(q.list("format_ids").compactMap { Int($0) })
        if !ids.isEmpty { chosen = chosen.filter { ids.contains($0.id) } }
        let keys = Set(q.list("key_strings"))
        return langs.flatMap { lang in
            chosen.filter { keys.isEmpty || keys.contains($0.translations[lang]?.key ?? "") }
                .compactMap { DemoRender.format($0, lang: lang) }
        }
    }

    private static func serviceBodies(_ q: DemoQuery, _ set: DemoDataSet) -> [DemoJSON] {
        let services = q.signedIDs("services")
        let recursive = q.string("recursive") == "1"
        var ids = Set(set.serviceBodies.map(\.id))
        if !services.include.isEmpty {
            ids = recursive ? set.withDescendants(services.include) : services.include
            if q.string("parents") == "1" { ids = set.withAncestors(ids) }
        }
        ids.subtract(recursive ? set.withDescendants(services.exclude) : services.exclude)
        return set.serviceBodies.filter { ids.contains($0.id) }.sorted { $0.id < $1.id }.map(DemoRender.serviceBody)
    }

    // MARK: GetFieldValues

    private static func fieldValues(_ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        guard let key = q.nonEmpty("meeting_key"), DemoFields.visibleKeys.contains(where: { $0.0 == key }) else {
            return .message("The meeting_key field is required and must be a field key.", status: 400)
        }
        let specific = Set(q.list("specific_formats").compactMap { Int($0) })
        let all = q.string("all_formats") == "1"
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for m in set.sortedMeetings where m.published {
            var value: String
            if key == "formats" {
                var ids = m.formatIDs.sorted()
                if !specific.isEmpty {
                    if all && !specific.isSubset(of: Set(ids)) { continue }
                    ids = ids.filter { specific.contains($0) }
                }
                value = ids.map(String.init).joined(separator: ",")
            } else {
                value = DemoRender.value(key, of: m, in: set, lang: "en")
            }
            if value.isEmpty { value = "NULL" }
            if groups[value] == nil { order.append(value) }
            groups[value, default: []].append(m.id)
        }
        return .json(.array(order.map { value in
            .object([(key, .string(value)), ("ids", .string(groups[value]!.map(String.init).joined(separator: ",")))])
        }))
    }

    // MARK: GetChanges

    private static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: y, month: m, day: d))
    }

    private static func changes(_ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        var list = set.changes
        for (name, isEnd) in [("start_date", false), ("end_date", true)] {
            guard let text = q.nonEmpty(name) else { continue }
            guard let date = day(text) else {
                let message = "The \(name.replacingOccurrences(of: "_", with: " ")) field must match the format Y-m-d."
                return .json(.object([("message", .string(message)), ("errors", .object([(name, .array([.string(message)]))]))]),
                             status: 422)
            }
            list = list.filter { isEnd ? $0.date < date.addingTimeInterval(86_400) : $0.date >= date }
        }
        if let id = q.int("meeting_id") { list = list.filter { $0.meetingID == id } }
        if let id = q.int("service_body_id") { list = list.filter { $0.serviceBodyID == id } }
        list.sort { ($0.date, $0.id) > ($1.date, $1.id) }
        return .json(.array(list.map { DemoRender.change($0, set) }))
    }

    // MARK: GetServerInfo, GetCoverageArea

    private static func serverInfo(_ set: DemoDataSet) -> DemoJSON {
        let keys = DemoFields.visibleKeys.map(\.0) + ["root_server_uri", "format_shared_id_list"]
        let s: (String) -> DemoJSON = { .string($0) }
        return .object([
            ("version", s("3.1.2")), ("versionInt", s("3001002")), ("langs", s("en,es")), ("nativeLang", s("en")),
            ("centerLongitude", s("-93.27")), ("centerLatitude", s("44.98")), ("centerZoom", s("10")),
            ("defaultDuration", s("1:00:00")), ("regionBias", s("us")), ("charSet", s("UTF-8")), ("distanceUnits", s("mi")),
            ("semanticAdmin", s("0")), ("emailEnabled", s("0")), ("emailIncludesServiceBodies", s("0")),
            ("changesPerMeeting", s("5")), ("meeting_states_and_provinces", s("NL,SR")),
            ("meeting_counties_and_sub_provinces", s("Lakeshore,Cedar,Riverside,Prairie")),
            ("available_keys", s(keys.joined(separator: ","))), ("google_api_key", s("")),
            ("dbVersion", s("demo-data")), ("dbPrefix", s("demo")), ("meeting_time_zones_enabled", s("0")),
            ("phpVersion", s("demo")), ("auto_geocoding_enabled", .bool(false)), ("county_auto_geocoding_enabled", .bool(false)),
            ("zip_auto_geocoding_enabled", .bool(false)), ("commit", s("BMLT demo server (demo data, not real meetings)")),
            ("default_closed_status", .bool(true)), ("aggregator_mode_enabled", .bool(false)),
        ])
    }

    private static func coverage(_ set: DemoDataSet) -> DemoJSON {
        let meetings = Array(set.meetings.values)
        let lats = meetings.map(\.latitude), longs = meetings.map(\.longitude)
        let text: (Double?) -> DemoJSON = { .string($0.map(DemoText.coordinate) ?? "") }
        return .object([("nw_corner_longitude", text(longs.min())), ("nw_corner_latitude", text(lats.max())),
                        ("se_corner_longitude", text(longs.max())), ("se_corner_latitude", text(lats.min()))])
    }
}
