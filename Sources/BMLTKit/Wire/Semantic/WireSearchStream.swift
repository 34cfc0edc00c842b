import Foundation

/// The fast path for `GetSearchResults`: one pass over the UTF-8 bytes with `JSONScanner`, each meeting's
/// members fed straight into `MeetingBuilder` (no `WireValue` tree, no dictionaries, no `Any`).
///
/// It gives exactly what `WireValue.parse` + `WireSearchResults.decode` give (the reference path, which
/// `WireSearchStreamEquivalenceTests` compare it with on every capture). It handles the two shapes real servers
/// send — a list of meetings, and an object holding `meetings` and/or `formats` — and on anything else, or on
/// any error, hands the bytes to the reference path, which then names the error exactly as it always has.
enum WireSearchStream {
    /// Decodes a search reply's body.
    static func decode(_ data: Data, serverFormats: [BMLTFormat],
                       what: String = "the meeting search results") throws(BMLTError) -> BMLTSearchResults {
        if let results = try? fast(data, serverFormats: serverFormats) { return results }
        return try reference(data, serverFormats: serverFormats, what: what)
    }

    /// `decode`, then without the meetings that have no usable id (`id_bigint` missing, not a number, or not
    /// positive: such an entry is not a record, and must not surface as meeting #0). Fails only when the reply held
    /// meetings and none of them is usable; `dropped` says how many were left out. A search whose `data_field_key`
    /// leaves `id_bigint` out (`query`) gets id-less meetings by design: they are kept.
    static func decodeUsable(_ data: Data, query: [URLQueryItem], serverFormats: [BMLTFormat],
                             what: String = "the meeting search results") throws(BMLTError) -> (results: BMLTSearchResults, dropped: Int) {
        try usable(try decode(data, serverFormats: serverFormats, what: what), query: query, what: what)
    }

    /// Search results without the meetings that have no usable id (see `decodeUsable`).
    static func usable(_ results: BMLTSearchResults, query: [URLQueryItem],
                       what: String = "the meeting search results") throws(BMLTError) -> (results: BMLTSearchResults, dropped: Int) {
        var results = results
        if let fields = query.first(where: { $0.name == "data_field_key" })?.value,
           !fields.split(separator: ",").contains("id_bigint") {
            return (results, 0)
        }
        let all = results.meetings.count
        guard results.meetings.contains(where: { $0.id <= 0 }) else { return (results, 0) }
        results.meetings.removeAll { $0.id <= 0 }
        if results.meetings.isEmpty {
            throw .malformedResponse(what: what, detail: "none of its \(all) meetings has a usable id (id_bigint)")
        }
        return (results, all - results.meetings.count)
    }

    /// The reference path: the generic tree, then the generic mapping.
    static func reference(_ data: Data, serverFormats: [BMLTFormat],
                          what: String = "the meeting search results") throws(BMLTError) -> BMLTSearchResults {
        try WireSearchResults.decode(try WireReply.body(data, what: what), serverFormats: serverFormats)
    }

    /// Not one of the two usual shapes: let the reference path decide.
    private struct OtherShape: Error {}

