import BMLTKit
import Foundation

/// The server's ways, each named as found, and what BMLTKit does about it: its generation, how it answers a search
/// by ids (2.x ignores every other criterion and returns unpublished meetings: `server-truths/216-GetSearchResults-
/// meeting_ids-weekdays.json`), hidden fields, its default order, its change records' clock against its `Date` header,
/// compression. A way is a fact (✔ with what was found); a check beside it says whether BMLTKit copes (✘ if not).
@MainActor
struct ServerWays {
    let runner: CheckRunner
    let connection: BMLTConnection
    let probe: WireProbe
    let findings: CheckFindings

    func generation() async throws {
        try await runner.run("way.generation", "way: generation", .way) {
            guard let info = findings.info else { return .skipped("the server did not validate") }
            return .passed("\(info.version): \(findings.generation)", ["version": info.version, "major": info.majorVersion])
        }
    }

    /// A search by ids with a weekday, raw (what the server does) and through BMLTKit (what apps get).
    func searchByIDs() async throws {
        var asked: (ids: [Int], day: BMLTWeekday, other: BMLTMeeting, unpublished: Int?)?
        try await runner.run("search-by-ids", "a search by ids (with a weekday)") {
            guard let region = findings.region?.meetings, let first = region.first(where: { $0.weekday != nil }), let day = first.weekday else {
                return .skipped("the region holds no meeting with a weekday")
            }
            guard let other = region.first(where: { $0.weekday != nil && $0.weekday != day }) else {
                return .skipped("every meeting of the region is on one day")
            }
            let unpublished = findings.unpublishedIDs.first
            let ids: [Int] = [first.id, other.id] + (unpublished.map { [$0] } ?? [])
            asked = (ids: ids, day: day, other: other, unpublished: unpublished)
            // What the server itself answers (anonymous, no cookie).
            let raw = try await probe.semantic([("switcher", "GetSearchResults")] + ids.map { ("meeting_ids[]", String($0)) }
                                               + [("weekdays[]", String(day.rawValue)), ("data_field_key", "id_bigint,weekday_tinyint,published")])
            findings.remember(raw)
            if raw.status == 200, let returned = raw.meetingIDs {
                findings.byIDIgnoresCriteria = returned.contains(other.id)
                findings.byIDReturnsUnpublished = unpublished.map { returned.contains($0) }
            }
            // What BMLTKit gives an app.
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = ids
            criteria.weekdays = [day]
            let got = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
            let wrong = got.filter { $0.id != first.id }
            let facts: [String: Any] = ["asked": ids, "weekday": day.rawValue, "returned": got.map(\.id)]
            guard wrong.isEmpty, got.map(\.id) == [first.id] else {
                let said = wrong.map { meeting -> String in
                    meeting.id == unpublished ? "#\(meeting.id) (unpublished)" : "#\(meeting.id) (\(meeting.weekday?.name ?? "no day"))"
                }
                let detail = got.contains(where: { $0.id == first.id }) ? "" : "; #\(first.id), the one that matches, is missing"
                return .failed("BMLTKit returned " + (said.isEmpty ? "nothing else" : said.joined(separator: ", "))
                               + " for ids \(ids.map { "#\($0)" }.joined(separator: ", ")) on \(day.name)s\(detail)",
                               advice: "Apps that search by ids with other criteria on this server show meetings outside their search"
                                   + (unpublished != nil && wrong.contains { $0.id == unpublished } ? " and unpublished ones" : "")
                                   + ": BMLTKit completes these criteria itself on every generation, so this is a BMLTKit bug — report it with "
                                   + "the --verbose output; meanwhile search by ids alone and filter in the app.",
                               facts)
            }
            return .passed("ids \(ids.map { "#\($0)" }.joined(separator: ", ")) on \(day.name)s: only #\(first.id)"
                           + (unpublished == nil ? " (no unpublished meeting named to the public to try)" : ", never the unpublished #\(unpublished!)"),
                           facts)
        }
        try await runner.run("way.by-id-search", "way: a search by ids", .way) {
            guard let asked, let ignores = findings.byIDIgnoresCriteria else {
                return .skipped("the search by ids could not be made")
            }
            var parts: [String] = []
            parts.append(ignores ? "the server ignores every other criterion when ids are given (it returned #\(asked.other.id), "
                                   + "a \(asked.other.weekday?.name ?? "?") meeting, for \(asked.day.name)s)"
                                 : "the server applies the other criteria beside the ids")
            switch findings.byIDReturnsUnpublished {
            case true?: parts.append("and returns the unpublished #\(asked.unpublished!) to anyone")
            case false?: parts.append("and never returns the unpublished #\(asked.unpublished!)")
            case nil: parts.append("(no unpublished meeting is named to the public to try)")
            }
            var facts: [String: Any] = ["ignoresOtherCriteria": ignores]
            facts["returnsUnpublished"] = findings.byIDReturnsUnpublished
            return .passed(parts.joined(separator: " "), facts)
        }
    }

