import Foundation
import LoopbackHTTPServer

/// A stateful stand-in of a root server's meeting-write interface — 2.16.6's `json.php` or the `/api/v1` of 3.1.2, 4.1.0, 4.2.7 — that
/// can let a write through whole and then lose its answer, as a proxy or a dropped network does (issue 41).
///
/// Its reads of the server (info, service bodies, formats, the login's replies) are the captured ones of
/// `../shared/fixtures`; its meetings and its change log (`GetChanges`, with the user, the time and the meeting id of
/// every creation, change and deletion, as every generation records them) follow the writes it receives. Every reply
/// carries the server's `Date` header, from a clock that may run `clockOffset` seconds off the client's.
public final class LostAnswerStandIn: @unchecked Sendable {
    /// How the next write's answer is lost, after the write is done (or, for `.refusedBefore`, instead of it).
    public enum Loss: Sendable, Hashable {
        /// The connection closes after the write, with no answer.
        case reset
        /// A gateway's status (502, 503, 504) after the write.
        case status(Int)
        /// No answer at all after the write (the client's timeout ends it).
        case stall
        /// The write is answered; the next `reads` reads of the meeting fail with 503 (the read-back fails).
        case readBack(reads: Int)
        /// A gateway's status with the write NOT passed on to the server.
        case refusedBefore(Int)
        /// The write not done yet: answered with this status (a 504 from a gateway that gave up waiting) or, `nil`, with
        /// nothing until the client's timeout, while the server is still running it. `finishLateWrite()` does it then
        /// (a slow PHP finishing); never called, the write was not done.
        case notYet(status: Int?)
        /// A "late gateway" (issue 47): the client is answered at once (`answer`) while the request reaches the server
        /// later — nginx's 502 when an upstream closes early, Google Cloud's load balancer's 502 on a backend timeout,
        /// Heroku's router's 503 (H12) after 30 s while the dyno runs on, a reset (-1005) while PHP goes on. When the
        /// server does the write is `lands`: after the client's look-up (held until `releaseLateWrite()`, whatever the
        /// machine's load), or during it.
        case late(LateAnswer, lands: LateLanding = .afterTheLookUp)
    }

    /// When a late gateway's write reaches the server, counted from the client's look-up.
    public enum LateLanding: Sendable, Hashable {
        /// Once the test calls `releaseLateWrite()` (after the client's outcome): the look-up finds nothing. A timer
        /// counted from the look-up's first read was not enough: under the thread sanitizer beside two busy processes
        /// the look-up's second read came more than 0.5 s after its first (issue 50's run E).
        case afterTheLookUp
        /// Just after the look-up's first read (the change log, or the meeting) is answered: that read shows nothing,
        /// every later one shows the write.
        case duringTheLookUp
    }

    /// What the client gets at once from a late gateway.
    public enum LateAnswer: Sendable, Hashable {
        /// A gateway's status (502, 503).
        case status(Int)
        /// The connection closes with no answer (-1005 or a broken reply).
        case reset
        /// Nothing (the client cancels, or its timeout ends it).
        case silence
    }

    /// What happens on the server right after the next write (before the client can look anything up).
    public enum AfterWrite: Sendable, Hashable {
        /// Another administrator renames the seed meeting.
        case otherAdminRenamesSeed(String)
        /// The login ends.
        case sessionExpires
    }

    /// Which interface.
    public enum Generation: String, Sendable, CaseIterable {
        case legacy = "rootserver", rest3 = "rootserver-3x", rest4 = "rootserver-4x", rest42 = "rootserver-42"
    }

