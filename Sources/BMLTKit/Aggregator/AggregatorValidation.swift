import Foundation

/// What validation does differently on an aggregator: the format list without `show_all` (an aggregator holds
/// only the formats its root servers' meetings use, so `show_all` adds nothing), and the root servers, read once.
enum AggregatorValidation {
    /// The `GetFormats` query validation sends.
    static func formatQuery(_ info: BMLTServerInfo) -> [URLQueryItem] {
        info.aggregatorModeEnabled ? [] : rootServerFormatQuery
    }

    /// The `GetFormats` query for a root server that is not an aggregator (sent beside GetServerInfo, before the
    /// server is known to be either).
    static let rootServerFormatQuery = [URLQueryItem(name: "show_all", value: "1")]

    /// An aggregator's root servers (`/api/v1/rootservers`, no login needed); `[]` on a root server. A list that
    /// cannot be read does not fail the validation (the meetings still name their root server by id):
    /// `rootServers()` says why.
    static func rootServers(_ context: OperationContext, info: BMLTServerInfo) async throws(BMLTError) -> [BMLTRootServer] {
        guard info.aggregatorModeEnabled else { return [] }
        do {
            let reply = try await context.get("api/v1/rootservers", headers: ["Accept": "application/json"])
            return try WireRESTResources.list(try WireReply.json(reply, what: .rootServers), what: .rootServers,
                                              WireRootServer.decode)
        } catch .cancelled {
            throw .cancelled
        } catch {
            return []
        }
    }
}
