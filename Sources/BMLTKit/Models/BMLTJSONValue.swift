import Foundation

/// A JSON value, for the few places where the server's data has no fixed shape (server settings).
public enum BMLTJSONValue: Sendable, Hashable, Codable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([BMLTJSONValue])
    /// An object.
    case object([String: BMLTJSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([BMLTJSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: BMLTJSONValue].self)) }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when this is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, when this is one.
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    /// The flag, when this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
}

/// The server-wide settings of a 4.x root server (`/api/v1/settings`): `googleApiKey`, `language`,
/// `distanceUnits`, `defaultDurationTime`, `regionBias`, … as the server names them.
public struct BMLTServerSettings: Sendable, Hashable, Codable {
    /// Every setting by the server's name.
    public var values: [String: BMLTJSONValue]

    /// Settings.
    public init(values: [String: BMLTJSONValue]) { self.values = values }

    /// One setting.
    public subscript(name: String) -> BMLTJSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
}

/// A root server known to an aggregator (`/api/v1/rootservers`, only with aggregator mode on).
public struct BMLTRootServer: Sendable, Hashable, Codable, Identifiable {
    /// The id in the aggregator.
    public var id: Int
    /// The id in the aggregator's source list.
    public var sourceID: Int
    /// The name.
    public var name: String
    /// The root server's URL, as listed.
    public var url: String
    /// When its data was last imported (ISO 8601), if ever.
    public var lastSuccessfulImport: String?
    /// Its counts of service bodies and meetings by kind (`numAreas`, `numTotal`, `numVirtual`, …), as sent.
    public var statistics: [String: Int]

    /// A root server entry.
    public init(id: Int, sourceID: Int, name: String, url: String, lastSuccessfulImport: String? = nil, statistics: [String: Int] = [:]) {
        self.id = id
        self.sourceID = sourceID
        self.name = name
        self.url = url
        self.lastSuccessfulImport = lastSuccessfulImport
        self.statistics = statistics
    }
}
