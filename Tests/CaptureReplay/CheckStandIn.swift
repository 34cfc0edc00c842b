import Foundation
import LoopbackHTTPServer

/// A root server of one generation for `bmlt-observer check` (issue 58): the whole read interface and the meeting
/// writes, its meetings and change log following the writes, built from the captures in `../shared/fixtures`
/// (`server-truths/` first) and the servers' source. Each behaviour names what it copies:
///
/// - **Meetings**: 2.16.6 holds the 1,512 published meetings of `rootserver/json_GetSearchResults_all.json` (its order
///   kept: 2.x sorts by weekday and start time only) and the unpublished 6 and 33 of
///   `server-truths/216-GetSearchResults-meeting_ids-weekdays.json`; 3.1.2, 4.1.0 and 4.2.7 hold the full meetings of their
///   `005-…` and `012-…` captures, 2339 and 1314 from their `server-truths/` files (1314's hidden contact values from
///   `…-api-v1-meetings-1314-admin.json`), and 6 and 33 unpublished (the same sample data: 2.16.6 returns them,
///   `312-…-meeting_ids-weekdays.json` shows 3.1.2 hides them); the aggregator holds `aggregator-4x/07-…` and `11-…`.
/// - **Searches** (`CheckStandIn+Search.swift`): 2.x answers `meeting_ids[]` with exactly those meetings, published or
///   not, ignoring every other criterion (`216-GetSearchResults-meeting_ids-weekdays.json`; 2.16.6
///   `client_interface/csv/common_search.inc.php`: "that defines the entire search. We ignore everything else");
///   3.x/4.x apply every criterion and hide unpublished meetings unless `advanced_published` asks
///   (`312-…`, `427-…`; `SwitcherController::getSearchResults`); 3.x/4.x blank hidden fields in every public search
///   (`…-hidden-fields-public.json`), 2.x too for anonymous readers and shows `observer_only#@-@#prompt#@-@#value` to a
///   logged-in administrator (2.16.6 `search_results_csv.php`), with data fields as `prompt#@-@#value` (the train and bus
///   lines of `json_GetSearchResults_all.json`).
/// - **2.16.6 behind Apache**: a request line over 8,190 bytes is answered 414 with Apache's page
///   (`server-truths/216-apache-414-headers.txt`, `216-apache-414-body.html`).
/// - **Writes** (`CheckStandIn+Admin.swift`): 2.x `json.php` with a cookie session per login, `add_meeting` that ignores
///   `published` (`216-admin-add_meeting-published-1.json`, the meeting stored unpublished) and a `modify_meeting` that
///   publishes (`216-admin-modify_meeting-published-1.json`); 3.x/4.x `/api/v1` with a bearer token per login, meetings
///   in the shape of `114-meeting-2.json`, `204` answers; an aggregator refuses every write with 403
///   (`aggregator-4x/39-api-meetings-1-PATCH-403.json`).
/// - Every reply carries the server's `Date` header; change records are dated by the server's clock plus
///   `recordClockOffset` (a database on another time zone: review R10).
/// - Not from a capture (none holds them), said so: 2.x's `get_meetings` gives a hidden field's value as stored (the
///   administrator may read it); 3.x/4.x serve data fields without 2.x's prompt (no captured meeting has one);
///   GetFieldValues, GetCoverageArea and the NAWS export are computed from the meetings held, in the captures' shapes.
///   `compresses` and `searchAnswersHTML`, `failWrite` and `stallWrite` are the broken or unusual servers the tests
///   ask for.
// `@unchecked Sendable`: every mutable property is read and written under `lock` (the server's handler runs on its threads).
public final class CheckStandIn: @unchecked Sendable {
    /// Which server.
    public enum Generation: String, Sendable, CaseIterable {
        case v216 = "rootserver", v312 = "rootserver-3x", v410 = "rootserver-4x", v427 = "rootserver-42", aggregator = "aggregator-4x"

        var isLegacy: Bool { self == .v216 }
        var isAggregator: Bool { self == .aggregator }
    }

