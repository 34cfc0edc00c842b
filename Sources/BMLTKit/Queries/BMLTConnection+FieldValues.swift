import Foundation

extension BMLTConnection {
    /// Asks for the fields the server's meetings have (`GetFieldKeys`): posts `.bmltFieldKeyResults`; fills
    /// `server.fieldKeys`.
    @discardableResult
    public func fetchFieldKeys() -> BMLTRequest { start(Self.fieldKeyQuery) }

    /// The `async` form of `fetchFieldKeys()`.
    public func fieldKeys() async throws -> [BMLTFieldKey] { try await run(Self.fieldKeyQuery) }

    /// Asks for every value one field has across published meetings, with the meetings that have it
    /// (`GetFieldValues`): posts `.bmltFieldValueResults`.
    ///
    /// - Parameters:
    ///   - key: a field key (see `fieldKeys()`), e.g. "location_municipality". For "formats" each value is a
    ///     comma list of format ids.
    ///   - specificFormatIDs: for "formats": count only these format ids (2.16.6 on PHP 8 fails on this).
    ///   - requireAllFormats: for "formats": a meeting must have all of `specificFormatIDs`.
    @discardableResult
    public func fetchFieldValues(forKey key: String, specificFormatIDs: [Int] = [],
                                 requireAllFormats: Bool = false) -> BMLTRequest {
        start(Self.fieldValueQuery(key: key, specificFormatIDs: specificFormatIDs, requireAllFormats: requireAllFormats))
    }

    /// The `async` form of `fetchFieldValues(forKey:specificFormatIDs:requireAllFormats:)`.
    public func fieldValues(forKey key: String, specificFormatIDs: [Int] = [],
                            requireAllFormats: Bool = false) async throws -> [BMLTFieldValue] {
        try await run(Self.fieldValueQuery(key: key, specificFormatIDs: specificFormatIDs,
                                           requireAllFormats: requireAllFormats))
    }

    /// Asks for the box that holds all the server's meetings (`GetCoverageArea`): posts
    /// `.bmltCoverageAreaResults`; fills `server.coverageArea`.
    @discardableResult
    public func fetchCoverageArea() -> BMLTRequest { start(Self.coverageQuery) }

    /// The `async` form of `fetchCoverageArea()`.
    public func coverageArea() async throws -> BMLTCoverageArea { try await run(Self.coverageQuery) }

    static let fieldKeyQuery = Operation<[BMLTFieldKey]>.read(
        .fieldValues, errorIn: .server,
        work: { context throws(BMLTError) in
            try WireFieldValues.decodeKeys(try await context.semantic("GetFieldKeys", what: .fieldKeys))
        },
        succeed: { connection, keys, request in
            connection.server.fieldKeys = keys
            return [.fieldKeyResults(keys, request: request)]
        }
    )

    static func fieldValueQuery(key: String, specificFormatIDs: [Int], requireAllFormats: Bool) -> Operation<[BMLTFieldValue]> {
        Operation.read(
            .fieldValues, errorIn: .server,
            work: { context throws(BMLTError) in
                guard !key.isEmpty else { throw .invalidArgument(.emptyFieldKey) }
                var query = [URLQueryItem(name: "meeting_key", value: key)]
                if !specificFormatIDs.isEmpty {
                    query.append(URLQueryItem(name: "specific_formats", value: specificFormatIDs.map(String.init).joined(separator: ",")))
                    if requireAllFormats { query.append(URLQueryItem(name: "all_formats", value: "1")) }
                }
                let reply = try await context.semantic("GetFieldValues", query, what: .fieldValues(key: key))
                return try WireFieldValues.decodeValues(reply, key: key)
            },
            succeed: { connection, values, request in
                return [.fieldValueResults(key: key, values: values, request: request)]
            }
        )
    }

    static let coverageQuery = Operation<BMLTCoverageArea>.read(
        .coverageArea, errorIn: .server,
        work: { context throws(BMLTError) in
            try WireFieldValues.decodeCoverage(try await context.semantic("GetCoverageArea", what: .coverageArea))
        },
        succeed: { connection, area, request in
            connection.server.coverageArea = area
            return [.coverageAreaResults(area, request: request)]
        }
    )
}