    public let generation: Generation
    public private(set) var server: LoopbackHTTPServer!
    private let lock = NSLock()
    private var meetings: [Int: [String: Any]] = [:]
    private var deleted: [Int: [String: Any]] = [:]
    private var log: [[String: Any]] = []
    /// The user accounts (3.x/4.x), from the captured list, following the creations.
    private var accounts: [[String: Any]]?
    /// The formats and service bodies (3.x/4.x), from the captured lists, following the creations.
    private var resources: [String: [[String: Any]]] = [:]
    private var nextID = 3000
    private var nextChange = 20000
    private var pendingLoss: Loss?
    private var pendingAfter: AfterWrite?
    private var failingReads = 0
    private var sessionValid = true
    private var writesApplied = 0
    private var lateWrite: LoopbackHTTPServer.Request?
    /// A late gateway's write the server has not done yet (`.late`), and when it lands.
    private var lateGateway: (request: LoopbackHTTPServer.Request, lands: LateLanding)?
    private var stalling = false
    /// Whether, once a write is done, the server stops answering reads (a server that went silent after the write:
    /// the look-up's reads get no answer).
    public var readsStallAfterWrite: Bool { get { lock.withLock { stallAfter } } set { lock.withLock { stallAfter = newValue } } }
    private var stallAfter = false
    /// Seconds a REST token lives (a short life makes BMLTKit refresh it before each request: 300 s is its margin).
    public var tokenLifetime: Int { get { lock.withLock { lifetime } } set { lock.withLock { lifetime = newValue } } }
    private var lifetime = 86_400
    /// The next `count` reads of a meeting fail with 503 (a look-up that cannot read it).
    public func failNextReads(_ count: Int) { lock.withLock { failingReads = count } }
    /// From the next write on, the next `count` reads of a meeting fail with 503: the look-up after the write cannot
    /// read it, while the reads before it (the edit-conflict check's) are answered.
    public func failReadsAfterNextWrite(_ count: Int) { lock.withLock { readsToFailAfterWrite = count } }
    private var readsToFailAfterWrite = 0
    /// The status a failing read of a meeting answers (503 unless set: a gateway; 500, 404 are the server's own).
    public var failingReadStatus: Int { get { lock.withLock { readStatus } } set { lock.withLock { readStatus = newValue } } }
    private var readStatus = 503
    /// Whether the server records changes (`GetChanges` answers `[]` when off).
    public var changeLogOn: Bool { get { lock.withLock { logOn } } set { lock.withLock { logOn = newValue } } }
    private var logOn = true
    /// Seconds the server's clock runs ahead of the client's (its `Date` header and its change records).
    public var clockOffset: TimeInterval { get { lock.withLock { offset } } set { lock.withLock { offset = newValue } } }
    private var offset: TimeInterval = 0

    /// The login's user, as the change log names it.
    public var userID: Int { generation == .legacy ? 4 : 1 }
    public var userName: String { generation == .legacy ? "Nassau Area Administrator" : "Server Administrator" }
    /// The service body the tests write in.
    public static let serviceBodyID = 1002

    /// Starts the stand-in, holding one meeting (`seedID`).
    public init(_ generation: Generation) throws {
        self.generation = generation
        server = try LoopbackHTTPServer { [unowned self] request in self.answer(request) }
        lock.withLock {
            meetings[Self.seedID] = Self.seed(generation)
        }
    }

    /// The seed meeting as held (with what the 3.x/4.x draft rules need: a place and coordinates).
    static func seed(_ generation: Generation) -> [String: Any] {
        var meeting: [String: Any] = ["id": seedID, "service_body": serviceBodyID, "name": "Tuesday Night Hope", "weekday": 3,
                                      "start": "19:00:00", "published": 1, "latitude": 40.7, "longitude": -73.6,
                                      "location_street": "1 Main St", "location_municipality": "Hempstead", "location_province": "NY"]
        if generation == .legacy { meeting["venue_type"] = 1 } else { meeting["venueType"] = 1 }
        return meeting
    }

    /// The meeting every stand-in starts with.
    public static let seedID = 2339

    public func stop() { server.stop() }
    public var rootURL: URL { server.baseURL.appendingPathComponent("main_server") }

    // MARK: - What the tests set and read

