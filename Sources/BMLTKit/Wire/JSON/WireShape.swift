import Foundation

/// Shapes shared by many replies.
enum WireShape {
    /// A list reply: a JSON array, or `{}` (the server's "nothing"), or an object holding one array of objects.
    /// `nil` for anything else (a string, a number, an error object).
    static func list(_ value: WireValue) -> [WireValue]? {
        switch value {
        case .array(let elements): return elements
        case .object(let members) where members.isEmpty: return []
        default: return nil
        }
    }

    /// A list of objects (see `list`); `nil` when the reply is not a list or holds anything but objects
    /// (a list of numbers is not a list of formats, and must not decode as an empty one).
    static func objectList(_ value: WireValue) -> [WireValue]? {
        guard let elements = list(value), elements.allSatisfy({ $0.object != nil }) else { return nil }
        return elements
    }

    /// The records decoded from `count` entries (those without a usable id already left out): fails only when
    /// there were entries and none of them was a record.
    static func usable<Record>(_ records: [Record], of count: Int, what: String, key: String) throws(BMLTError) -> [Record] {
        if records.isEmpty && count > 0 {
            throw .malformedResponse(what: what, detail: "none of its \(count) entries has a usable \(key)")
        }
        return records
    }
}

/// Lenient URLs: the server stores whatever an administrator typed ("www.example.org", "example.org/na").
enum WireURL {
    static func parse(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        if let url = URL(string: trimmed), url.scheme != nil, url.host != nil { return url }
        if let url = URL(string: "https://" + trimmed), url.host?.contains(".") == true { return url }
        return nil
    }
}
