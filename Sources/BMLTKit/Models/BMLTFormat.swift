/// A meeting format: a short key ("O", "BT", "WC") with a name and description in one language.
///
/// Formats are identified across languages by `id` (the server's "shared id"): the Spanish and English
/// versions of one format share an `id` and differ in `language`, `key`, `name` and `description`.
public struct BMLTFormat: Sendable, Hashable, Codable, Identifiable {
    /// The shared id (the same for every translation of this format).
    public var id: Int
    /// The short key shown in meeting lists, e.g. "O".
    public var key: String
    /// The name, e.g. "Open".
    public var name: String
    /// A longer description.
    public var description: String
    /// The language code of `key`, `name` and `description`, e.g. "en".
    public var language: String
    /// The NAWS world id, e.g. "OPEN", when the server has one.
    public var worldID: String?
    /// What kind of format this is, when the server says.
    public var type: BMLTFormatType?
    /// The root server this format came from (aggregator servers mix several).
    public var rootServerURI: String?

    /// A format value.
    public init(id: Int, key: String, name: String = "", description: String = "", language: String = "en",
                worldID: String? = nil, type: BMLTFormatType? = nil, rootServerURI: String? = nil) {
        self.id = id
        self.key = key
        self.name = name
        self.description = description
        self.language = language
        self.worldID = worldID
        self.type = type
        self.rootServerURI = rootServerURI
    }
}

/// The kind of a format (`format_type_enum` on the wire).
public enum BMLTFormatType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A meeting format such as Speaker or Basic Text (`FC1`; REST `MEETING_FORMAT`).
    case meetingFormat = "FC1"
    /// Something about the location, such as wheelchair access (`FC2`; REST `LOCATION`).
    case location = "FC2"
    /// Common needs or restrictions, such as Beginners (`FC3`; REST `COMMON_NEEDS_OR_RESTRICTION`).
    case commonNeedsOrRestriction = "FC3"
    /// Open or closed (`O`; REST `OPEN_OR_CLOSED`).
    case openOrClosed = "O"
    /// The language of the meeting (`LANG`; REST `LANGUAGE`).
    case language = "LANG"
    /// Alternate meeting format (`ALERT`), used by some servers.
    case alert = "ALERT"
}