    /// Loses the answer of the next write.
    public func loseNextWrite(_ loss: Loss) { lock.withLock { pendingLoss = loss } }
    /// Loses the answer of a later write: the next `count` writes are answered, the one after them loses its answer
    /// (`.reset`, `.status`, `.refusedBefore`, `.readBack` only: a call's second write, as 2.x's publication of a new
    /// meeting).
    public func loseWrite(_ loss: Loss, afterWrites count: Int) { lock.withLock { pendingLoss = loss; lossSkips = count } }
    private var lossSkips = 0
    /// Makes something happen right after the next write.
    public func afterNextWrite(_ event: AfterWrite) { lock.withLock { pendingAfter = event } }
    /// Ends the login on the server side (the next admin request is refused as not logged in).
    public func expireSession() { lock.withLock { sessionValid = false } }
    /// The names of the meetings held, by id.
    public var names: [Int: String] { lock.withLock { meetings.mapValues { $0["name"] as? String ?? "" } } }
    /// Whether the server holds the meeting.
    public func holds(_ id: Int) -> Bool { lock.withLock { meetings[id] != nil } }
    /// Whether the server holds the meeting published.
    public func isPublished(_ id: Int) -> Bool { lock.withLock { (meetings[id]?["published"] as? Int) == 1 } }

    /// The format ids the server holds for meeting `id` (the REST interfaces' `formatIds`).
    public func formatIDs(of id: Int) -> [Int] { lock.withLock { (meetings[id]?["formatIds"] as? [Int]) ?? [] } }
    /// The number of writes the server did.
    public var writes: Int { lock.withLock { writesApplied } }
    /// The change types the log holds for a meeting, newest first (`comdef_change_type_new`, `…_change`, …).
    public func changeTypes(of id: Int) -> [String] {
        lock.withLock { log.filter { $0["meeting_id"] as? String == String(id) }.compactMap { $0["change_type"] as? String } }
    }
    /// Whether a late gateway's write (`.late`) has reached the gateway and not the server yet.
    public var lateWritePending: Bool { lock.withLock { lateGateway != nil } }

    /// A value the meeting held from before the test (no change record): a contact phone, which 3.x/4.x searches
    /// leave out (`server-truths/312-`/`427-GetSearchResults-hidden-fields-public.json`).
    public func holdsEarlier(_ id: Int, _ key: String, _ value: String) { lock.withLock { meetings[id]?[key] = value } }

    /// The server answers reads again (after `readsStallAfterWrite`).
    public func resumeAnswering() { lock.withLock { stallAfter = false; stalling = false } }

    /// The late gateway's held write (`.late(_, lands: .afterTheLookUp)`) reaches the server right before the next
    /// write does: the first attempt lands between the second tap's look-up and its own write.
    public func releaseLateWriteBeforeNextWrite() { lock.withLock { releaseBeforeWrite = true } }
    private var releaseBeforeWrite = false

    /// The server does the late gateway's write held by `.late(_, lands: .afterTheLookUp)` now (the client has its
    /// outcome); nothing when none is held.
    public func releaseLateWrite() {
        guard let write = lock.withLock({ () -> LoopbackHTTPServer.Request? in defer { lateGateway = nil }; return lateGateway?.request })
        else { return }
        _ = route(write)
    }
    /// The requests received whose method is not GET, and all of them.
    public var writeRequests: Int { server.requests.filter { $0.method != "GET" }.count }

    /// Another administrator creates a meeting (recorded in the change log under their name).
    public func otherAdminCreates(name: String, weekday: Int, start: String) -> Int {
        lock.withLock {
            let id = nextID; nextID += 1
            meetings[id] = ["id": id, "service_body": Self.serviceBodyID, "name": name, "weekday": weekday, "start": start, "published": 1]
            record("comdef_change_type_new", id, user: (7, "Another Administrator"), after: meetings[id])
            return id
        }
    }

