import BMLTKit
import Foundation
import LoopbackHTTPServer

/// `bmlt-bench --refresh`: a list brought up to date from the change log (`meetings(matching:updating:)`) against a
/// whole download, at 300 ms round trips and 250 KB/s (`LoopbackHTTPServer.Conditions`, kept-alive connections): the
/// 2.16.6 capture of every meeting (1,512) and ×10 after 0, 3 and 30 renamed meetings; 1,512 after 30 changes of which
/// 10 moved a meeting to another start time (placed by the server-checked proposal, `RefreshRank`); and the 59
/// meetings of service body 1002 (65 KB) after 3 and 30 meetings changed across the server (the change log is the
/// whole server's: the rule of `RefreshCost`). Bytes are the bodies the server sent, requests every request of the call,
/// time from the call to its return.
///
/// The server is a small stateful 2.16.6: the capture's meetings, its formats, server info and languages; an edit
/// renames a meeting (or moves its start) and writes a change record with `json_data` before and after, as
/// `rootserver/json_GetChanges_all.json` shows them; `GetSearchResults` answers `services[]`, `meeting_ids[]` (alone,
/// as 2.16.6 does: `server-truths/216-GetSearchResults-meeting_ids-weekdays.json`), `data_field_key` and
/// `get_used_formats`, in 2.16.6's order (weekday, start, id as text).
enum RefreshBenchmark {
    final class Server: @unchecked Sendable {   // every field behind `lock`
        let lock = NSLock()
        var meetings: [[String: String]]
        var changes: [[String: Any]] = []
        var formats: [[String: Any]]
        var clock = Date()
        var bytes = 0, requests = 0
        var whole: Data?
        let fixtures: URL

        init(factor: Int, fixtures: URL) throws {
            self.fixtures = fixtures
            let base = try JSONSerialization.jsonObject(with: Payload.replicated(Payload.base().data, factor: factor))
            meetings = ((base as? [[String: Any]]) ?? []).map { $0.compactMapValues { $0 as? String } }
            meetings.sort { lhs, rhs in
                let left = (lhs["weekday_tinyint"] ?? "", lhs["start_time"] ?? "", lhs["id_bigint"] ?? "")
                return left < (rhs["weekday_tinyint"] ?? "", rhs["start_time"] ?? "", rhs["id_bigint"] ?? "")
            }
            let formatData = try Data(contentsOf: fixtures.appendingPathComponent("json_GetFormats.json"))
            formats = (try JSONSerialization.jsonObject(with: formatData) as? [[String: Any]]) ?? []
        }

        func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
            lock.lock()
            defer { lock.unlock() }
            clock.addTimeInterval(1)
            let body = reply(request)
            bytes += body.count
            requests += 1
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return .respond(status: 200, headers: ["Date": formatter.string(from: clock)], body: body)
        }

        private func file(_ name: String) -> Data { (try? Data(contentsOf: fixtures.appendingPathComponent(name))) ?? Data("[]".utf8) }

        private func reply(_ request: LoopbackHTTPServer.Request) -> Data {
            if request.path.hasSuffix("GetLangs.php") { return file("json_GetLangs.json") }
            switch request.query("switcher") {
            case "GetServerInfo": return file("json_GetServerInfo.json")
            case "GetFormats": return file("json_GetFormats.json")
            case "GetServiceBodies": return file("json_GetServiceBodies.json")
            case "GetChanges": return (try? JSONSerialization.data(withJSONObject: changes)) ?? Data("[]".utf8)
            case "GetSearchResults":
                let ids = Set(request.queryItems.filter { $0.name == "meeting_ids[]" }.compactMap { $0.value })
                let services = Set(request.queryItems.filter { $0.name == "services[]" }.compactMap { $0.value })
                let keys = request.query("data_field_key").map { Set($0.split(separator: ",").map(String.init)) }
                let plain = ids.isEmpty && services.isEmpty && keys == nil && request.query("get_used_formats") == "1"
                if plain, let whole { return whole }
                var list = meetings
                if !ids.isEmpty { list = list.filter { ids.contains($0["id_bigint"] ?? "") } }
                else if !services.isEmpty { list = list.filter { services.contains($0["service_body_bigint"] ?? "") } }
                let rows: [[String: String]] = keys.map { keys in list.map { $0.filter { keys.contains($0.key) } } } ?? list
                guard request.query("get_used_formats") == "1" else {
                    return (try? JSONSerialization.data(withJSONObject: rows)) ?? Data()
                }
                let used = Set(list.flatMap { ($0["format_shared_id_list"] ?? "").split(separator: ",").map(String.init) })
                let object: [String: Any] = ["meetings": rows, "formats": formats.filter { used.contains($0["id"] as? String ?? "") }]
                let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
                if plain { whole = data }
                return data
            default: return Data("[]".utf8)
            }
        }

