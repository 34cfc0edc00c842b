import Foundation

/// A JSON value whose objects keep their key order, so replies come out in the same key order as a real
/// root server (JSONSerialization would reorder keys). Encoding follows PHP's `json_encode` defaults as the
/// real 3.x server emits them: non-ASCII escaped as `\uXXXX`, slashes left alone.
enum DemoJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([DemoJSON])
    case object([(String, DemoJSON)])

    static func == (lhs: DemoJSON, rhs: DemoJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    subscript(key: String) -> DemoJSON? {
        if case let .object(pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// Whether an object has a member named `key` (even a null one).
    func has(_ key: String) -> Bool {
        if case let .object(pairs) = self { return pairs.contains { $0.0 == key } }
        return false
    }

    var stringValue: String? { if case let .string(s) = self { return s } else { return nil } }
    var isNull: Bool { self == .null }

    /// Whole numbers (also `3.0`) as Int.
    var intValue: Int? {
        switch self {
        case let .int(i): return i
        case let .double(d) where d.rounded() == d && abs(d) < 1e15: return Int(d)
        default: return nil
        }
    }

    var doubleValue: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .double(d): return d
        default: return nil
        }
    }

    // MARK: Encoding

    /// The compact UTF-8 encoding.
    var data: Data { Data(encoded.utf8) }

    var encoded: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .double(d): out += Self.format(d)
        case let .string(s): Self.quote(s, into: &out)
        case let .array(items):
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case let .object(pairs):
            out += "{"
            for (n, pair) in pairs.enumerated() {
                if n > 0 { out += "," }
                Self.quote(pair.0, into: &out)
                out += ":"
                pair.1.write(into: &out)
            }
            out += "}"
        }
    }

    private static func format(_ d: Double) -> String {
        guard d.isFinite else { return "0" }
        if d.rounded() == d && abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out += "\""
    }

    // MARK: Decoding

    /// Parses a JSON document (RFC 8259); nil when it is not valid JSON.
    static func parse(_ data: Data) -> DemoJSON? {
        var parser = Parser(bytes: Array(data))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String, _ result: DemoJSON) -> DemoJSON? {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { return nil }
            index += w.count
            return result
        }

        mutating func value() -> DemoJSON? {
            skipSpace()
            guard index < bytes.count, depth < 64 else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map(DemoJSON.string)
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "{"): return object()
            default: return number()
            }
        }

        mutating func array() -> DemoJSON? {
            index += 1; depth += 1; defer { depth -= 1 }
            var items: [DemoJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                guard let item = value() else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                return nil
            }
        }

        mutating func object() -> DemoJSON? {
            index += 1; depth += 1; defer { depth -= 1 }
            var pairs: [(String, DemoJSON)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let item = value() else { return nil }
                pairs.removeAll { $0.0 == key }
                pairs.append((key, item))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                return nil
            }
        }

        mutating func number() -> DemoJSON? {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > start, let text = String(bytes: bytes[start..<index], encoding: .ascii) else { return nil }
            if let i = Int(text) { return .int(i) }
            return Double(text).map(DemoJSON.double)
        }

        mutating func string() -> String? {
            index += 1
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flushRaw() { units += String(decoding: raw, as: UTF8.self).utf16; raw.removeAll() }
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                if b == UInt8(ascii: "\"") {
                    flushRaw()
                    return String(decoding: units, as: UTF16.self)
                }
                if b < 0x20 { return nil }
                guard b == UInt8(ascii: "\\") else { raw.append(b); continue }
                flushRaw()
                guard index < bytes.count else { return nil }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                          let hex = String(bytes: bytes[index..<index + 4], encoding: .ascii),
                          let unit = UInt16(hex, radix: 16) else { return nil }
                    index += 4
                    units.append(unit)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(e))
                default: return nil
                }
            }
            return nil
        }
    }
}
