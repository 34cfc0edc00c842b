import Foundation

/// What decoding many meetings shares: the format table, time zones already looked up, and the values that
/// repeat from meeting to meeting (format lists, the root server's address), kept by the bytes they were read
/// from so that equal meetings share one array or string instead of each making its own.
struct MeetingDecodingContext: Sendable {
    let formats: WireFormatTable
    private var timeZones: [String: TimeZone?] = [:]
    /// `formats` (CSV of keys) by its raw bytes, with the formats resolved from it per language.
    var formatKeyLists = ByteKeyedCache<FormatList<String>>()
    /// `format_shared_id_list` (CSV of ids) by its raw bytes, with the formats resolved from it per language.
    var formatIDLists = ByteKeyedCache<FormatList<Int>>()
    /// Long text that is the same in most meetings of a reply (`root_server_uri`, `service_body_name`).
    var texts = ByteKeyedCache<String>()
    /// `time_zone` by its raw bytes.
    var zones = ByteKeyedCache<TimeZone?>()

    init(formats: WireFormatTable) { self.formats = formats }

    /// `TimeZone(identifier:)` is slow on Linux; a search has few distinct zones.
    mutating func timeZone(_ identifier: String) -> TimeZone? {
        if let known = timeZones[identifier] { return known }
        let zone = TimeZone(identifier: identifier)
        timeZones[identifier] = zone
        return zone
    }
}

/// A meeting's format keys or ids as read from one CSV, and the format objects they resolved to, per language.
struct FormatList<Item: Sendable>: Sendable {
    let items: [Item]
    var resolved: [(language: String?, formats: ResolvedFormats)] = []

    init(_ items: [Item]) { self.items = items }

    /// The formats already resolved for `language`.
    func formats(in language: String?) -> ResolvedFormats? {
        for entry in resolved where entry.language == language { return entry.formats }
        return nil
    }
}

/// The formats one list resolved to, with their keys and ids (to fill the list a reply left out).
struct ResolvedFormats: Sendable {
    let formats: [BMLTFormat]
    let keys: [String]
    let ids: [Int]

    init(_ formats: [BMLTFormat]) {
        self.formats = formats
        keys = formats.map(\.key)
        ids = formats.map(\.id)
    }
}