    /// The default order of a search without `sort_keys`, read from the whole region as the server listed it.
    func sortKey() async throws {
        try await runner.run("way.sort-key", "way: default order", .way) {
            guard let meetings = findings.region?.meetings, meetings.count > 2 else { return .skipped("too few meetings to see an order") }
            let holding = SortOrder.candidates.filter { SortOrder.holds($0.keys, over: meetings) }
            // The most precise: an order whose keys begin another's that holds too says less.
            let fitting = holding.filter { order in
                !holding.contains { $0.keys.count > order.keys.count && Array($0.keys.prefix(order.keys.count)) == order.keys }
            }.map(\.name)
            guard !fitting.isEmpty else {
                return .passed("none BMLTKit knows (not by weekday and start time): a list brought up to date is downloaded whole "
                               + "where the order matters", ["orders": [String]()])
            }
            return .passed("by " + fitting.joined(separator: ", or by ") + (fitting.count > 1 ? " (this list does not tell which)" : ""),
                           ["orders": fitting])
        }
    }

    /// What the public sees of the fields hidden from it (`contact_*`, `email_contact`).
    func hiddenFields() async throws {
        try await runner.run("way.hidden-fields", "way: hidden fields", .way) {
            guard let meetings = findings.region?.meetings else { return .skipped("the region could not be read") }
            let shown = meetings.filter { meeting in
                [meeting.contactName1, meeting.contactPhone1, meeting.contactEmail1, meeting.contactName2, meeting.contactPhone2,
                 meeting.contactEmail2, meeting.emailContact].contains { !($0 ?? "").isEmpty }
            }
            findings.publicHiddenValues = shown.count
            if shown.isEmpty {
                return .passed("none of the \(plural(meetings.count, "meeting")) shows a contact or a contact email to the public"
                               + " (with --user and --service-body the check saves one and looks)", ["shown": 0])
            }
            return .passed("\(plural(shown.count, "meeting")) show contacts to the public (e.g. #\(shown[0].id))", ["shown": shown.count])
        }
    }

    /// The change records' clock against the server's `Date` header: a record dated after the server's own "now" shows a
    /// database on another clock or time zone (3.x/4.x date records with the database's time).
    func changeClock() async throws {
        let newest = findings.newestChange
        try await runner.run("way.change-clock", "way: change records' clock", .way) {
            guard let clock = findings.serverDate else { return .skipped("the server sent no Date header") }
            let serverNow = clock.server.addingTimeInterval(Date().timeIntervalSince(clock.local))
            let skew = Date().timeIntervalSince(serverNow)
            let local = abs(skew) < 120 ? "within 2 min of this computer's" : "\(Self.wholeSeconds(skew)) s off this computer's"
            guard let newest else {
                return .passed("the server's clock (Date header) is \(local); no recent change record to compare"
                               + " (with --user and --service-body the check dates one of its own)", ["serverClockSkew": Self.wholeSeconds(skew)])
            }
            let ahead = newest.timeIntervalSince(serverNow)
            guard ahead < 600 else {
                return .failed("the newest change record is dated \(Self.duration(ahead)) after the server's own clock (its Date header)",
                               advice: "The server's database runs on another clock or time zone than its web server: set the database's time "
                                   + "zone to UTC. Until then apps that bring lists up to date from the change log can miss changes.",
                               ["recordAheadSeconds": Self.wholeSeconds(ahead)])
            }
            return .passed("the server's clock (Date header) is \(local); the newest change record is not ahead of it",
                           ["serverClockSkew": Self.wholeSeconds(skew)])
        }
    }

