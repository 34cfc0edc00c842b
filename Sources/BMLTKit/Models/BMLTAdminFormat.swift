import Foundation

/// A format as the REST administration interface (`/api/v1/formats`) holds it: one id, its NAWS world id and
/// type, and a translation per language. (Searches use `BMLTFormat`, one value per language.)
public struct BMLTAdminFormat: Sendable, Hashable, Codable, Identifiable {
    /// The format's id (0 for a format not created yet).
    public var id: Int
    /// The NAWS code (`"BEG"`, `"OPEN"`, …), if any.
    public var worldID: String?
    /// The format type, in either vocabulary (`"FC1"` and `"MEETING_FORMAT"` are the same type; writes send
    /// REST's name), if any; types the server defines itself are kept.
    public var type: BMLTFormatType?
    /// The format in each language the server has it in.
    public var translations: [Translation]

    /// One language's version of a format.
    public struct Translation: Sendable, Hashable, Codable {
        /// The short key shown in meeting lists (`"O"`, `"BT"`).
        public var key: String
        /// The name (`"Open"`).
        public var name: String
        /// The longer description.
        public var description: String
        /// The language code (`"en"`).
        public var language: String

        /// A translation.
        public init(key: String, name: String, description: String = "", language: String) {
            self.key = key
            self.name = name
            self.description = description
            self.language = language
        }
    }

    /// A format; leave `id` at 0 to create one.
    public init(id: Int = 0, worldID: String? = nil, type: BMLTFormatType? = nil, translations: [Translation]) {
        self.id = id
        self.worldID = worldID
        self.type = type
        self.translations = translations
    }

    /// The translation in `language`, if there is one.
    public func translation(_ language: String) -> Translation? {
        translations.first { $0.language == language }
    }
}