        /// `count` meetings renamed (every third one moved to 05:45 instead when `moving`), each with its change record.
        func edit(_ count: Int, seed: Int, moving: Bool = false) {
            lock.lock()
            defer { lock.unlock() }
            for step in 0..<count {
                clock.addTimeInterval(30)
                let index = (seed * 7_919 + step * 104_729) % meetings.count
                let before = meetings[index]
                if moving, step % 3 == 0 {
                    meetings[index]["start_time"] = "05:45:00"
                } else {
                    meetings[index]["meeting_name"] = (before["meeting_name"] ?? "") + " (renamed)"
                }
                let id = before["id_bigint"] ?? ""
                changes.insert(["date_int": String(Int(clock.timeIntervalSince1970)), "change_type": "comdef_change_type_change",
                                "change_id": String(50_000 + changes.count), "meeting_id": id, "user_id": "1",
                                "service_body_id": before["service_body_bigint"] ?? "", "meeting_exists": "1",
                                "json_data": ["before": Self.jsonData(before), "after": Self.jsonData(meetings[index])]], at: 0)
            }
            // Still in 2.16.6's order after a start moved.
            meetings.sort { lhs, rhs in
                let left = (lhs["weekday_tinyint"] ?? "", lhs["start_time"] ?? "", lhs["id_bigint"] ?? "")
                return left < (rhs["weekday_tinyint"] ?? "", rhs["start_time"] ?? "", rhs["id_bigint"] ?? "")
            }
            whole = nil
        }

        /// A meeting as `json_data` holds it (`rootserver/json_GetChanges_all.json`): its non-empty fields, formats as keys.
        static func jsonData(_ meeting: [String: String]) -> [String: Any] {
            var data: [String: Any] = meeting.filter { !$0.value.isEmpty && !["distance_in_km", "distance_in_miles", "root_server_uri",
                                                                              "format_shared_id_list"].contains($0.key) }
            data["formats"] = (meeting["formats"] ?? "").split(separator: ",").map(String.init)
            return data
        }

