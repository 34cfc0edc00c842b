import Foundation
import LoopbackHTTPServer

/// The 3.x/4.x `/api/v1` of `CheckStandIn`: a bearer token per login (`101-auth-token-serveradmin.json`'s shape; any
/// captured account of `150-users.json` with the captured password), the captured users and service bodies
/// (`150-users.json`, `140-servicebodies.json`: who may edit is `adminUserId` and `assignedUserIds`, as the server
/// decides), meetings in the shape of `114-meeting-2.json` / `120-meeting-create-201.json`, `204` for PATCH, PUT and
/// DELETE, 403 `191-observer-patch-meeting-403.json` for a meeting this login may not edit, 404 `128-meeting-404.json`.
/// Laravel's `TrimStrings` trims every string received. An aggregator refuses every meeting write with 403
/// (`aggregator-4x/39-api-meetings-1-PATCH-403.json`) and lists its root servers without a login (`31-api-rootservers.json`,
/// the statistics counting the meetings this stand-in holds of each).
extension CheckStandIn {
    func rest(_ request: LoopbackHTTPServer.Request, path: String) -> LoopbackHTTPServer.Behavior {
        let folder = generation.rawValue
        let parts = path.split(separator: "/").map(String.init)      // api v1 what [id] [sub]
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else { return .respond(status: 404, headers: [:], body: Data()) }
        if generation.isAggregator && parts[2] == "rootservers" { return rootServers() }
        if request.method == "POST", parts[2] == "auth", parts.count == 4, parts[3] == "token" { return token(request) }
        let bearer = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard let user = lock.withLock({ sessions[bearer] }) else {
            return capture(generation.isAggregator ? "rootserver-4x" : folder, "180-meetings-no-token-401.json", status: 401)
        }
        switch (request.method, parts[2], parts.count) {
        case ("POST", "auth", 4) where parts[3] == "refresh":
            return issue(user)
        case ("POST", "auth", 4) where parts[3] == "logout":
            lock.withLock { sessions[bearer] = nil }
            return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data())
        case ("GET", "users", 4):
            return account(id: Int(parts[3]) ?? 0).map { Self.json($0) } ?? capture(folder, "128-meeting-404.json", status: 404)
        case ("GET", "servicebodies", 3):
            return capture(folder, "140-servicebodies.json")
        case (_, "meetings", _) where generation.isAggregator && request.method != "GET":
            return capture("aggregator-4x", "39-api-meetings-1-PATCH-403.json", status: 403)
        case ("GET", "meetings", 4):
            return lock.withLock { meetings[Int(parts[3]) ?? 0].map { Self.json(restForm($0)) } } ?? capture(folder, "128-meeting-404.json", status: 404)
        case ("GET", "meetings", 3):
            let bodies = Set((request.query("serviceBodyIds") ?? "").split(separator: ",").map(String.init))
            let ids = Set((request.query("meetingIds") ?? "").split(separator: ",").map(String.init))
            return Self.json(lock.withLock {
                meetings.values.filter { (bodies.isEmpty || bodies.contains($0["service_body_bigint"] ?? "")) && (ids.isEmpty || ids.contains($0["id_bigint"] ?? "")) }
                    .sorted { (Int($0["id_bigint"] ?? "") ?? 0) < (Int($1["id_bigint"] ?? "") ?? 0) }.map(restForm)
            })
        case ("POST", "meetings", 3):
            let body = Self.object(request.body)
            guard may(user, edit: "\(body["serviceBodyId"] ?? "")") else { return capture(folder, "191-observer-patch-meeting-403.json", status: 403) }
            return lock.withLock {
                let id = nextID
                nextID += 1
                var meeting: [String: String] = Dictionary(uniqueKeysWithValues: keyOrder.map { ($0, "") })
                meeting["id_bigint"] = String(id)
                meeting["lang_enum"] = "en"
                meeting["root_server_uri"] = rootURL.absoluteString
                meeting["published"] = "1"
                apply(body, to: &meeting)
                meetings[id] = meeting
                insertion[id] = insertion.count
                record("comdef_change_type_new", id, user: user, before: nil, after: meeting)
                return Self.json(restForm(meeting), status: 201)
            }
        case ("PATCH", "meetings", 4), ("PUT", "meetings", 4):
            let id = Int(parts[3]) ?? 0
            guard let held = lock.withLock({ meetings[id] }) else { return capture(folder, "128-meeting-404.json", status: 404) }
            guard may(user, edit: held["service_body_bigint"] ?? "") else { return capture(folder, "191-observer-patch-meeting-403.json", status: 403) }
            lock.withLock {
                guard let before = meetings[id] else { return }
                var meeting = before
                apply(Self.object(request.body), to: &meeting)
                meetings[id] = meeting
                record("comdef_change_type_change", id, user: user, before: before, after: meeting)
            }
            return .respond(status: 204, headers: [:], body: Data())
        case ("DELETE", "meetings", 4):
            let id = Int(parts[3]) ?? 0
            guard let held = lock.withLock({ meetings[id] }) else { return capture(folder, "128-meeting-404.json", status: 404) }
            guard may(user, edit: held["service_body_bigint"] ?? "") else { return capture(folder, "191-observer-patch-meeting-403.json", status: 403) }
            lock.withLock {
                guard let meeting = meetings.removeValue(forKey: id) else { return }
                deleted[id] = meeting
                record("comdef_change_type_delete", id, user: user, before: meeting, after: nil)
            }
            return .respond(status: 204, headers: [:], body: Data())
        default:
            return capture(folder, "128-meeting-404.json", status: 404)
        }
    }

    private func token(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let body = Self.object(request.body)
        guard !generation.isAggregator, let user = accounts().first(where: { $0["username"] as? String == body["username"] as? String }),
              body["password"] as? String == Self.password, let id = user["id"] as? Int else {
            return capture(generation.isAggregator ? "rootserver-4x" : generation.rawValue, "100-auth-token-bad-password.json", status: 401)
        }
        return issue(id)
    }

    /// A new token for `user`, living 7 days as the captured servers' did (`CapturedToday.tokenLifetime`).
    private func issue(_ user: Int) -> LoopbackHTTPServer.Behavior {
        let token = "\(nextChange)|" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        lock.withLock { sessions[token] = user }
        return Self.json(["access_token": token, "expires_at": Int(Date().timeIntervalSince1970 + CapturedToday.tokenLifetime),
                          "token_type": "bearer", "user_id": user])
    }

    private func accounts() -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "150-users.json"))) as? [[String: Any]] ?? []
    }

    private func account(id: Int) -> [String: Any]? { accounts().first { $0["id"] as? Int == id } }

    /// Whether `user` may edit the meetings of service body `body`: the server administrator everywhere; another account
    /// where it is the service body's `adminUserId` or among its `assignedUserIds`, or of a parent it may edit.
    private func may(_ user: Int, edit body: String) -> Bool {
        guard account(id: user)?["type"] as? String != "admin" else { return true }
        let bodies = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(generation.rawValue, "140-servicebodies.json"))) as? [[String: Any]] ?? []
        var current = bodies.first { "\($0["id"] ?? "")" == body }
        var seen = Set<String>()
        while let entry = current, seen.insert("\(entry["id"] ?? "")").inserted {
            if entry["adminUserId"] as? Int == user || ((entry["assignedUserIds"] as? [Int]) ?? []).contains(user) { return true }
            let parent = entry["parentId"].map { "\($0)" }
            current = bodies.first { "\($0["id"] ?? "")" == parent }
        }
        return false
    }

    static func object(_ body: Data) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
    }

    /// A REST body's fields stored in the semantic keys (with the lock held); strings trimmed (`TrimStrings`).
    func apply(_ body: [String: Any], to meeting: inout [String: String]) {
        func text(_ value: Any?) -> String {
            switch value {
            case nil, is NSNull: return ""
            case let string as String: return string.trimmingCharacters(in: .whitespacesAndNewlines)
            case let number as NSNumber: return number.stringValue
            default: return "\(value!)"
            }
        }
        for (key, value) in body {
            switch key {
            case "serviceBodyId": meeting["service_body_bigint"] = text(value)
            case "day": meeting["weekday_tinyint"] = String((Int(text(value)) ?? 0) + 1)
            case "startTime": meeting["start_time"] = Self.clock(text(value))
            case "duration": meeting["duration_time"] = Self.clock(text(value))
            case "timeZone": meeting["time_zone"] = text(value)
            case "venueType": meeting["venue_type"] = text(value)
            case "latitude", "longitude": meeting[key] = text(value)
            case "published": meeting["published"] = (value as? Bool) == false ? "0" : "1"
            case "email": meeting["email_contact"] = text(value)
            case "worldId": meeting["worldid_mixed"] = text(value)
            case "name": meeting["meeting_name"] = text(value)
            case "formatIds":
                let ids = ((value as? [Any]) ?? []).compactMap { Int(text($0)) }.sorted()
                meeting["format_shared_id_list"] = ids.map(String.init).joined(separator: ",")
                meeting["formats"] = ids.compactMap { formatKeys[$0] }.joined(separator: ",")
            case "customFields": for (custom, inner) in (value as? [String: Any]) ?? [:] { meeting[custom] = text(inner) }
            case "temporarilyVirtual", "id": break
            default: meeting[key] = text(value)
            }
        }
    }

    /// `HH:MM` → `HH:MM:00`.
    static func clock(_ text: String) -> String { text.count == 5 ? text + ":00" : text }

    /// A meeting as `/api/v1/meetings/{id}` gives it (`114-meeting-2.json`; 4.x adds `admin_notes`).
    func restForm(_ m: [String: String]) -> [String: Any] {
        func nullable(_ key: String) -> Any { (m[key] ?? "").isEmpty ? NSNull() : m[key]! }
        func hoursAndMinutes(_ key: String) -> Any { (m[key] ?? "").isEmpty ? NSNull() : String(m[key]!.prefix(5)) }
        var out: [String: Any] = [
            "id": Int(m["id_bigint"] ?? "") ?? 0, "serviceBodyId": Int(m["service_body_bigint"] ?? "") ?? 0,
            "formatIds": (m["format_shared_id_list"] ?? "").split(separator: ",").compactMap { Int($0) },
            "venueType": Int(m["venue_type"] ?? "") ?? 1, "temporarilyVirtual": false,
            "day": (Int(m["weekday_tinyint"] ?? "") ?? 1) - 1, "startTime": hoursAndMinutes("start_time"),
            "duration": hoursAndMinutes("duration_time"), "timeZone": nullable("time_zone"),
            "latitude": Double(m["latitude"] ?? "") ?? 0, "longitude": Double(m["longitude"] ?? "") ?? 0,
            "published": m["published"] == "1", "email": nullable("email_contact"), "worldId": nullable("worldid_mixed"),
            "name": m["meeting_name"] ?? "", "customFields": ["zone": nullable("zone")],
        ]
        for key in ["location_text", "location_info", "location_street", "location_city_subsection", "location_neighborhood",
                    "location_municipality", "location_sub_province", "location_province", "location_postal_code_1", "location_nation",
                    "comments", "train_lines", "bus_lines", "phone_meeting_number", "virtual_meeting_link", "virtual_meeting_additional_info"]
            + Self.hiddenKeys.filter({ $0 != "email_contact" }) {
            out[key] = nullable(key)
        }
        if generation != .v312 { out["admin_notes"] = NSNull() }
        return out
    }

    /// The aggregator's root servers (`31-api-rootservers.json`), each counting the meetings held of it.
    private func rootServers() -> LoopbackHTTPServer.Behavior {
        var roots = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body("aggregator-4x", "31-api-rootservers.json"))) as? [[String: Any]] ?? []
        let counts = lock.withLock { Dictionary(grouping: meetings.values, by: { $0["root_server_id"] ?? "" }).mapValues(\.count) }
        for index in roots.indices {
            var statistics = roots[index]["statistics"] as? [String: Any] ?? [:]
            var numbers = statistics["meetings"] as? [String: Any] ?? [:]
            numbers["numTotal"] = counts["\(roots[index]["id"] ?? "")"] ?? 0
            statistics["meetings"] = numbers
            roots[index]["statistics"] = statistics
        }
        return Self.json(roots)
    }
}