    /// Another administrator renames a meeting.
    public func otherAdminRenames(_ id: Int, to name: String) {
        lock.withLock {
            let before = meetings[id]
            meetings[id]?["name"] = name
            record("comdef_change_type_change", id, user: (7, "Another Administrator"), before: before, after: meetings[id])
        }
    }

    /// This login creates a meeting earlier (a record some minutes old).
    public func recordEarlierCreation(name: String, weekday: Int, start: String, minutesAgo: Double) -> Int {
        lock.withLock {
            let id = nextID; nextID += 1
            meetings[id] = ["id": id, "service_body": Self.serviceBodyID, "name": name, "weekday": weekday, "start": start, "published": 1]
            record("comdef_change_type_new", id, user: (userID, userName), after: meetings[id], ago: minutesAgo * 60)
            return id
        }
    }

    // MARK: - Answers

    /// The server finishes the write held by `.notYet` (the client has long stopped waiting).
    public func finishLateWrite() {
        guard let request = lock.withLock({ () -> LoopbackHTTPServer.Request? in defer { lateWrite = nil }; return lateWrite }) else { return }
        _ = route(request)
    }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let isWrite = request.method != "GET" && !request.path.hasSuffix("auth/token") && !request.path.hasSuffix("auth/refresh")
            && !String(decoding: request.body, as: UTF8.self).contains("admin_action=login")
        if isWrite {
            lock.withLock {
                if readsToFailAfterWrite > 0 { failingReads = readsToFailAfterWrite; readsToFailAfterWrite = 0 }
            }
            if lock.withLock({ defer { releaseBeforeWrite = false }; return releaseBeforeWrite }) { releaseLateWrite() }
        }
        // A late gateway: the client is answered now, the server gets the write after the client's first look.
        if isWrite, let answer = lock.withLock({ () -> LateAnswer? in
            guard case .late(let answer, let lands)? = pendingLoss else { return nil }
            pendingLoss = nil
            lateGateway = (request, lands)
            return answer
        }) {
            switch answer {
            case .status(let code):
                return .respond(status: code, headers: ["Content-Type": "text/html"], body: Data("<html>Bad Gateway</html>".utf8))
            case .reset: return .raw(Data())
            case .silence: return .silence
            }
        }
        // A write landing during the look-up: its first read is answered from what the server held before, then the
        // write is done, before any later read.
        if request.method == "GET", Self.looksUp(request), let write = lock.withLock({ () -> LoopbackHTTPServer.Request? in
            guard let gateway = lateGateway, gateway.lands == .duringTheLookUp else { return nil }
            lateGateway = nil
            return gateway.request
        }) {
            let before = route(request)
            _ = route(write)
            return stamped(before)
        }
        let late = lock.withLock { () -> Loss? in
            guard request.method != "GET", !request.path.hasSuffix("auth/token"), case .notYet? = pendingLoss else { return nil }
            defer { pendingLoss = nil; lateWrite = request }
            return pendingLoss
        }
        if request.method == "GET", lock.withLock({ stalling }) { return .silence }
        if case .notYet(let status)? = late {
            guard let status else { return .silence }
            return .respond(status: status, headers: ["Content-Type": "text/html"], body: Data("<html>Gateway Timeout</html>".utf8))
        }
        return stamped(route(request))
    }

    /// A reply with the server's `Date` header (its clock, `clockOffset` ahead of the client's).
    private func stamped(_ behavior: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
        guard case .respond(let status, var headers, let body) = behavior else { return behavior }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        headers["Date"] = formatter.string(from: Date().addingTimeInterval(clockOffset))
        return .respond(status: status, headers: headers, body: body)
    }

    /// Whether a GET reads what a look-up reads: the change log, or a meeting.
    static func looksUp(_ request: LoopbackHTTPServer.Request) -> Bool {
        request.query("switcher") == "GetChanges" || request.query("admin_action") == "get_meetings"
            || request.path.contains("api/v1/meetings")
    }

    private func route(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let path = request.path.replacingOccurrences(of: "/main_server/", with: "")
        if path.hasSuffix("GetLangs.php") { return fixture("json_GetLangs.json") }
        if path.hasPrefix("client_interface") { return semantic(request) }
        if generation == .legacy { return legacy(request) }
        return rest(request, path: path)
    }

    private func fixture(_ file: String, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"], body: FixtureCaptures.body(generation.rawValue, file))
    }

    static func json(_ value: Any, status: Int = 200) -> LoopbackHTTPServer.Behavior {
        .respond(status: status, headers: ["Content-Type": "application/json"],
                 body: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
    }

    private func semantic(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let legacy = generation == .legacy
        switch request.query("switcher") {
        case "GetServerInfo": return fixture(legacy ? "json_GetServerInfo.json" : "001-GetServerInfo.json")
        case "GetServiceBodies": return fixture(legacy ? "json_GetServiceBodies.json" : "004-GetServiceBodies.json")
        case "GetFormats": return fixture(legacy ? "json_GetFormats_show_all.json" : "003-GetFormats-show_all.json")
        case "GetChanges":
            let body = request.query("service_body_id").flatMap(Int.init), meeting = request.query("meeting_id").flatMap(Int.init)
            return lock.withLock {
                guard logOn else { return Self.json([Any]()) }
                return Self.json(log.filter { record in
                    (body == nil || record["service_body_id"] as? String == String(body!))
                        && (meeting == nil || record["meeting_id"] as? String == String(meeting!))
                })
            }
        default: return .json("[]")
        }
    }

    /// A change record as `GetChanges` gives it (newest first). Called with the lock held.
    private func record(_ type: String, _ id: Int, user: (Int, String)? = nil, before: [String: Any]? = nil,
                        after: [String: Any]? = nil, ago: TimeInterval = 0) {
        let who = user ?? (userID, userName)
        var data: [String: Any] = [:]
        if let before { data["before"] = Self.image(before) }
        if let after { data["after"] = Self.image(after) }
        nextChange += 1
        log.insert(["date_int": String(Int(Date().addingTimeInterval(offset - ago).timeIntervalSince1970)), "change_type": type,
                    "change_id": String(nextChange), "meeting_id": String(id), "meeting_name": (after ?? before)?["name"] ?? "",
                    "user_id": String(who.0), "user_name": who.1, "service_body_id": String(Self.serviceBodyID),
                    "service_body_name": "Nassau Area Service", "meeting_exists": meetings[id] == nil ? "0" : "1",
                    "details": "", "json_data": data], at: 0)
    }

    /// A meeting as a change record's before/after image (2.x field keys, as every generation records them).
    static func image(_ meeting: [String: Any]) -> [String: Any] {
        ["id_bigint": String(meeting["id"] as? Int ?? 0), "service_body_bigint": String(meeting["service_body"] as? Int ?? 0),
         "weekday_tinyint": String(meeting["weekday"] as? Int ?? 0), "start_time": meeting["start"] ?? "",
         "meeting_name": meeting["name"] ?? "", "published": String(meeting["published"] as? Int ?? 1)]
    }

    /// Takes the pending loss for a write (with the lock held).
    func takeLoss() -> Loss? {
        if lossSkips > 0 { lossSkips -= 1; return nil }
        defer { pendingLoss = nil }
        return pendingLoss
    }

    /// What a write's answer becomes under `loss` (the write already done, except for `.refusedBefore`).
    func lost(_ loss: Loss?, _ answer: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
        switch loss {
        case nil: return answer
        case .reset?: return .raw(Data())
        case .status(let code)?, .refusedBefore(let code)?:
            return .respond(status: code, headers: ["Content-Type": "text/html"], body: Data("<html>Bad Gateway</html>".utf8))
        case .stall?, .notYet(status: nil)?, .late?: return .silence
        case .notYet(let code?)?:
            return .respond(status: code, headers: ["Content-Type": "text/html"], body: Data("<html>Gateway Timeout</html>".utf8))
        case .readBack(let reads)?:
            lock.withLock { failingReads = reads }
            return answer
        }
    }

    /// Whether a read of a meeting fails now (a read-back being lost), counting it.
    func readFails() -> Bool {
        lock.withLock {
            guard failingReads > 0 else { return false }
            failingReads -= 1
            return true
        }
    }

    /// Runs a write unless `loss` says it never reached the server.
    func apply(_ loss: Loss?, _ write: () -> Void) {
        if case .refusedBefore? = loss { return }
        lock.withLock {
            write()
            writesApplied += 1
            if stallAfter { stalling = true }
            switch pendingAfter {
            case .otherAdminRenamesSeed(let name)?:
                let before = meetings[Self.seedID]
                meetings[Self.seedID]?["name"] = name
                record("comdef_change_type_change", Self.seedID, user: (7, "Another Administrator"), before: before, after: meetings[Self.seedID])
            case .sessionExpires?: sessionValid = false
            case nil: break
            }
            pendingAfter = nil
        }
    }

    /// The user accounts held (the captured ones, then those created), with the lock held.
    func users() -> [[String: Any]] {
        if accounts == nil {
            accounts = ((try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "150-users.json"))) as? [[String: Any]]) ?? []
        }
        return accounts ?? []
    }
    func addUser(_ user: [String: Any]) { accounts = users() + [user] }
    /// The formats (`formats`, capture 130) or service bodies (`servicebodies`, capture 140) held, with the lock held.
    func resource(_ kind: String) -> [[String: Any]] {
        if resources[kind] == nil {
            let file = kind == "formats" ? "130-formats.json" : "140-servicebodies.json"
            resources[kind] = ((try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, file))) as? [[String: Any]]) ?? []
        }
        return resources[kind] ?? []
    }
    func addResource(_ kind: String, _ item: [String: Any]) { resources[kind] = resource(kind) + [item] }
    /// How many formats or service bodies satisfy `test`.
    public func count(_ kind: String, where test: ([String: Any]) -> Bool) -> Int { lock.withLock { resource(kind).filter(test).count } }

    /// How many accounts hold this user name.
    public func accounts(named username: String) -> Int { lock.withLock { users().filter { $0["username"] as? String == username }.count } }

    // Shared with the two interfaces' extensions (`LostAnswerStandIn+Interfaces.swift`); called with the lock held.
    func isSessionValid() -> Bool { lock.withLock { sessionValid } }
    func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }
    func newID() -> Int { defer { nextID += 1 }; return nextID }
    func store(_ meeting: [String: Any], id: Int) { meetings[id] = meeting }
    func meeting(_ id: Int) -> [String: Any]? { meetings[id] }
    func allMeetings() -> [[String: Any]] { meetings.keys.sorted().compactMap { meetings[$0] } }
    func remove(_ id: Int) { deleted[id] = meetings.removeValue(forKey: id) }
    func bringBack(_ id: Int) -> Bool {
        guard let meeting = deleted.removeValue(forKey: id) else { return false }
        meetings[id] = meeting
        return true
    }
    /// The before-image of a change record, as a held meeting's fields (with the lock held).
    func beforeImage(ofChange id: String) -> (meetingID: Int, fields: [String: String])? {
        guard let record = log.first(where: { $0["change_id"] as? String == id }),
              let before = (record["json_data"] as? [String: Any])?["before"] as? [String: String],
              let meetingID = Int(record["meeting_id"] as? String ?? "") else { return nil }
        return (meetingID, before)
    }
    func recordWrite(_ type: String, _ id: Int, before: [String: Any]? = nil, after: [String: Any]? = nil) {
        if logOn { record(type, id, before: before, after: after) }
    }
}