        func counters() -> (bytes: Int, requests: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (bytes, requests)
        }
    }

    /// One row of the table: the list, how many meetings change, whether a third of them move in the order, whether
    /// the row has a server of its own (otherwise the change log holds the rows' before it: a day's), and whether a
    /// second refresh on the same connection follows (decided from what the first read).
    struct Scenario {
        var name: String
        var factor: Int
        var criteria: BMLTSearchCriteria
        var changes: Int
        var moving = false
        var ownServer = false
        var again = false
    }

    static var scenarios: [Scenario] {
        var body = BMLTSearchCriteria()
        body.serviceBodyIDs = [1002]
        let all = BMLTSearchCriteria()
        return [Scenario(name: "1,512", factor: 1, criteria: all, changes: 0),
                Scenario(name: "1,512", factor: 1, criteria: all, changes: 3),
                Scenario(name: "1,512", factor: 1, criteria: all, changes: 30),
                Scenario(name: "1,512", factor: 1, criteria: all, changes: 30, moving: true, ownServer: true),
                Scenario(name: "×10", factor: 10, criteria: all, changes: 0),
                Scenario(name: "×10", factor: 10, criteria: all, changes: 3),
                Scenario(name: "×10", factor: 10, criteria: all, changes: 30),
                Scenario(name: "sb 1002", factor: 1, criteria: body, changes: 3, ownServer: true),
                Scenario(name: "sb 1002", factor: 1, criteria: body, changes: 30, ownServer: true, again: true)]
    }

    /// `text` padded to `width` characters (left-aligned).
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    @MainActor
    static func run() async {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/rootserver")
        print("refresh — a list brought up to date from the change log vs a whole download; 300 ms round trips, 250 KB/s")
        print("list     changes     refresh: bytes  requests  time     whole download: bytes  requests  time     bytes %")
        var servers: [String: (Server, LoopbackHTTPServer)] = [:]
        defer { for (_, (_, server)) in servers { server.stop() } }
        var wholes: [String: (bytes: Int, requests: Int, time: Double)] = [:]
        for (index, scenario) in scenarios.enumerated() {
            let serverKey = scenario.ownServer ? "own \(index)" : "factor \(scenario.factor)"
            if servers[serverKey] == nil {
                guard let state = try? Server(factor: scenario.factor, fixtures: fixtures),
                      let server = try? LoopbackHTTPServer(recordsRequests: false, handler: { state.answer($0) }) else {
                    print("refresh: the stand-in server could not start"); return
                }
                server.keepsConnectionsAlive = true
                servers[serverKey] = (state, server)
            }
            guard let (state, server) = servers[serverKey] else { return }
            let root = server.baseURL.appendingPathComponent("main_server")
            // The previous list at loopback speed; then the measured calls on a connection under the emulated network.
            let fast = BMLTConnection(rootServerURL: root)
            guard var previous = try? await fast.meetings(matching: scenario.criteria) else { print("refresh: no list"); return }
            state.edit(scenario.changes, seed: scenario.changes + scenario.factor, moving: scenario.moving)
            server.conditions = .init(roundTrip: 0.3, bytesPerSecond: 250_000)
            var configuration = BMLTConfiguration()
            configuration.timeout = 600   // ×10's whole download takes over a minute at 250 KB/s
            if ProcessInfo.processInfo.environment["BMLT_BENCH_VERBOSE"] != nil {
                configuration.logLevel = .requests
                configuration.logHandler = { _, line in print("    " + line.prefix(160)) }
            }
            let slow = BMLTConnection(rootServerURL: root, configuration: configuration)
            _ = try? await slow.validate()
            for round in 0..<(scenario.again ? 2 : 1) {
                if round > 0 { state.edit(3, seed: 7 + index) }
                // The server counts a piece after writing it: the last piece of the answer before may still be counted.
                try? await Task.sleep(nanoseconds: 200_000_000)
                let before = (server.bodyBytesDelivered, state.counters().requests)
                let start = DispatchTime.now().uptimeNanoseconds
                let fresh = try? await slow.meetings(matching: scenario.criteria, updating: previous)
                let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                try? await Task.sleep(nanoseconds: 200_000_000)
                let after = (server.bodyBytesDelivered, state.counters().requests)
                let key = scenario.name
                if wholes[key] == nil {
                    let start = DispatchTime.now().uptimeNanoseconds
                    do { _ = try await slow.meetings(matching: scenario.criteria) } catch { print("refresh: the whole download failed: \(error)") }
                    try? await Task.sleep(nanoseconds: 200_000_000)
                    let end = (server.bodyBytesDelivered, state.counters().requests)
                    wholes[key] = (end.0 - after.0, end.1 - after.1, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                let whole = wholes[key]
                let bytes = after.0 - before.0
                let share = Double(bytes) / Double(max(1, whole?.bytes ?? 1)) * 100
                let mode = fresh?.delta == nil ? " (whole)" : ""
                let changes = "\(scenario.changes)\(scenario.moving ? ", 10 moved" : "")\(round > 0 ? " +3" : "")"
                print(padded(key, 9) + padded(changes, 12) + String(format: "%14d  %8d  %5.2f s  %21d  %8d  %5.2f s  %6.2f", bytes,
                      after.1 - before.1, time, whole?.bytes ?? 0, whole?.requests ?? 0, whole?.time ?? 0, share) + mode)
                if let fresh { previous = fresh }
            }
            server.conditions = .init()
        }
    }
}
