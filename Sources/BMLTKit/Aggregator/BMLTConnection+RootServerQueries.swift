import Foundation

extension BMLTConnection {
    /// Asks an aggregator for the formats of some of its root servers (`GetFormats&root_server_ids[]=…`): posts
    /// `.bmltFormatSearchResults`. Negative ids exclude a root server. A plain root server ignores the filter.
    /// ```swift
    /// connection.fetchFormats(fromRootServers: [2])
    /// ```
    @discardableResult
    public func fetchFormats(fromRootServers rootServerIDs: [Int], language: String? = nil) -> BMLTRequest {
        start(Self.rootServerFormatQuery(rootServerIDs, language: language))
    }

    /// The `async` form of `fetchFormats(fromRootServers:language:)`.
    /// ```swift
    /// let formats = try await connection.formats(fromRootServers: [2])
    /// ```
    public func formats(fromRootServers rootServerIDs: [Int], language: String? = nil) async throws -> [BMLTFormat] {
        try await run(Self.rootServerFormatQuery(rootServerIDs, language: language))
    }

    /// Asks an aggregator for the service bodies of some of its root servers
    /// (`GetServiceBodies&root_server_ids[]=…`): posts `.bmltServiceBodyResults`. Negative ids exclude.
    /// ```swift
    /// connection.fetchServiceBodies(fromRootServers: [3])
    /// ```
    @discardableResult
    public func fetchServiceBodies(fromRootServers rootServerIDs: [Int]) -> BMLTRequest {
        start(Self.rootServerServiceBodyQuery(rootServerIDs))
    }

    /// The `async` form of `fetchServiceBodies(fromRootServers:)`.
    /// ```swift
    /// let tree = BMLTServiceBody.tree(from: try await connection.serviceBodies(fromRootServers: [3]))
    /// ```
    public func serviceBodies(fromRootServers rootServerIDs: [Int]) async throws -> [BMLTServiceBody] {
        try await run(Self.rootServerServiceBodyQuery(rootServerIDs))
    }

    nonisolated static func rootServerItems(_ ids: [Int]) -> [URLQueryItem] {
        ids.map { URLQueryItem(name: "root_server_ids[]", value: String($0)) }
    }

    static func rootServerFormatQuery(_ ids: [Int], language: String?) -> Operation<[BMLTFormat]> {
        Operation.read(
            .formats, errorIn: .server,
            work: { context throws(BMLTError) in
                var query = rootServerItems(ids)
                if let language, !language.isEmpty { query.append(URLQueryItem(name: "lang_enum", value: language)) }
                return try WireFormat.decodeList(try await context.semantic("GetFormats", query, what: .formats))
            },
            succeed: { _, formats, request in [.formatSearchResults(formats, isAllUsedFormats: false, request: request)] }
        )
    }

    static func rootServerServiceBodyQuery(_ ids: [Int]) -> Operation<[BMLTServiceBody]> {
        Operation.read(
            .serviceBodies, errorIn: .server,
            work: { context throws(BMLTError) in
                try WireServiceBody.decodeList(try await context.semantic("GetServiceBodies", rootServerItems(ids),
                                                                          what: .serviceBodies))
            },
            succeed: { _, bodies, request in [.serviceBodyResults(bodies, request: request)] }
        )
    }
}
