import Foundation

/// A JSON value exactly as the server sent it, before any interpretation.
///
/// The root server's JSON is loosely typed: ids, weekdays and coordinates arrive as strings, empty values
/// as `""`, some flags as real booleans on 3.x, some numbers as JSON numbers in the legacy admin replies.
/// `WireValue` keeps the raw shape; the lenient accessors below (`string`, `int`, `double`, `bool`) are the
/// only place where those quirks are resolved, so nothing outside `Wire/` knows about them.
enum WireValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([WireValue])
    case object([String: WireValue])
}

extension WireValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode([WireValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: WireValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }
}

extension WireValue {
    /// Parses JSON bytes with the single-pass scanner. Invalid JSON (including invalid UTF-8) throws a
    /// `BMLTError.malformedResponse` saying what is wrong and at which byte.
    static func parse(_ data: Data, what: BMLTError.Subject) throws(BMLTError) -> WireValue {
        do {
            return try JSONScanner.parse(data)
        } catch {
            throw .malformedResponse(what: what, detail: .invalidJSON(offset: error.offset))
        }
    }

    /// The reference parse through Foundation's `JSONDecoder`: slower, used to check the scanner.
    static func parseWithFoundation(_ data: Data) throws -> WireValue {
        try JSONDecoder().decode(WireValue.self, from: data)
    }

    /// The object's members, or `nil` when this is not an object.
    var object: [String: WireValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The array's elements, or `nil` when this is not an array.
    var array: [WireValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Member lookup on an object; `nil` for anything else or a missing key.
    subscript(key: String) -> WireValue? {
        object?[key]
    }

    /// The value as text: strings as they are, numbers in their shortest form, booleans as `"1"`/`"0"`.
    /// Empty strings, `null`, arrays and objects are `nil` (the server sends `""` for "no value").
    var string: String? {
        switch self {
        case .string(let text): return text.isEmpty ? nil : text
        case .integer(let number): return String(number)
        case .double(let number): return Self.format(number)
        case .bool(let flag): return flag ? "1" : "0"
        case .null, .array, .object: return nil
        }
    }

    /// Like `string`, but keeps an empty string as `""` instead of `nil`.
    var rawString: String? {
        if case .string(let text) = self { return text }
        return string
    }

    /// The value as an integer: JSON integers, integral doubles, and strings holding a whole number
    /// (surrounding spaces allowed). Anything else, including out-of-range numbers, is `nil`.
    var int: Int? {
        switch self {
        case .integer(let number): return Int(exactly: number)
        case .double(let number): return number.isFinite ? Int(exactly: number) : nil
        case .string(let text): return Int(text.trimmedSpaces)
        case .bool, .null, .array, .object: return nil
        }
    }

    /// The value as a floating point number: JSON numbers and numeric strings; `nil` otherwise.
    var double: Double? {
        switch self {
        case .integer(let number): return Double(number)
        case .double(let number): return number.isFinite ? number : nil
        case .string(let text):
            guard let number = Double(text.trimmedSpaces), number.isFinite else { return nil }
            return number
        case .bool, .null, .array, .object: return nil
        }
    }

    /// The value as a flag: `true`/`false`, `1`/`0` (number or string), `"true"`/`"false"`.
    /// Empty strings and `null` are `nil` (unknown), not `false`.
    var bool: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .integer(let number): return number == 0 ? false : (number == 1 ? true : nil)
        case .double(let number): return number == 0 ? false : (number == 1 ? true : nil)
        case .string(let text):
            switch text.trimmedSpaces.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: return nil
            }
        case .null, .array, .object: return nil
        }
    }

    /// A comma-separated list (the server's way to send lists in one string), or a JSON array of scalars.
    /// Empty items are dropped.
    var list: [String] {
        switch self {
        case .array(let elements): return elements.compactMap(\.string)
        default:
            guard let text = string else { return [] }
            return text.split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }
        }
    }

    private static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return String(number)
    }
}
