import Foundation
import LoopbackHTTPServer
@testable import BMLTKit

/// A root server with state, of one generation, for refresh tests: its meetings, formats, service bodies and change
/// log change as a test edits them, and every read answers from what it holds now. Built from the captures in
/// `../shared/fixtures/` of that generation:
/// - the meetings: `rootserver/json_GetSearchResults_services_1002.json` (2.16.6's 59 meetings of service body 1002),
///   and for 3.1.2/4.x also `005-GetSearchResults-services-weekday.json`, every meeting in the key set of that
///   generation's 005 capture (4.x lists `service_body_name`, 3.1.2 does not); beside them meetings 6 and 33 of service
///   body 1005, unpublished, as `server-truths/216-GetSearchResults-meeting_ids-weekdays.json` has them;
/// - the search replies: a list, or `{"meetings":[…],"formats":[…]}` with `get_used_formats`
///   (`006-GetSearchResults-get_used_formats.json`, `rootserver/json_GetSearchResults_get_used_formats.json`); 2.16.6's
///   empty answer `{}` (`json_GetSearchResults_empty.json`); anonymous searches list published meetings only unless
///   `advanced_published` asks (`json_GetSearchResults_unpublished_only_anon.json`; 2.16.6 `common_search.inc.php`
///   reads it for anyone, 3.x/4.x `SwitcherController::getSearchResults` too); distances as the server's SQL has them
///   (69 mi / 111.111 km a degree, `MeetingRepository`); `data_field_key` choosing the fields written;
/// - `meeting_ids[]`: on 3.1.2/4.x beside every other filter (`312-`/`427-GetSearchResults-meeting_ids-weekdays.json`:
///   2339 alone), on 2.16.6 the whole search — every meeting named, unpublished ones too, no other filter, no centre
///   (`server-truths/216-GetSearchResults-meeting_ids-weekdays.json`; its `common_search.inc.php`: "that defines the
///   entire search. We ignore everything else"; `distance_in_km` `""`);
/// - the order: 2.16.6 by weekday, start and the id as text (`json_GetSearchResults_all.json`), 3.1.2/4.x by weekday,
///   start and duration, ties in the database's order — not the id's (`005-…`: 828 before 714), a hidden row number
///   here — or by the server's `default_sort_key` (`defaultSortKey`: the keys of each alias as 4.x
///   `SwitcherController::getSearchResults` lists them); used formats by first use (2.16.6) or by id (3.x/4.x);
/// - the change log: `GetChanges` records newest first with `json_data` before/after, formats as key arrays
///   (`json_GetChanges_all.json`, `200-GetChanges-after-edits.json`), `start_date` a whole day; `date_int` off by
///   `databaseClockOffset` for a database not on UTC (3.x/4.x `MeetingChangeResource`: `strtotime` of MySQL's
///   `CURRENT_TIMESTAMP` in an app on UTC);
/// - a request line over `lineLimit` bytes (8,190, Apache's default `LimitRequestLine`) answered 414 as Apache answers it
///   (`server-truths/216-apache-414-headers.txt`, `216-apache-414-body.html`);
/// - formats and service bodies: `json_GetFormats.json`/`002-GetFormats.json`, `json_GetServiceBodies.json`/
///   `004-GetServiceBodies.json`; server info `json_GetServerInfo.json`/`001-GetServerInfo.json`, and for the
///   aggregator `aggregator-4x/01-GetServerInfo.json` with its empty change log (`28-GetChanges.json`).
final class RefreshStandIn: @unchecked Sendable {   // every field is behind `lock`
    enum Generation: String, CaseIterable, Sendable {
        case v2 = "rootserver", v3 = "rootserver-3x", v41 = "rootserver-4x", v42 = "rootserver-42"
        var isLegacy: Bool { self == .v2 }
    }

    struct Meeting {
        var fields: [String: String]
        var formatIDs: [Int]
        var row: Int
    }

    struct Format {
        var fields: [String: String]
        var id: Int { Int(fields["id"] ?? "") ?? 0 }
        var key: String { fields["key_string"] ?? "" }
    }

    let generation: Generation
    let isAggregator: Bool
    let lock = NSLock()
    var meetings: [Int: Meeting] = [:]
    var formats: [Format] = []
    var bodies: [[String: String]] = []
    var changes: [[String: Any]] = []
    var nextChangeID = 20_000
    /// The server's clock: minutes off the device's, moved on by every edit.
    var clock = Date().addingTimeInterval(7 * 60)
    /// The `Date` header of each reply (`nil`: none).
    var dateHeader: @Sendable (Date) -> String? = { RefreshStandIn.httpDate($0) }
    /// A reply of its own for `GetChanges` (a failure, a shape that cannot be trusted).
    var changeLogReply: (@Sendable () -> LoopbackHTTPServer.Behavior)?
    /// The server's `default_sort_key` (3.x/4.x): `nil`, the default order.
    var defaultSortKey: String?
    /// The longest request line answered (`nil`: any).
    var lineLimit: Int? = 8_190
    /// How far the database's clock is from UTC: each record's `date_int` is off by it.
    var databaseClockOffset: TimeInterval = 0
    /// The body bytes answered so far, by switcher.
    var bytesSent: [String: Int] = [:]
    /// Searches by id: how long each takes to answer, how many are being answered now and at most so far, and
    /// whether the first one fails (HTTP 500) at once — the others then wait, unanswered, until `byIDHolding` is
    /// turned off (120 s at most): none can end before the client has read the failure, so a search that sends
    /// another run after a failure is seen whatever the machine's load.
    var byIDDelay: TimeInterval = 0
    var byIDInFlight = 0
    var byIDMostInFlight = 0
    var byIDFailsFirst = false { didSet { byIDHolding = byIDFailsFirst } }
    var byIDHolding = false
    var byIDAnswered = 0
    var rng: SeededGenerator
    private(set) var server: LoopbackHTTPServer!

