import Foundation

/// What the change log does not record: a format's key, name or description changed (the meetings that use it read
/// differently, and no change record says so). The formats the list uses are compared with `GetFormats`; the meetings
/// that use one that changed or went are asked for again with the others.
enum FormatCheck {
    /// The ids of the meetings of `previous` that use a format the server now describes otherwise (or no longer has).
    static func affected(_ previous: BMLTSearchResults, language: String?, _ context: OperationContext) async -> Result<Set<Int>, BMLTError> {
        let used = usedFormats(previous)
        guard !used.isEmpty else { return .success([]) }
        var query: [URLQueryItem] = []
        if let language, !language.isEmpty { query.append(URLQueryItem(name: "lang_enum", value: language)) }
        let current: [BMLTFormat]
        do {
            let reply = try await context.freshSemanticReply("GetFormats", query, unique: true)
            context.transport.refreshMemory.noteFormats(bytes: reply.data.count)
            current = try WireFormat.decodeList(try WireReply.body(reply.data, what: .formats))
        } catch {
            return .failure(error)
        }
        let now = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = used.filter { format in
            guard let server = now[format.id] else { return true }
            return !sameWords(format, server)
        }
        guard !changed.isEmpty else { return .success([]) }
        let ids = Set(changed.map(\.id)), keys = Set(changed.map(\.key))
        let meetings = previous.meetings.filter { meeting in
            meeting.formatIDs.contains(where: ids.contains) || meeting.formatKeys.contains(where: keys.contains)
        }
        context.transport.log.note("refresh: \(changed.count) format\(changed.count == 1 ? "" : "s") changed on the server "
                                   + "(\(changed.map(\.key).sorted().joined(separator: ", "))): \(meetings.count) meetings asked for again")
        return .success(Set(meetings.map(\.id)))
    }

    /// The formats the list shows: its format list, or (a meetings-only search) the formats its meetings resolved.
    static func usedFormats(_ results: BMLTSearchResults) -> [BMLTFormat] {
        if !results.formats.isEmpty { return results.formats }
        var seen = Set<Int>()
        return results.meetings.flatMap(\.formats).filter { seen.insert($0.id).inserted }
    }

    /// Whether the list's format reads as the server's does now.
    private static func sameWords(_ lhs: BMLTFormat, _ rhs: BMLTFormat) -> Bool {
        lhs.key == rhs.key && lhs.name == rhs.name && lhs.description == rhs.description && lhs.type == rhs.type
            && lhs.worldID == rhs.worldID && lhs.language == rhs.language
    }
}
