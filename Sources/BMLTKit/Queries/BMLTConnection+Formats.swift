import Foundation

extension BMLTConnection {
    /// Asks for formats (`GetFormats`): posts `.bmltFormatSearchResults`. The full list in the server's language
    /// (no filter, `includeUnused`) also refreshes `server.formats`.
    ///
    /// - Parameters:
    ///   - language: the language code, e.g. "es"; `nil` for the server's language.
    ///   - ids: only these format ids (filtered here too: 2.x servers ignore the parameter).
    ///   - keys: only these keys, e.g. `["O", "C"]`.
    ///   - includeUnused: `true` (default) for every format, `false` for those used by at least one meeting.
    @discardableResult
    public func fetchFormats(language: String? = nil, ids: [Int] = [], keys: [String] = [],
                             includeUnused: Bool = true) -> BMLTRequest {
        start(Self.formatQuery(language: language, ids: ids, keys: keys, includeUnused: includeUnused))
    }

    /// The `async` form of `fetchFormats(language:ids:keys:includeUnused:)`.
    public func formats(language: String? = nil, ids: [Int] = [], keys: [String] = [],
                        includeUnused: Bool = true) async throws -> [BMLTFormat] {
        try await run(Self.formatQuery(language: language, ids: ids, keys: keys, includeUnused: includeUnused))
    }

    static func formatQuery(language: String?, ids: [Int], keys: [String], includeUnused: Bool) -> Operation<[BMLTFormat]> {
        let isFullList = ids.isEmpty && keys.isEmpty && includeUnused
        return Operation.read(
            .formats, errorIn: .server,
            work: { context throws(BMLTError) in
                var query: [URLQueryItem] = []
                if let language, !language.isEmpty { query.append(URLQueryItem(name: "lang_enum", value: language)) }
                if includeUnused { query.append(URLQueryItem(name: "show_all", value: "1")) }
                query += ids.map { URLQueryItem(name: "format_ids[]", value: String($0)) }
                query += keys.map { URLQueryItem(name: "key_strings[]", value: $0) }
                var formats = try WireFormat.decodeList(try await context.semantic("GetFormats", query, what: .formats))
                if !ids.isEmpty { formats = formats.filter { ids.contains($0.id) } }
                if !keys.isEmpty { formats = formats.filter { keys.contains($0.key) } }
                return formats
            },
            succeed: { connection, formats, request in
                let store = connection.server
                let native = store.info?.nativeLanguage
                if isFullList, language == nil || language == native { store.formats = formats }
                return [.formatSearchResults(formats, isAllUsedFormats: false, request: request)]
            }
        )
    }
}