    /// Whether the server compresses its answers (URLSession asks for it; BMLTKit takes what comes).
    func compression() async throws {
        try await runner.run("way.compression", "way: compression", .way) {
            let reply = try await probe.semantic([("switcher", "GetServiceBodies")])
            findings.remember(reply)
            guard reply.status == 200 else { return .skipped("GetServiceBodies answered HTTP \(reply.status)") }
            if let encoding = reply.headers["content-encoding"], !encoding.isEmpty, encoding != "identity" {
                let wire = reply.headers["content-length"].flatMap(Int.init).map { " (\(counted(reply.body.count)) bytes in \(counted($0)))" } ?? ""
                return .passed("answers compressed (\(encoding))\(wire); URLSession asks for it and BMLTKit reads it decompressed",
                               ["encoding": encoding])
            }
            return .passed("answers uncompressed (no Content-Encoding, though URLSession asks for gzip): its administrator could turn "
                           + "compression on (Apache mod_deflate, nginx gzip) and lists would travel in about a fifth of the bytes",
                           ["encoding": "none"])
        }
    }

    /// Whole seconds of `seconds`, bounded (±1e12; 0 for NaN): a change record's date is whatever finite number the
    /// server sent (`"1e300"` included), and `Int(_:)` of one out of range would end the check that reports it.
    static func wholeSeconds(_ seconds: TimeInterval) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(max(-1e12, min(1e12, seconds)).rounded())
    }

    static func duration(_ seconds: TimeInterval) -> String {
        seconds >= 5400 ? String(format: "%.1f h", seconds / 3600) : "\(Int((seconds / 60).rounded())) min"
    }
}

/// The sort orders a root server knows by name (3.x/4.x `SwitcherController::getSearchResults`: `sort_key` or the
/// server's `default_sort_key`, else weekday, start time, duration), and whether a list is in one of them.
enum SortOrder {
    static let candidates: [(name: String, keys: [String])] = [
        ("weekday and start time (2.x's order: ties as stored)", ["weekday_tinyint", "start_time"]),
        ("weekday, start time and duration (no default_sort_key)", ["weekday_tinyint", "start_time", "duration_time"]),
        ("\"time\": weekday, start time, town", ["weekday_tinyint", "start_time", "location_municipality", "location_city_subsection", "location_neighborhood"]),
        ("\"weekday\": weekday, town, start time", ["weekday_tinyint", "location_municipality", "location_city_subsection", "start_time", "location_neighborhood"]),
        ("\"town\"", ["location_municipality", "location_city_subsection", "location_neighborhood", "weekday_tinyint", "start_time"]),
        ("\"state\"", ["location_province", "location_municipality", "location_city_subsection", "weekday_tinyint", "start_time"]),
        ("\"weekday_state\"", ["weekday_tinyint", "location_province", "location_municipality", "start_time", "location_city_subsection"]),
    ]

    /// Whether `meetings` never go backwards by `keys` (text compared as a case- and accent-blind database would).
    static func holds(_ keys: [String], over meetings: [BMLTMeeting]) -> Bool {
        zip(meetings, meetings.dropFirst()).allSatisfy { compare($0, $1, keys) != .orderedDescending }
    }

    static func compare(_ a: BMLTMeeting, _ b: BMLTMeeting, _ keys: [String]) -> ComparisonResult {
        for key in keys {
            let result: ComparisonResult
            switch key {
            case "weekday_tinyint": result = number(a.weekday?.rawValue, b.weekday?.rawValue)
            case "start_time": result = number(a.startTime.map { $0.hour * 3600 + $0.minute * 60 + $0.second },
                                               b.startTime.map { $0.hour * 3600 + $0.minute * 60 + $0.second })
            case "duration_time": result = number(a.duration.map { Int($0) }, b.duration.map { Int($0) })
            case "location_municipality": result = text(a.municipality, b.municipality)
            case "location_city_subsection": result = text(a.citySubsection, b.citySubsection)
            case "location_neighborhood": result = text(a.neighborhood, b.neighborhood)
            case "location_province": result = text(a.province, b.province)
            default: result = .orderedSame
            }
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    private static func number(_ a: Int?, _ b: Int?) -> ComparisonResult {
        let x = a ?? -1, y = b ?? -1
        return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    }

    private static func text(_ a: String?, _ b: String?) -> ComparisonResult {
        (a ?? "").trimmingCharacters(in: .whitespaces).compare((b ?? "").trimmingCharacters(in: .whitespaces),
                                                               options: [.caseInsensitive, .diacriticInsensitive])
    }
}
