import Foundation

/// The server-wide settings of a 4.x root server (`GET/PATCH /api/v1/settings`, server administrators only):
/// typed properties for the settings the spec names, every value (those included, and keys this version of
/// BMLTKit does not know) kept in `values` under the server's own name.
///
/// `googleApiKey` is a secret: `description`, `debugDescription` and dumps show it as `<hidden>`.
/// ```swift
/// var settings = try await connection.serverSettings()
/// let original = settings
/// settings.regionBias = "ca"
/// settings.searchSpecMapCenterZoom = 8
/// _ = try await connection.patchServerSettingsAndWait(settings.changes(from: original))
/// ```
public struct BMLTServerSettings: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
                                  CustomReflectable {
    /// Every setting by the server's name (the typed properties read and write these).
    public var values: [String: BMLTJSONValue]

    /// Settings from the server's values.
    /// ```swift
    /// let settings = BMLTServerSettings(values: ["regionBias": .string("us")])
    /// ```
    public init(values: [String: BMLTJSONValue]) { self.values = values }

    /// One setting by the server's name.
    /// ```swift
    /// let title = settings["bmltTitle"]?.stringValue
    /// ```
    public subscript(name: String) -> BMLTJSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The settings whose value differs from `original` (set or removed), as `patchServerSettings` takes them.
    /// ```swift
    /// let changes = edited.changes(from: original)   // ["regionBias": .string("ca")]
    /// ```
    public func changes(from original: BMLTServerSettings) -> [String: BMLTJSONValue] {
        var changes: [String: BMLTJSONValue] = [:]
        for (key, value) in values where original.values[key] != value { changes[key] = value }
        for key in original.values.keys where values[key] == nil { changes[key] = .null }
        return changes
    }

    /// The setting names the spec (4.1.0) defines; others in `values` are the server's own.
    /// ```swift
    /// let extra = settings.values.keys.filter { !BMLTServerSettings.knownKeys.contains($0) }
    /// ```
    public static let knownKeys: Set<String> = [
        "googleApiKey", "changeDepthForMeetings", "defaultSortKey", "language", "defaultDurationTime", "regionBias",
        "distanceUnits", "meetingStatesAndProvinces", "meetingCountiesAndSubProvinces", "searchSpecMapCenterLongitude",
        "searchSpecMapCenterLatitude", "searchSpecMapCenterZoom", "numberOfMeetingsForAuto", "autoGeocodingEnabled",
        "countyAutoGeocodingEnabled", "zipAutoGeocodingEnabled", "defaultClosedStatus", "enableLanguageSelector",
        "includeServiceBodyEmailInSemantic", "bmltTitle", "bmltNotice", "formatLangNames",
    ]

    // MARK: - Typed settings

    /// The Google Maps API key (a secret: never shown by `description`).
    /// ```swift
    /// settings.googleApiKey = newKey
    /// ```
    public var googleApiKey: String? { get { string("googleApiKey") } set { set("googleApiKey", newValue.map(BMLTJSONValue.string)) } }
    /// How many changes are kept per meeting (0: all).
    /// ```swift
    /// settings.changeDepthForMeetings = 10
    /// ```
    public var changeDepthForMeetings: Int? { get { int("changeDepthForMeetings") } set { set("changeDepthForMeetings", number(newValue)) } }
    /// The default sort key of searches, `nil` for the server's default.
    /// ```swift
    /// settings.defaultSortKey = "time"
    /// ```
    public var defaultSortKey: String? { get { string("defaultSortKey") } set { set("defaultSortKey", newValue.map(BMLTJSONValue.string) ?? .null) } }
    /// The server's language, e.g. "en" (Danish is "da").
    /// ```swift
    /// settings.language = "da"
    /// ```
    public var language: String? { get { string("language") } set { set("language", newValue.map(BMLTJSONValue.string)) } }
    /// The duration new meetings get, in seconds (`defaultDurationTime`, `HH:MM` on the wire).
    /// ```swift
    /// settings.defaultDuration = 90 * 60   // sent as "01:30"
    /// ```
    public var defaultDuration: TimeInterval? {
        get { string("defaultDurationTime").flatMap(WireTime.duration) }
        set { set("defaultDurationTime", newValue.map { .string(WireRESTMeeting.hoursAndMinutes(BMLTTimeOfDay(hour: 0, second: WireTime.wholeSeconds($0)))) }) }
    }
    /// The region bias for geocoding, e.g. "us".
    /// ```swift
    /// settings.regionBias = "ca"
    /// ```
    public var regionBias: String? { get { string("regionBias") } set { set("regionBias", newValue.map(BMLTJSONValue.string)) } }
    /// Miles or kilometres.
    /// ```swift
    /// settings.distanceUnits = .kilometers
    /// ```
    public var distanceUnits: BMLTDistanceUnit? {
        get { string("distanceUnits").flatMap { BMLTDistanceUnit(rawValue: $0.lowercased()) } }
        set { set("distanceUnits", newValue.map { .string($0.rawValue) }) }
    }
    /// The states and provinces offered for meetings.
    /// ```swift
    /// settings.meetingStatesAndProvinces = ["NY", "NJ"]
    /// ```
    public var meetingStatesAndProvinces: [String] { get { strings("meetingStatesAndProvinces") } set { set("meetingStatesAndProvinces", .array(newValue.map(BMLTJSONValue.string))) } }
    /// The counties and sub-provinces offered for meetings.
    /// ```swift
    /// settings.meetingCountiesAndSubProvinces = ["Nassau"]
    /// ```
    public var meetingCountiesAndSubProvinces: [String] { get { strings("meetingCountiesAndSubProvinces") } set { set("meetingCountiesAndSubProvinces", .array(newValue.map(BMLTJSONValue.string))) } }
    /// The centre of the search map.
    /// ```swift
    /// settings.searchSpecMapCenter = BMLTCoordinate(latitude: 40.7, longitude: -73.6)
    /// ```
    public var searchSpecMapCenter: BMLTCoordinate? {
        get {
            guard let latitude = values["searchSpecMapCenterLatitude"]?.numberValue,
                  let longitude = values["searchSpecMapCenterLongitude"]?.numberValue else { return nil }
            return BMLTCoordinate(latitude: latitude, longitude: longitude)
        }
        set {
            set("searchSpecMapCenterLatitude", newValue.map { .number($0.latitude) })
            set("searchSpecMapCenterLongitude", newValue.map { .number($0.longitude) })
        }
    }
    /// The zoom of the search map.
    /// ```swift
    /// settings.searchSpecMapCenterZoom = 8
    /// ```
    public var searchSpecMapCenterZoom: Int? { get { int("searchSpecMapCenterZoom") } set { set("searchSpecMapCenterZoom", number(newValue)) } }
    /// How many meetings an automatic radius search looks for.
    /// ```swift
    /// settings.numberOfMeetingsForAuto = 10
    /// ```
    public var numberOfMeetingsForAuto: Int? { get { int("numberOfMeetingsForAuto") } set { set("numberOfMeetingsForAuto", number(newValue)) } }
    /// Whether addresses are geocoded automatically.
    /// ```swift
    /// settings.autoGeocodingEnabled = true
    /// ```
    public var autoGeocodingEnabled: Bool? { get { bool("autoGeocodingEnabled") } set { set("autoGeocodingEnabled", newValue.map(BMLTJSONValue.bool)) } }
    /// Whether counties are filled in by geocoding.
    /// ```swift
    /// settings.countyAutoGeocodingEnabled = false
    /// ```
    public var countyAutoGeocodingEnabled: Bool? { get { bool("countyAutoGeocodingEnabled") } set { set("countyAutoGeocodingEnabled", newValue.map(BMLTJSONValue.bool)) } }
    /// Whether postal codes are filled in by geocoding.
    /// ```swift
    /// settings.zipAutoGeocodingEnabled = false
    /// ```
    public var zipAutoGeocodingEnabled: Bool? { get { bool("zipAutoGeocodingEnabled") } set { set("zipAutoGeocodingEnabled", newValue.map(BMLTJSONValue.bool)) } }
    /// Whether meetings are closed unless marked open.
    /// ```swift
    /// settings.defaultClosedStatus = true
    /// ```
    public var defaultClosedStatus: Bool? { get { bool("defaultClosedStatus") } set { set("defaultClosedStatus", newValue.map(BMLTJSONValue.bool)) } }
    /// Whether the admin UI offers a language selector.
    /// ```swift
    /// settings.enableLanguageSelector = true
    /// ```
    public var enableLanguageSelector: Bool? { get { bool("enableLanguageSelector") } set { set("enableLanguageSelector", newValue.map(BMLTJSONValue.bool)) } }
    /// Whether service bodies' emails are published through the read interface.
    /// ```swift
    /// settings.includeServiceBodyEmailInSemantic = false
    /// ```
    public var includeServiceBodyEmailInSemantic: Bool? { get { bool("includeServiceBodyEmailInSemantic") } set { set("includeServiceBodyEmailInSemantic", newValue.map(BMLTJSONValue.bool)) } }
    /// The admin UI's title.
    /// ```swift
    /// settings.bmltTitle = "Greater New York Region"
    /// ```
    public var bmltTitle: String? { get { string("bmltTitle") } set { set("bmltTitle", newValue.map(BMLTJSONValue.string)) } }
    /// The notice shown in the admin UI.
    /// ```swift
    /// settings.bmltNotice = "Maintenance on Sunday"
    /// ```
    public var bmltNotice: String? { get { string("bmltNotice") } set { set("bmltNotice", newValue.map(BMLTJSONValue.string)) } }
    /// Names of format languages, by code (the server sends `[]` when there are none).
    /// ```swift
    /// settings.formatLangNames = ["da": "Dansk"]
    /// ```
    public var formatLangNames: [String: String] {
        get {
            guard case .object(let members) = values["formatLangNames"] else { return [:] }
            return members.compactMapValues(\.stringValue)
        }
        set { set("formatLangNames", .object(newValue.mapValues(BMLTJSONValue.string))) }
    }

    // MARK: - Secrets

    /// The settings, with `googleApiKey` hidden.
    public var description: String {
        let shown = values.keys.sorted().map { key in key + ": " + (key == "googleApiKey" ? "<hidden>" : Self.text(values[key]!)) }
        return "BMLTServerSettings(" + shown.joined(separator: ", ") + ")"
    }

    /// As `description`: the key is hidden.
    public var debugDescription: String { description }

    /// Dumps and mirrors show `description` only (the key hidden).
    public var customMirror: Mirror { Mirror(self, children: ["settings": description]) }

    private static func text(_ value: BMLTJSONValue) -> String {
        switch value {
        case .string(let text): return "\"" + text + "\""
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(text).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.keys.sorted().map { $0 + ": " + text(members[$0]!) }.joined(separator: ", ") + "}"
        }
    }

    // MARK: - Value access

    private func string(_ key: String) -> String? { values[key]?.stringValue }
    private func bool(_ key: String) -> Bool? { values[key]?.boolValue }
    private func int(_ key: String) -> Int? {
        guard let number = values[key]?.numberValue, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }
    private func strings(_ key: String) -> [String] {
        guard case .array(let items) = values[key] else { return [] }
        return items.compactMap(\.stringValue)
    }
    private func number(_ value: Int?) -> BMLTJSONValue? { value.map { .number(Double($0)) } }
    private mutating func set(_ key: String, _ value: BMLTJSONValue?) { values[key] = value }
}