    public let generation: Generation
    public private(set) var server: LoopbackHTTPServer!
    let lock = NSLock()
    /// The meetings held, in the semantic interface's keys and text values, hidden and data fields as stored (no prompt).
    var meetings: [Int: [String: String]] = [:]
    /// The order new ties keep (2.x lists ties in the order it stored them).
    var insertion: [Int: Int] = [:]
    var deleted: [Int: [String: String]] = [:]
    /// The change log, newest first, in `GetChanges`'s shape.
    var log: [[String: Any]] = []
    var nextID = 5000
    var nextChange = 40000
    /// Open logins: 2.x session cookies and 3.x/4.x bearer tokens, each to its user id.
    var sessions: [String: Int] = [:]
    /// The meetings' keys in the generation's order (its first captured meeting's).
    var keyOrder: [String] = []
    /// Format id → key (the server's language) and the formats' rows as `GetFormats` gives them.
    var formatKeys: [Int: String] = [:]
    var formatRows: [[String: Any]] = []

    // MARK: - What a test sets

    /// The longest request line the server takes (Apache's `LimitRequestLine`, 8,190 on 2.16.6 here); nil: no limit.
    public var requestLineLimit: Int? { get { lock.withLock { lineLimit } } set { lock.withLock { lineLimit = newValue } } }
    private var lineLimit: Int?
    /// Seconds the change records' dates run ahead of the server's `Date` header.
    public var recordClockOffset: TimeInterval { get { lock.withLock { recordOffset } } set { lock.withLock { recordOffset = newValue } } }
    var recordOffset: TimeInterval = 0
    /// The `date_int` every later change record carries, verbatim (`nil`: the time of the change, `recordClockOffset`
    /// off): a server's database can hold any number there, and `WireValue` reads `"1e300"` as a finite date.
    public var recordDateText: String? { get { lock.withLock { recordDate } } set { lock.withLock { recordDate = newValue } } }
    var recordDate: String?
    /// `GetSearchResults` answers 200 with an HTML page (the one 4.2.7 answers where no JSON is:
    /// `rootserver-42/235-legacy-json-get_meeting_search_results-unsupported.html`).
    public var searchAnswersHTML: Bool { get { lock.withLock { htmlSearch } } set { lock.withLock { htmlSearch = newValue } } }
    private var htmlSearch = false
    /// Every answer of the read interface comes gzip-compressed when the client asks for it (Apache's mod_deflate, nginx's
    /// gzip): `Content-Encoding: gzip` on a `StoredGzip` body.
    public var compresses: Bool { get { lock.withLock { gzip } } set { lock.withLock { gzip = newValue } } }
    private var gzip = false
    /// The `count`th meeting write from now (1 = the next) fails with this status, nothing done.
    public func failWrite(_ count: Int, status: Int) { lock.withLock { writeFailure = (count, status, false) } }
    /// The `count`th meeting write from now is never answered (and not done): a server that hangs mid-way.
    public func stallWrite(_ count: Int) { lock.withLock { writeFailure = (count, 0, true) } }
    private var writeFailure: (count: Int, status: Int, stall: Bool)?
    /// The meeting writes received (logins and logouts aside).
    public var writes: Int { lock.withLock { writeCount } }
    var writeCount = 0
    /// When each meeting write arrived.
    public var writeTimes: [Date] { lock.withLock { arrivals } }
    private var arrivals: [Date] = []

    /// Starts the stand-in with the generation's meetings.
    public init(_ generation: Generation) throws {
        self.generation = generation
        lineLimit = generation == .v216 ? 8190 : nil
        seed()
        server = try LoopbackHTTPServer { [unowned self] request in self.answer(request) }
    }

    public func stop() { server.stop() }
    public var rootURL: URL { server.baseURL.appendingPathComponent("main_server") }

    // MARK: - What a test reads

    /// The ids of the meetings a service body holds (published or not).
    public func meetingIDs(inServiceBody id: Int) -> Set<Int> {
        lock.withLock { Set(meetings.filter { $0.value["service_body_bigint"] == String(id) }.keys) }
    }
    /// The names of every meeting held, by id.
    public var names: [Int: String] { lock.withLock { meetings.mapValues { $0["meeting_name"] ?? "" } } }
    /// The change records held, newest first (`change_type`, `meeting_id`).
    public var changeRecords: [(type: String, meetingID: Int)] {
        lock.withLock { log.map { ($0["change_type"] as? String ?? "", Int($0["meeting_id"] as? String ?? "") ?? 0) } }
    }
    /// The password every captured account logs in with.
    public static let password = "CoreysGoryStory"

    // MARK: - Seeding

