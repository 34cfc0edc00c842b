import Foundation

/// The formats a reply's format keys and ids are resolved against: by id, and by key per language.
struct WireFormatTable: Sendable {
    private var byID: [Int: [BMLTFormat]] = [:]
    private var byKey: [String: [BMLTFormat]] = [:]

    /// An empty table: meetings keep their keys and ids, with no format objects.
    static let empty = WireFormatTable([])

    /// Whether the table has no formats (every meeting then resolves to none).
    var isEmpty: Bool { byID.isEmpty && byKey.isEmpty }

    init(_ formats: [BMLTFormat]) {
        for format in formats {
            byID[format.id, default: []].append(format)
            byKey[format.key, default: []].append(format)
        }
    }

    /// A table where `preferred` win over `fallback` (the search's own formats over the server's list).
    init(preferred: [BMLTFormat], fallback: [BMLTFormat]) {
        self.init(preferred + fallback)
    }

    /// The format with this id, in `language` when there is such a translation.
    func format(id: Int, language: String?) -> BMLTFormat? {
        guard let candidates = byID[id] else { return nil }
        return candidates.first { $0.language == language } ?? candidates.first
    }

    /// The format with this key, preferring `language`.
    func format(key: String, language: String?) -> BMLTFormat? {
        guard let candidates = byKey[key] else { return nil }
        return candidates.first { $0.language == language } ?? candidates.first
    }
}
