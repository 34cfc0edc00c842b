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
