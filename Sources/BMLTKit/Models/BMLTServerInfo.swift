import Foundation

/// What a root server says about itself (`GetServerInfo`), as clean values.
///
/// Values the server did not send (older versions send fewer) are `nil`.
public struct BMLTServerInfo: Sendable, Hashable, Codable {
    /// The version as text, e.g. "2.16.6".
    public var version: String
    /// The version as a number: major × 1,000,000 + minor × 1,000 + patch (2.16.6 → 2016006).
    public var versionInt: Int
    /// The language codes the server offers, e.g. ["en", "de"], as the server spells them: Danish is `da` on 4.x
    /// and `dk` on 2.x/3.x (the same code keys the formats' translations, so it is not rewritten).
    public var languageCodes: [String]
    /// The server's own language code, e.g. "en".
    public var nativeLanguage: String?
    /// The default map centre.
    public var center: BMLTCoordinate?
    /// The default map zoom.
    public var centerZoom: Int?
    /// The duration a meeting gets when none is given, in seconds (4.x sends `01:00`, 3.x `1:00:00`).
    public var defaultDuration: TimeInterval?
    /// The region bias for geocoding, e.g. "us".
    public var regionBias: String?
    /// The character set, normally "UTF-8".
    public var charSet: String?
    /// The units the server uses for distances (and for `geo_width`).
    public var distanceUnits: BMLTDistanceUnit
    /// Whether the legacy semantic admin interface (`json.php`) is switched on. 4.0.3 dropped the key (read as
    /// `false`) and 4.0.4 brought it back as always `"1"`; 4.x's `json.php` only logs in and out, so BMLTKit never
    /// edits through it there (see `BMLTCapabilities.legacyAdmin`).
    public var semanticAdminEnabled: Bool
    /// Whether messages to meeting contacts are switched on.
    public var emailEnabled: Bool
    /// Whether messages to contacts also go to the service body's administrators.
    public var emailIncludesServiceBodies: Bool
    /// How many changes the server keeps per meeting.
    public var changesPerMeeting: Int?
    /// The states/provinces offered in the admin UI.
    public var statesAndProvinces: [String]
    /// The counties/sub-provinces offered in the admin UI.
    public var countiesAndSubProvinces: [String]
    /// The field keys a search can return.
    public var availableKeys: [String]
    /// The database version (2.x: a number; 3.x: the last migration's name).
    public var databaseVersion: String?
    /// Whether meetings have time zones.
    public var meetingTimeZonesEnabled: Bool
    /// Whether the server geocodes addresses when meetings are saved (3.x).
    public var autoGeocodingEnabled: Bool?
    /// Whether new meetings are closed by default (3.x).
    public var defaultClosedStatus: Bool?
    /// Whether this is an aggregator (a server that merges other root servers, such as TOMATO).
    public var aggregatorModeEnabled: Bool
    /// The server's build commit (3.x).
    public var commit: String?
    /// The PHP version the server runs on.
    public var phpVersion: String?

    /// The major version (2 for 2.16.6).
    public var majorVersion: Int { versionInt / 1_000_000 }
    /// The minor version (16 for 2.16.6).
    public var minorVersion: Int { (versionInt / 1000) % 1000 }
    /// The patch version (6 for 2.16.6).
    public var patchVersion: Int { versionInt % 1000 }

