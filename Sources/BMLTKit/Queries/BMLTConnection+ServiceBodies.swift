import Foundation

extension BMLTConnection {
    /// Asks for service bodies (`GetServiceBodies`): posts `.bmltServiceBodyResults`. The unfiltered list also
    /// refreshes `server.serviceBodies` and `server.serviceBodyTree`. Use `BMLTServiceBody.tree(from:)` for a
    /// filtered list's hierarchy (a body whose parent is not in the list stays at the root).
    ///
    /// - Parameters:
    ///   - ids: only these service bodies; empty for all.
    ///   - excluding: never these.
    ///   - includeChildren: also every descendant of `ids` (`recursive=1`).
    ///   - includeParents: also every ancestor of `ids` (`parents=1`).
    @discardableResult
    public func fetchServiceBodies(ids: [Int] = [], excluding: [Int] = [], includeChildren: Bool = false,
                                   includeParents: Bool = false) -> BMLTRequest {
        start(Self.serviceBodyQuery(ids: ids, excluding: excluding, includeChildren: includeChildren,
                                    includeParents: includeParents))
    }

    /// The `async` form of `fetchServiceBodies(ids:excluding:includeChildren:includeParents:)`.
    public func serviceBodies(ids: [Int] = [], excluding: [Int] = [], includeChildren: Bool = false,
                              includeParents: Bool = false) async throws -> [BMLTServiceBody] {
        try await run(Self.serviceBodyQuery(ids: ids, excluding: excluding, includeChildren: includeChildren,
                                            includeParents: includeParents))
    }

    static func serviceBodyQuery(ids: [Int], excluding: [Int], includeChildren: Bool,
                                 includeParents: Bool) -> Operation<[BMLTServiceBody]> {
        let isFullList = ids.isEmpty && excluding.isEmpty
        return Operation.read(
            .serviceBodies, errorIn: .server,
            work: { context throws(BMLTError) in
                var query = ids.map { URLQueryItem(name: "services[]", value: String($0)) }
                query += excluding.map { URLQueryItem(name: "services[]", value: String(-$0)) }
                if includeChildren, !query.isEmpty { query.append(URLQueryItem(name: "recursive", value: "1")) }
                if includeParents, !ids.isEmpty { query.append(URLQueryItem(name: "parents", value: "1")) }
                return try WireServiceBody.decodeList(try await context.semantic("GetServiceBodies", query,
                                                                                 what: .serviceBodies))
            },
            succeed: { connection, bodies, request in
                if isFullList { connection.server.serviceBodies = bodies }
                return [.serviceBodyResults(bodies, request: request)]
            }
        )
    }
}