    /// The single pass. Throws (anything) when the reference path must decide.
    static func fast(_ data: Data, serverFormats: [BMLTFormat]) throws -> BMLTSearchResults {
        let result: Result<BMLTSearchResults, any Error> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            var reader = MeetingReader()
            do {
                let results = try reader.results(&scanner, serverFormats: serverFormats)
                try scanner.end()
                return .success(results)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads meetings member by member, remembering the order of the keys of the meeting before (every
    /// meeting of a reply has the same keys in the same order, so a key is usually one `memcmp`).
    struct MeetingReader {
        private var predicted: [Int] = []
        private let keys = MeetingKeyTable.shared

        mutating func results(_ scanner: inout JSONScanner, serverFormats: [BMLTFormat]) throws -> BMLTSearchResults {
            switch scanner.peek() {
            case UInt8(ascii: "["):
                var context = MeetingDecodingContext(formats: WireFormatTable(serverFormats))
                return BMLTSearchResults(meetings: try meetings(&scanner, context: &context), formats: [])
            case UInt8(ascii: "{"):
                return try object(&scanner, serverFormats: serverFormats)
            default:
                throw OtherShape()
            }
        }

        /// `{"meetings": [...], "formats": [...]}` in either order; formats are resolved once both are read.
        private mutating func object(_ scanner: inout JSONScanner, serverFormats: [BMLTFormat]) throws -> BMLTSearchResults {
            var meetings: [BMLTMeeting]?
            var formats: [BMLTFormat]?
            var context = MeetingDecodingContext(formats: .empty)
            if try scanner.beginObject() {
                repeat {
                    let key = try scanner.key()
                    if scanner.key(key, is: "meetings") {
                        meetings = try self.meetings(&scanner, context: &context)
                    } else if scanner.key(key, is: "formats") {
                        formats = try WireFormat.decodeList(try scanner.value(),
                                                            what: "the formats of the meeting search results")
                    } else if key.hasEscapes {
                        throw OtherShape()      // an escaped "meetings" would be missed here
                    } else {
                        _ = try scanner.string(key)  // the name and the value are validated as the reference
                        _ = try scanner.value()      // path validates them, then dropped
                    }
                } while try scanner.nextMember()
            }
            guard meetings != nil || formats != nil else { throw OtherShape() }
            var found = meetings ?? []
            let table = WireFormatTable(preferred: formats ?? [], fallback: serverFormats)
            for index in found.indices { MeetingBuilder.resolveFormats(of: &found[index], in: table) }
            return BMLTSearchResults(meetings: found, formats: formats ?? [])
        }

        /// A list of meeting objects; anything else in the list is refused (by the reference path).
        private mutating func meetings(_ scanner: inout JSONScanner, context: inout MeetingDecodingContext) throws -> [BMLTMeeting] {
            if scanner.peek() == UInt8(ascii: "{") {
                guard try !scanner.beginObject() else { throw OtherShape() }
                return []                        // `{}` is the server's "nothing"
            }
            var list: [BMLTMeeting] = []
            guard try scanner.beginArray() else { return list }
            repeat {
                guard scanner.peek() == UInt8(ascii: "{") else { throw OtherShape() }
                let start = scanner.index
                list.append(try meeting(&scanner, context: &context))
                if list.count == 1 {
                    // Meetings of one reply are about the same size: reserve for the rest once, instead of
                    // growing (and copying) the array a dozen times.
                    list.reserveCapacity(min(1 + scanner.remaining / max(64, scanner.index - start), 1 << 20))
                }
            } while try scanner.nextElement()
            return list
        }

        mutating func meeting(_ scanner: inout JSONScanner, context: inout MeetingDecodingContext) throws -> BMLTMeeting {
            var builder = MeetingBuilder()
            guard try scanner.beginObject() else { return builder.build(context: &context) }
            var position = 0
            repeat {
                let key = try scanner.key()
                let field = try self.field(key, at: position, scanner)
                position += 1
                if scanner.peek() == UInt8(ascii: "\"") {
                    let span = try scanner.stringSpan()
                    switch field {
                    case .known(let field):
                        if span.isEmpty {
                            builder.set(field, string: "")
                        } else if span.hasEscapes || !builder.set(field, usualBytes: scanner.bytes(of: span)) {
                            builder.set(field, try scanner.string(span))
                        }
                    case .unknown(let name):
                        builder.setUnknown(name, .string(try scanner.string(span)))
                    }
                } else {
                    let value = try scanner.value()
                    switch field {
                    case .known(let field): builder.set(field, value: value)
                    case .unknown(let name): builder.setUnknown(name, value)
                    }
                }
            } while try scanner.nextMember()
            return builder.build(context: &context)
        }

        private enum KeyMatch {
            case known(MeetingBuilder.Field)
            case unknown(String)
        }

        /// The field a key names: first the key the meeting before had at this position, then the table.
        private mutating func field(_ key: JSONScanner.StringSpan, at position: Int, _ scanner: borrowing JSONScanner) throws -> KeyMatch {
            if position < predicted.count, keys.matches(predicted[position], key, scanner) {
                return .known(keys.fields[predicted[position]])
            }
            if let index = keys.index(of: key, scanner) {
                if position < predicted.count { predicted[position] = index } else if position == predicted.count { predicted.append(index) }
                return .known(keys.fields[index])
            }
            let name = try scanner.string(key)
            if let field = MeetingBuilder.fields[name] { return .known(field) }   // a key written with escapes
            return .unknown(name)
        }
    }
}

/// The standard meeting keys as bytes, grouped by length, for matching keys without making strings.
private final class MeetingKeyTable: @unchecked Sendable {
    /// The one table (immutable once built: it is never written again, so sharing it is safe).
    static let shared = MeetingKeyTable()

    let fields: [MeetingBuilder.Field]
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let ranges: [Range<Int>]
    private let byLength: [[Int]]

    private init() {
        let entries = MeetingBuilder.fields.sorted { $0.key < $1.key }
        var all: [UInt8] = []
        var ranges: [Range<Int>] = []
        var byLength = [[Int]](repeating: [], count: (entries.map(\.key.utf8.count).max() ?? 0) + 1)
        for (index, entry) in entries.enumerated() {
            ranges.append(all.count..<all.count + entry.key.utf8.count)
            all.append(contentsOf: entry.key.utf8)
            byLength[entry.key.utf8.count].append(index)
        }
        bytes = .allocate(capacity: all.count)
        _ = bytes.initialize(from: all)
        self.fields = entries.map(\.value)
        self.ranges = ranges
        self.byLength = byLength
    }

    deinit { bytes.deallocate() }

    func matches(_ index: Int, _ key: JSONScanner.StringSpan, _ scanner: borrowing JSONScanner) -> Bool {
        scanner.span(key, equals: UnsafeBufferPointer(rebasing: bytes[ranges[index]]))
    }

    func index(of key: JSONScanner.StringSpan, _ scanner: borrowing JSONScanner) -> Int? {
        let length = key.end - key.start
        guard !key.hasEscapes, length < byLength.count else { return nil }
        return byLength[length].first { matches($0, key, scanner) }
    }
}