    private func seed() {
        let folder = generation.rawValue
        func list(_ folder: String, _ file: String) -> [[String: Any]] {
            let value = try? JSONSerialization.jsonObject(with: FixtureCaptures.body(folder, file))
            return (value as? [[String: Any]]) ?? ((value as? [String: Any])?["meetings"] as? [[String: Any]]) ?? []
        }
        var found: [[String: Any]] = []
        var unpublished: [[String: Any]] = []
        let truths216 = list("server-truths", "216-GetSearchResults-meeting_ids-weekdays.json")
        unpublished = truths216.filter { ["6", "33"].contains("\($0["id_bigint"] ?? "")") }
        switch generation {
        case .v216:
            found = list(folder, "json_GetSearchResults_all.json")
        case .v312, .v410, .v427:
            found = list(folder, "005-GetSearchResults-services-weekday.json") + list(folder, "012-GetSearchResults-meeting_ids.json")
            let truth = generation == .v312 ? "312" : generation == .v427 ? "427" : nil
            if let truth {
                found += list("server-truths", "\(truth)-GetSearchResults-meeting_ids-weekdays.json")
                found += list("server-truths", "\(truth)-GetSearchResults-hidden-fields-public.json")
            }
        case .aggregator:
            found = list(folder, "07-GetSearchResults-services-3-roots-weekday.json") + list(folder, "11-GetSearchResults-meeting_ids-one-meeting-3-roots.json")
            unpublished = []
        }
        keyOrder = found.first.map { Self.orderedKeys(folder, $0) } ?? []
        for object in found + unpublished {
            guard let id = Int("\(object["id_bigint"] ?? "")"), meetings[id] == nil else { continue }
            var meeting: [String: String] = [:]
            for (key, value) in object { meeting[key] = Self.plain("\(value)") }
            if unpublished.contains(where: { "\($0["id_bigint"] ?? "")" == String(id) }) { meeting["published"] = "0" }
            for key in keyOrder where meeting[key] == nil { meeting[key] = "" }
            meetings[id] = meeting
            insertion[id] = insertion.count
        }
        // 1314's hidden values as the administration interface reads them (`…-api-v1-meetings-1314-admin.json`).
        if let truth = generation == .v312 ? "312" : generation == .v427 ? "427" : nil,
           let admin = try? JSONSerialization.jsonObject(with: FixtureCaptures.body("server-truths", "\(truth)-api-v1-meetings-1314-admin.json")) as? [String: Any] {
            for key in Self.hiddenKeys { if let value = admin[key] as? String { meetings[1314]?[key] = value } }
        }
        formatRows = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(folder, Self.file(generation, "formats")))) as? [[String: Any]] ?? []
        let language = "en"
        for row in formatRows where (row["lang"] as? String ?? language) == language {
            if let id = Int("\(row["id"] ?? "")") { formatKeys[id] = row["key_string"] as? String }
        }
    }

    /// The keys in the capture's own order (JSONSerialization forgets it): read from the capture's text.
    static func orderedKeys(_ folder: String, _ first: [String: Any]) -> [String] {
        let keys = Array(first.keys)
        let text = String(decoding: FixtureCaptures.body(folder, folder == "rootserver" ? "json_GetSearchResults_all.json"
                                                          : folder == "aggregator-4x" ? "07-GetSearchResults-services-3-roots-weekday.json"
                                                          : "005-GetSearchResults-services-weekday.json").prefix(4000), as: UTF8.self)
        return keys.sorted { (text.range(of: "\"\($0)\":")?.lowerBound ?? text.endIndex) < (text.range(of: "\"\($1)\":")?.lowerBound ?? text.endIndex) }
    }

    /// A value without 2.x's `prompt#@-@#` (stored plain; the prompt is put back when 2.x serves it).
    static func plain(_ value: String) -> String {
        guard let range = value.range(of: "#@-@#", options: .backwards) else { return value }
        return String(value[range.upperBound...])
    }

    /// Fields hidden from the public (visibility 1 in `rootserver/admin_json_get_field_templates.json`; 3.x/4.x's
    /// GetFieldKeys leaves them out).
    static let hiddenKeys = ["contact_phone_1", "contact_email_1", "contact_name_1", "contact_phone_2", "contact_email_2", "contact_name_2",
                             "email_contact"]

    /// The capture a generation answers a switcher with.
    static func file(_ generation: Generation, _ what: String) -> String {
        switch (generation, what) {
        case (.v216, "info"): return "json_GetServerInfo.json"
        case (.v216, "formats"): return "json_GetFormats_show_all.json"
        case (.v216, "bodies"): return "json_GetServiceBodies.json"
        case (.v216, "keys"): return "json_GetFieldKeys.json"
        case (.aggregator, "info"): return "01-GetServerInfo.json"
        case (.aggregator, "formats"): return "23-GetFormats-all.json"
        case (.aggregator, "bodies"): return "25-GetServiceBodies-all.json"
        case (.aggregator, "keys"): return "27-GetFieldKeys.json"
        case (_, "info"): return "001-GetServerInfo.json"
        case (_, "formats"): return "003-GetFormats-show_all.json"
        case (_, "bodies"): return "004-GetServiceBodies.json"
        default: return "016-GetFieldKeys.json"
        }
    }

    // MARK: - Answers

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        if let limit = requestLineLimit, "\(request.method) \(request.target) HTTP/1.1".utf8.count > limit {
            // Apache's own answer (216-apache-414-headers.txt): its page, iso-8859-1, the connection closed.
            return .respond(status: 414, headers: ["Content-Type": "text/html; charset=iso-8859-1", "Connection": "close", "Date": httpDate(Date())],
                            body: FixtureCaptures.body("server-truths", "216-apache-414-body.html"))
        }
        let path = request.path.replacingOccurrences(of: "/main_server/", with: "")
        let isWrite = request.method != "GET" && !path.contains("/auth/")
            && !String(decoding: request.body, as: UTF8.self).contains("admin_action=login")
        if isWrite {
            let fate = lock.withLock { () -> (Int, Bool)? in
                writeCount += 1
                arrivals.append(Date())
                guard var failure = writeFailure else { return nil }
                failure.count -= 1
                writeFailure = failure.count > 0 ? failure : nil
                return failure.count == 0 ? (failure.status, failure.stall) : nil
            }
            if let (status, stall) = fate {
                if stall { return .silence }
                return stamped(.respond(status: status, headers: ["Content-Type": "text/html"], body: Data("<html><body>Internal Server Error</body></html>".utf8)))
            }
        }
        if path.hasSuffix("GetLangs.php") {
            return generation.isLegacy ? stamped(capture("rootserver", "json_GetLangs.json")) : stamped(.respond(status: 404, headers: [:], body: Data()))
        }
        if path.hasPrefix("client_interface") {
            let answer = semantic(request, path: path)
            guard compresses, request.headers["accept-encoding"]?.contains("gzip") == true,
                  case .respond(let status, var headers, let body) = answer else { return stamped(answer) }
            headers["Content-Encoding"] = "gzip"
            return stamped(.respond(status: status, headers: headers, body: StoredGzip.encode(body)))
        }
        if generation.isLegacy { return stamped(legacy(request)) }
        return stamped(rest(request, path: path))
    }

    /// A reply with the server's `Date` header.
    private func stamped(_ behavior: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
        guard case .respond(let status, var headers, let body) = behavior else { return behavior }
        headers["Date"] = httpDate(Date())
        return .respond(status: status, headers: headers, body: body)
    }

    func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    func capture(_ folder: String, _ file: String, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"], body: CapturedToday.served(folder, file))
    }

    static func json(_ value: Any, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"],
                 body: (try? JSONSerialization.data(withJSONObject: value, options: [.withoutEscapingSlashes])) ?? Data())
    }

    /// A change record as `GetChanges` gives it (newest first), dated by the server's clock plus `recordClockOffset`.
    /// Called with the lock held.
    func record(_ type: String, _ id: Int, user: Int, before: [String: String]?, after: [String: String]?) {
        var data: [String: Any] = [:]
        if let before { data["before"] = before }
        if let after { data["after"] = after }
        nextChange += 1
        let meeting = after ?? before ?? [:]
        log.insert(["date_int": recordDate ?? String(Int(Date().addingTimeInterval(recordOffset).timeIntervalSince1970)), "date_string": "",
                    "change_type": type, "change_id": String(nextChange), "meeting_id": String(id),
                    "meeting_name": meeting["meeting_name"] ?? "", "user_id": String(user), "user_name": userName(user),
                    "service_body_id": meeting["service_body_bigint"] ?? "", "service_body_name": "",
                    "meeting_exists": meetings[id] == nil ? "0" : "1", "details": "", "json_data": data], at: 0)
    }

    /// A user's display name as the change log gives it (from the captured users; 2.x: its one administrator).
    func userName(_ id: Int) -> String {
        if generation.isLegacy { return "Nassau Area Administrator" }
        let users = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "150-users.json"))) as? [[String: Any]]
        return users?.first { ($0["id"] as? Int) == id }?["displayName"] as? String ?? "User \(id)"
    }
}