    /// `copies`: the meetings held that many times over, each copy's ids 100,000 further (a region of
    /// `copies` × about 100 meetings).
    init(_ generation: Generation, aggregator: Bool = false, seed: UInt64, copies: Int = 1) throws {
        self.generation = generation
        self.isAggregator = aggregator
        rng = SeededGenerator(seed: seed)
        let truths = try Self.objects(folder: "server-truths", "216-GetSearchResults-meeting_ids-weekdays.json")
        let legacy = try Self.objects(.v2, "json_GetSearchResults_services_1002.json")
            + truths.filter { truth in truth["id_bigint"] != "2339" }
        var sources = legacy
        var template: [String]? = nil
        if !generation.isLegacy {
            let native = try Self.objects(generation, "005-GetSearchResults-services-weekday.json")
            template = native.first.map { Array($0.keys) }
            sources = native + legacy.filter { old in !native.contains { $0["id_bigint"] == old["id_bigint"] } }
        }
        formats = try Self.objects(generation, generation.isLegacy ? "json_GetFormats.json" : "002-GetFormats.json").map(Format.init)
        bodies = try Self.objects(generation, generation.isLegacy ? "json_GetServiceBodies.json" : "004-GetServiceBodies.json")
        if copies > 1 {
            sources = (0..<copies).flatMap { copy in
                sources.map { source in
                    var moved = source
                    moved["id_bigint"] = String((Int(source["id_bigint"] ?? "") ?? 0) + copy * 100_000)
                    return moved
                }
            }
        }
        var rows = Array(0..<sources.count)
        rows.shuffle(using: &rng)
        for (index, source) in sources.enumerated() {
            var fields = source
            if let template {
                fields = Dictionary(uniqueKeysWithValues: template.map { ($0, source[$0] ?? "") })
            }
            let ids = (source["format_shared_id_list"] ?? "").split(separator: ",").compactMap { Int($0) }
            let byKey = (source["formats"] ?? "").split(separator: ",").compactMap { key in formats.first { $0.key == key }?.id }
            let ordered = byKey + ids.filter { !byKey.contains($0) }
            guard let id = Int(fields["id_bigint"] ?? "") else { continue }
            // The captures' meetings are all of service body 1002: some are spread over its sibling areas, so that
            // renaming one body touches a part of a list, not all of it.
            let truth = truths.contains { $0["id_bigint"] == fields["id_bigint"] }
            if Int.random(in: 0..<3, using: &rng) == 0, !truth {
                fields["service_body_bigint"] = ["1001", "1003", "1004", "1005"].randomElement(using: &rng)!
            }
            meetings[id] = Meeting(fields: fields, formatIDs: ordered, row: rows[index])
        }
        server = try LoopbackHTTPServer { [unowned self] request in
            guard request.query("meeting_ids[]") != nil else { return self.answer(request) }
            let (delay, fails) = self.locked { stand -> (TimeInterval, Bool) in
                stand.byIDInFlight += 1
                stand.byIDMostInFlight = max(stand.byIDMostInFlight, stand.byIDInFlight)
                stand.byIDAnswered += 1
                return (stand.byIDDelay, stand.byIDFailsFirst && stand.byIDAnswered == 1)
            }
            defer { self.locked { $0.byIDInFlight -= 1 } }
            if fails { return .respond(status: 500, headers: [:], body: Data("Internal Server Error".utf8)) }
            for _ in 0..<12_000 where self.locked({ $0.byIDHolding }) { Thread.sleep(forTimeInterval: 0.01) }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            return self.answer(request)
        }
    }

    deinit { server?.stop() }

    var rootURL: URL { server.baseURL.appendingPathComponent("main_server") }

    /// A capture's list of objects with every scalar as text (how the semantic interface sends them).
    static func objects(_ generation: Generation, _ name: String) throws -> [[String: String]] {
        try objects(folder: generation.rawValue, name)
    }

    static func objects(folder: String, _ name: String) throws -> [[String: String]] {
        let raw = try FixtureCorpus.raw(folder, name)
        let list = (raw as? [[String: Any]]) ?? ((raw as? [String: Any])?["meetings"] as? [[String: Any]]) ?? []
        return list.map { object in object.compactMapValues { value in
            if let text = value as? String { return text }
            if let number = value as? NSNumber { return number.stringValue }
            return nil
        } }
    }

    /// The `Date` header a server sends at `date`.
    static func httpDate(_ date: Date) -> String { HTTPHeaders.text(date) }

    func locked<T>(_ body: (RefreshStandIn) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }
}

/// A small seeded generator (SplitMix64), so a failing series reproduces from its seed.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