    /// A server-info value; everything but the version has a default.
    public init(version: String, versionInt: Int, languageCodes: [String] = [], nativeLanguage: String? = nil,
                center: BMLTCoordinate? = nil, centerZoom: Int? = nil, defaultDuration: TimeInterval? = nil,
                regionBias: String? = nil, charSet: String? = nil, distanceUnits: BMLTDistanceUnit = .miles,
                semanticAdminEnabled: Bool = false, emailEnabled: Bool = false, emailIncludesServiceBodies: Bool = false,
                changesPerMeeting: Int? = nil, statesAndProvinces: [String] = [], countiesAndSubProvinces: [String] = [],
                availableKeys: [String] = [], databaseVersion: String? = nil, meetingTimeZonesEnabled: Bool = false,
                autoGeocodingEnabled: Bool? = nil, defaultClosedStatus: Bool? = nil, aggregatorModeEnabled: Bool = false,
                commit: String? = nil, phpVersion: String? = nil) {
        self.version = version
        self.versionInt = versionInt
        self.languageCodes = languageCodes
        self.nativeLanguage = nativeLanguage
        self.center = center
        self.centerZoom = centerZoom
        self.defaultDuration = defaultDuration
        self.regionBias = regionBias
        self.charSet = charSet
        self.distanceUnits = distanceUnits
        self.semanticAdminEnabled = semanticAdminEnabled
        self.emailEnabled = emailEnabled
        self.emailIncludesServiceBodies = emailIncludesServiceBodies
        self.changesPerMeeting = changesPerMeeting
        self.statesAndProvinces = statesAndProvinces
        self.countiesAndSubProvinces = countiesAndSubProvinces
        self.availableKeys = availableKeys
        self.databaseVersion = databaseVersion
        self.meetingTimeZonesEnabled = meetingTimeZonesEnabled
        self.autoGeocodingEnabled = autoGeocodingEnabled
        self.defaultClosedStatus = defaultClosedStatus
        self.aggregatorModeEnabled = aggregatorModeEnabled
        self.commit = commit
        self.phpVersion = phpVersion
    }
}

/// The unit a root server measures distances in.
public enum BMLTDistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// Statute miles (`mi`).
    case miles = "mi"
    /// Kilometres (`km`).
    case kilometers = "km"
}

/// A language a root server offers.
public struct BMLTLanguage: Sendable, Hashable, Codable, Identifiable {
    /// The language code, e.g. "en".
    public var code: String
    /// The language's own name, e.g. "Español", when the server says.
    public var name: String?
    /// Whether this is the server's default language.
    public var isDefault: Bool

    /// The language code.
    public var id: String { code }

    /// A language value.
    public init(code: String, name: String? = nil, isDefault: Bool = false) {
        self.code = code
        self.name = name
        self.isDefault = isDefault
    }
}

/// What a root server can do, detected when it is validated.
public struct BMLTCapabilities: OptionSet, Sendable, Hashable, Codable {
    /// The raw bits.
    public let rawValue: Int
    /// A capability set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The REST administration interface `/api/v1` (root server 3.0 and newer).
    public static let restAdmin = BMLTCapabilities(rawValue: 1 << 0)
    /// The legacy administration interface `local_server/server_admin/json.php` (switched on, server older than 4.0).
    public static let legacyAdmin = BMLTCapabilities(rawValue: 1 << 1)
    /// Messages to meeting contacts through `client_interface/contact.php`.
    public static let contactMessages = BMLTCapabilities(rawValue: 1 << 2)
    /// The server aggregates other root servers (meeting ids are per root server; `root_server_ids` filter).
    public static let aggregator = BMLTCapabilities(rawValue: 1 << 3)
    /// The `GetLangs.php` language list (2.x).
    public static let languageList = BMLTCapabilities(rawValue: 1 << 4)
    /// The NAWS export (`GetNAWSDump`).
    public static let nawsExport = BMLTCapabilities(rawValue: 1 << 5)
    /// Comma lists for `services`, `formats` and `weekdays` parameters (3.1 and newer).
    public static let commaSeparatedParameters = BMLTCapabilities(rawValue: 1 << 6)
    /// The server's settings over REST (`GET/PATCH /api/v1/settings`, root server 4.0 and newer; server
    /// administrators only).
    /// ```swift
    /// if connection.server.capabilities.contains(.serverSettings) { /* offer a settings screen */ }
    /// ```
    public static let serverSettings = BMLTCapabilities(rawValue: 1 << 7)
}
