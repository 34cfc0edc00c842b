import Foundation
import LoopbackHTTPServer

/// A loopback server that answers each request with the capture recorded for the same question: same path, same
/// parameters (arrays with or without `[]`, an hour without its minute meaning minute 0), and `data_field_key`
/// asking for at least the recorded keys. Anything else is a 404.
public enum CaptureReplayServer {
    /// One recorded GET from a folder's `index.md`.
    public struct Recorded: Sendable {
        /// The capture file.
        public let file: String
        /// The path after `/main_server`.
        public let path: String
        /// `name=value` pairs, sorted, `[]` dropped.
        public let parameters: [String]
        /// The `data_field_key` keys asked for.
        public let fieldKeys: Set<String>
    }

    /// The capture's list of objects, or the list under `key` of an object reply (`{"meetings":…,"formats":…}`).
    public static func objects(_ folder: String, _ file: String, key: String = "meetings") throws -> [[String: Any]] {
        let data = try Data(contentsOf: FixtureCaptures.root.appendingPathComponent(folder).appendingPathComponent(file))
        let value = try JSONSerialization.jsonObject(with: data)
        if let object = value as? [String: Any] { return (object[key] as? [[String: Any]]) ?? [] }
        return key == "meetings" ? ((value as? [[String: Any]]) ?? []) : []
    }

    /// Starts a loopback server replaying `folder`'s read captures.
    public static func start(folder: String) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(handler: handler(folder: folder))
    }

    /// The replay of `folder`'s read captures as a handler, for a server that answers some requests itself first.
    public static func handler(folder: String) -> @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        let recorded = index(folder)
        return { request in
            let (path, query) = split(request.target)
            let (parameters, keys) = normalize(query)
            guard let match = recorded.first(where: { $0.path == path.replacingOccurrences(of: "/main_server", with: "")
                                                        && $0.parameters == parameters && $0.fieldKeys.isSubset(of: keys) }),
                  let body = try? Data(contentsOf: FixtureCaptures.root.appendingPathComponent(folder).appendingPathComponent(match.file))
            else { return .respond(status: 404, headers: ["Content-Type": "text/html"], body: Data("<html>no capture</html>".utf8)) }
            return .respond(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: body)
        }
    }

    /// The path (without `index.php`) and the query of a request target.
    public static func split(_ target: String) -> (String, String) {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        return (parts[0].replacingOccurrences(of: "index.php", with: ""), parts.count > 1 ? parts[1] : "")
    }

    /// A query as sorted `name=value` pairs (an hour without its minute meaning minute 0) and its field keys.
    public static func normalize(_ query: String) -> ([String], Set<String>) {
        var keys = Set<String>()
        var pairs: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.removingPercentEncoding ?? String($0) }
            let name = parts[0].replacingOccurrences(of: "[]", with: ""), value = parts.count > 1 ? parts[1] : ""
            if name == "data_field_key" { keys = Set(value.split(separator: ",").map(String.init)); continue }
            pairs.append(name + "=" + value)
        }
        for hour in pairs where hour.contains("H=") {
            let minute = String(hour.prefix { $0 != "=" }.dropLast()) + "M"
            if !pairs.contains(where: { $0.hasPrefix(minute + "=") }) { pairs.append(minute + "=0") }
        }
        return (pairs.sorted(), keys)
    }

    /// The recorded GETs of a folder (its request table: `FixtureCaptures.requestTable`).
    public static func index(_ folder: String) -> [Recorded] {
        let text = FixtureCaptures.requestTable(folder)
        return text.split(separator: "\n").compactMap { line -> Recorded? in
            var cells = line.split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            if cells.count > 4, cells[2] == "GET", cells[1] != "GET" { cells.remove(at: 1) }  // aggregator-4x: a "server" column
            guard cells.count > 3, cells[1] == "GET", cells[0].hasSuffix(".json"), !cells[0].contains("root410") else { return nil }
            var target = cells[2]
            if let range = target.range(of: "/main_server") { target = String(target[range.upperBound...]) }
            let (path, query) = split(target)
            let (parameters, keys) = normalize(query)
            return Recorded(file: cells[0], path: path, parameters: parameters, fieldKeys: keys)
        }
    }
}
