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
    /// Entries left out are counted in a warning through the running operation's log (`droppedLog`).
    static func usable<Record>(_ records: [Record], of count: Int, what: BMLTError.Subject, key: String) throws(BMLTError) -> [Record] {
        if records.isEmpty && count > 0 {
            throw .malformedResponse(what: what, detail: .noUsableEntry(count: count, key: key))
        }
        let dropped = count - records.count
        if dropped > 0 {
            droppedLog?.warning("\(what) held \(dropped) entr\(dropped == 1 ? "y" : "ies") without a usable \(key); "
                                + "left out (\(records.count) kept)")
        }
        return records
    }

    /// The log of the operation decoding a reply, bound by the connection around each operation's work, so list
    /// decoders (which have no context) can say what they left out.
    @TaskLocal static var droppedLog: RequestLog?
}

/// Lenient URLs: the server stores whatever an administrator typed ("www.example.org", "example.org/na").
enum WireURL {
    static func parse(_ text: String) -> URL? {
        let trimmed = text.trimmedSpaces
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        if let url = URL(string: trimmed), url.scheme != nil, url.host != nil { return url }
        if let url = URL(string: "https://" + trimmed), url.host?.contains(".") == true { return url }
        return nil
    }
}
