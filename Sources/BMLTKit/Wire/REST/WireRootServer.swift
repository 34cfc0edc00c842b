import Foundation

/// An aggregator's `/api/v1/rootservers` entries → `BMLTRootServer`.
///
/// `id` and `sourceId` are numbers; `statistics` two groups of counts (all `null` before the first import);
/// `serverInfo` the root's GetServerInfo object **as a JSON-encoded string** (or `null`); `lastSuccessfulImport`
/// `"YYYY-MM-DD HH:MM:SS"` in UTC without a zone (or `null`).
enum WireRootServer {
    static func decode(_ value: WireValue) -> BMLTRootServer? {
        guard let members = value.object, let id = members["id"]?.int else { return nil }
        var statistics: [String: Int] = [:]
        for (_, group) in members["statistics"]?.object ?? [:] {
            for (name, count) in group.object ?? [:] { statistics[name] = count.int }
        }
        return BMLTRootServer(id: id, sourceID: members["sourceId"]?.int ?? 0, name: members["name"]?.rawString ?? "",
                              url: members["url"]?.rawString ?? "", lastSuccessfulImport: members["lastSuccessfulImport"]?.string,
                              statistics: statistics, serverInfo: serverInfo(members["serverInfo"]))
    }

    /// The embedded server info: a string holding JSON (as the aggregator sends it), or an object (leniently).
    /// Unreadable text is `nil`, not an error: the rest of the entry stands.
    static func serverInfo(_ value: WireValue?) -> BMLTServerInfo? {
        guard let value else { return nil }
        var parsed = value
        if let text = value.rawString {
            guard let inner = try? WireValue.parse(Data(text.utf8), what: .rootServerInfo) else { return nil }
            parsed = inner
        }
        return try? WireServerInfo.decode(parsed)
    }
}
