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
    /// On an aggregator, the root server this format was imported from (`root_server_id`; see `BMLTRootServer`).
    /// The same format key appears once per root server, each with its own `id`.
    public var rootServerID: Int?

    /// A format value.
    public init(id: Int, key: String, name: String = "", description: String = "", language: String = "en",
                worldID: String? = nil, type: BMLTFormatType? = nil, rootServerURI: String? = nil, rootServerID: Int? = nil) {
        self.id = id
        self.key = key
        self.name = name
        self.description = description
        self.language = language
        self.worldID = worldID
        self.type = type
        self.rootServerURI = rootServerURI
        self.rootServerID = rootServerID
    }
}

/// The kind of a format, one model for both vocabularies: the read interface's codes (`format_type_enum`:
/// `FC1`, `FC2`, `FC3`, `O`, `LANG`) and REST's names (`MEETING_FORMAT`, `LOCATION`,
/// `COMMON_NEEDS_OR_RESTRICTION`, `OPEN_OR_CLOSED`, `LANGUAGE`). Either spelling gives the same value; a type
/// neither list knows (4.x reads its types from a table) is kept as the server spelled it.
/// ```swift
/// let type = BMLTFormatType(rawValue: "MEETING_FORMAT")   // == .meetingFormat, rawValue "FC1"
/// print(type.restName)                                     // "MEETING_FORMAT", what a REST write sends
/// let draft = BMLTAdminFormat(worldID: "SPK", type: "FC1", translations: [.init(key: "SP", name: "Speaker", language: "en")])
/// ```
public struct BMLTFormatType: RawRepresentable, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible,
                              ExpressibleByStringLiteral {
    /// The read interface's code for a known type (`FC1`…), else the text as the server sent it.
    public let rawValue: String

    /// The known types: code, REST name.
    private static let known: [(code: String, rest: String)] = [
        ("FC1", "MEETING_FORMAT"), ("FC2", "LOCATION"), ("FC3", "COMMON_NEEDS_OR_RESTRICTION"),
        ("O", "OPEN_OR_CLOSED"), ("LANG", "LANGUAGE"), ("ALERT", "ALERT"),
    ]

    /// The type with this code or REST name (`"FC1"` and `"MEETING_FORMAT"` are the same type); any other
    /// text is kept as it is.
    /// ```swift
    /// BMLTFormatType(rawValue: "LOCATION") == .location   // true
    /// ```
    public init(rawValue: String) {
        let text = rawValue.trimmedSpaces
        self.rawValue = Self.known.first { $0.rest == text || $0.code == text }?.code ?? text
    }

    /// A type from a literal code or REST name: `let type: BMLTFormatType = "FC2"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// A meeting format such as Speaker or Basic Text (`FC1`; REST `MEETING_FORMAT`).
    public static let meetingFormat = BMLTFormatType(rawValue: "FC1")
    /// Something about the location, such as wheelchair access (`FC2`; REST `LOCATION`).
    public static let location = BMLTFormatType(rawValue: "FC2")
    /// Common needs or restrictions, such as Beginners (`FC3`; REST `COMMON_NEEDS_OR_RESTRICTION`).
    public static let commonNeedsOrRestriction = BMLTFormatType(rawValue: "FC3")
    /// Open or closed (`O`; REST `OPEN_OR_CLOSED`).
    public static let openOrClosed = BMLTFormatType(rawValue: "O")
    /// The language of the meeting (`LANG`; REST `LANGUAGE`).
    public static let language = BMLTFormatType(rawValue: "LANG")
    /// Alternate meeting format (`ALERT`), used by some servers.
    public static let alert = BMLTFormatType(rawValue: "ALERT")

    /// The types both vocabularies name.
    /// ```swift
    /// for type in BMLTFormatType.allCases { print(type.rawValue, type.restName) }
    /// ```
    public static let allCases: [BMLTFormatType] = known.map { BMLTFormatType(rawValue: $0.code) }

    /// The REST name (`MEETING_FORMAT`…), what REST writes send; an unknown type's own text.
    /// ```swift
    /// BMLTFormatType.openOrClosed.restName   // "OPEN_OR_CLOSED"
    /// ```
    public var restName: String { Self.known.first { $0.code == rawValue }?.rest ?? rawValue }

    /// Whether this is one of the types both vocabularies name (not a server's own).
    /// ```swift
    /// if !format.type!.isKnown { print("server-defined type", format.type!.rawValue) }
    /// ```
    public var isKnown: Bool { Self.known.contains { $0.code == rawValue } }

    /// The code (`FC1`…) or the unknown text.
    public var description: String { rawValue }

    /// Decodes from a single string in either vocabulary.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as the code (`FC1`…).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
