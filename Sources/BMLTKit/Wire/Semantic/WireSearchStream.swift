import Foundation

/// The fast path for `GetSearchResults`: one pass over the UTF-8 bytes with `JSONScanner`, each meeting's
/// members fed straight into `MeetingBuilder` (no `WireValue` tree, no dictionaries, no `Any`).
///
/// It gives exactly what `WireValue.parse` + `WireSearchResults.decode` give (the reference path, which
/// `WireSearchStreamEquivalenceTests` compare it with on every capture). It handles the two shapes real servers
/// send — a list of meetings, and an object holding `meetings` and/or `formats` — and on anything else, or on
/// any error, hands the bytes to the reference path, which then names the error exactly as it always has.
///
/// The streaming decoder (`WireSearchChunks`) is kept beside this pass, sharing all but the framing: see why (measured)
/// and what they share in WireSearchChunks.swift.
enum WireSearchStream {
    /// Decodes a search reply's body.
    static func decode(_ data: Data, serverFormats: [BMLTFormat],
                       what: BMLTError.Subject = .meetingSearch) throws(BMLTError) -> BMLTSearchResults {
        if let results = try? fast(data, serverFormats: serverFormats) { return results }
        return try reference(data, serverFormats: serverFormats, what: what)
    }

    /// `decode`, then without the meetings that have no usable id (`id_bigint` missing, not a number, or not
    /// positive: such an entry is not a record, and must not surface as meeting #0). Fails only when the reply held
    /// meetings and none of them is usable; `dropped` says how many were left out. A search whose `data_field_key`
    /// leaves `id_bigint` out (`query`) gets id-less meetings by design: they are kept.
    static func decodeUsable(_ data: Data, query: [URLQueryItem], serverFormats: [BMLTFormat],
                             what: BMLTError.Subject = .meetingSearch) throws(BMLTError) -> (results: BMLTSearchResults, dropped: Int) {
        try usable(try decode(data, serverFormats: serverFormats, what: what), query: query, what: what)
    }

    /// Search results without the meetings that have no usable id (see `decodeUsable`).
    static func usable(_ results: BMLTSearchResults, query: [URLQueryItem],
                       what: BMLTError.Subject = .meetingSearch) throws(BMLTError) -> (results: BMLTSearchResults, dropped: Int) {
        var results = results
        if keepsMeetingsWithoutIDs(query) { return (results, 0) }
        let all = results.meetings.count
        guard results.meetings.contains(where: { $0.id <= 0 }) else { return (results, 0) }
        results.meetings.removeAll { $0.id <= 0 }
        if results.meetings.isEmpty {
            throw .malformedResponse(what: what, detail: .noUsableEntry(count: all, key: "id (id_bigint)"))
        }
        return (results, all - results.meetings.count)
    }

    /// Whether a search made with `query` keeps meetings without a usable id: its `data_field_key` leaves `id_bigint` out.
    static func keepsMeetingsWithoutIDs(_ query: [URLQueryItem]) -> Bool {
        guard let fields = query.first(where: { $0.name == "data_field_key" })?.value else { return false }
        return !fields.split(separator: ",").contains("id_bigint")
    }

    /// The reference path: the generic tree, then the generic mapping.
    static func reference(_ data: Data, serverFormats: [BMLTFormat],
                          what: BMLTError.Subject = .meetingSearch) throws(BMLTError) -> BMLTSearchResults {
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

    /// Reads meetings member by member; a standard key is found by a hash of its bytes (one probe and a few word
    /// comparisons, whatever order the keys come in).
    struct MeetingReader {
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
            var formatList: WireValue?
            var context = MeetingDecodingContext(formats: .empty)
            if try scanner.beginObject() {
                repeat {
                    let key = try scanner.key()
                    if scanner.key(key, is: "meetings") {
                        meetings = try self.meetings(&scanner, context: &context)
                    } else if scanner.key(key, is: "formats") {
                        formatList = try scanner.value()
                    } else if key.hasEscapes {
                        throw OtherShape()      // an escaped "meetings" would be missed here
                    } else {
                        _ = try scanner.string(key)  // the name and the value are validated as the reference
                        _ = try scanner.value()      // path validates them, then dropped
                    }
                } while try scanner.nextMember()
            }
            guard meetings != nil || formatList != nil else { throw OtherShape() }
            var formats: [BMLTFormat] = []
            var skipped = 0
            if let formatList {
                (formats, skipped) = try WireSearchResults.sideFormats(formatList, besideMeetings: meetings != nil)
            }
            var found = meetings ?? []
            let table = WireFormatTable(preferred: formats, fallback: serverFormats)
            for index in found.indices { MeetingBuilder.resolveFormats(of: &found[index], in: table) }
            return BMLTSearchResults(meetings: found, formats: formats, skippedFormats: skipped)
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
            var meeting = BMLTMeeting(id: 0, serviceBodyID: 0)
            var builder = MeetingBuilder()
            var seen: UInt64 = 0        // the standard fields read so far in this object, by `Field.rawValue`
            if try scanner.beginObject() {
                repeat {
                    let key = try scanner.key()
                    let match = key.hasEscapes ? nil : keys.field(scanner.bytes(of: key))
                    guard let field = match else {
                        if let field = try other(key, &scanner, &builder, &meeting, context: &context) { seen |= 1 << field.rawValue }
                        continue
                    }
                    let bit: UInt64 = 1 << field.rawValue
                    if scanner.peek() == UInt8(ascii: "\"") {
                        let span = try scanner.stringSpan()
                        if span.isEmpty {
                            // `""` leaves a field not read before as a new meeting has it (but for `published`).
                            if seen & bit != 0 || field == .published { builder.set(field, string: "", in: &meeting) }
                        } else if MeetingBuilder.isShared(field) {
                            try builder.set(field, span: span, of: scanner, in: &meeting, context: &context)
                        } else if span.hasEscapes || !builder.set(field, usualBytes: scanner.bytes(of: span), in: &meeting) {
                            builder.set(field, try scanner.string(span), in: &meeting)
                        }
                    } else {
                        builder.set(field, value: try scanner.value(), in: &meeting)
                    }
                    seen |= bit
                } while try scanner.nextMember()
            }
            builder.build(&meeting, context: &context)
            return meeting
        }

        /// A member whose key is written with escapes or is not a standard one, its name read as text. Returns the
        /// standard field it named, if any.
        private func other(_ key: JSONScanner.StringSpan, _ scanner: inout JSONScanner, _ builder: inout MeetingBuilder,
                           _ meeting: inout BMLTMeeting, context: inout MeetingDecodingContext) throws -> MeetingBuilder.Field? {
            let match = try field(key, scanner)
            if scanner.peek() == UInt8(ascii: "\"") {
                let span = try scanner.stringSpan()
                switch match {
                case .known(let field):
                    if span.isEmpty {
                        builder.set(field, string: "", in: &meeting)
                    } else if MeetingBuilder.isShared(field) {
                        try builder.set(field, span: span, of: scanner, in: &meeting, context: &context)
                    } else if span.hasEscapes || !builder.set(field, usualBytes: scanner.bytes(of: span), in: &meeting) {
                        builder.set(field, try scanner.string(span), in: &meeting)
                    }
                case .unknown(let name):
                    builder.setUnknown(name, .string(try scanner.string(span)), in: &meeting)
                }
            } else {
                let value = try scanner.value()
                switch match {
                case .known(let field): builder.set(field, value: value, in: &meeting)
                case .unknown(let name): builder.setUnknown(name, value, in: &meeting)
                }
            }
            if case .known(let field) = match { return field }
            return nil
        }

        private enum KeyMatch {
            case known(MeetingBuilder.Field)
            case unknown(String)
        }

        /// The field a key names, by its text (the table, by bytes, has already missed it).
        private func field(_ key: JSONScanner.StringSpan, _ scanner: borrowing JSONScanner) throws -> KeyMatch {
            let name = try scanner.string(key)
            if let field = MeetingBuilder.fields[name] { return .known(field) }   // a key written with escapes
            return .unknown(name)
        }
    }
}

/// The standard meeting keys, found by their bytes without making strings: an open-addressing table hashed on
/// the length and the first and last eight bytes, each entry checked word by word.
private final class MeetingKeyTable: @unchecked Sendable {
    /// The one table (immutable once built: it is never written again, so sharing it is safe).
    static let shared = MeetingKeyTable()

    private struct Entry {
        let first: UInt64
        let last: UInt64
        let length: Int
        let offset: Int
        let field: MeetingBuilder.Field
    }

    private static let slotBits = 8
    private let entries: UnsafeMutableBufferPointer<Entry>
    private let slots: UnsafeMutableBufferPointer<Int16>     // entry + 1, 0 when free
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    private init() {
        let names = MeetingBuilder.fields.sorted { $0.key < $1.key }
        var all: [UInt8] = []
        var entries: [Entry] = []
        for (name, field) in names {
            precondition(field.rawValue < 64, "MeetingReader.meeting keeps the fields it has read in 64 bits")
            let utf8 = Array(name.utf8)
            let (first, last) = utf8.withUnsafeBufferPointer(Self.words)
            entries.append(Entry(first: first, last: last, length: utf8.count, offset: all.count, field: field))
            all.append(contentsOf: utf8)
        }
        bytes = .allocate(capacity: all.count)
        _ = bytes.initialize(from: all)
        self.entries = .allocate(capacity: entries.count)
        _ = self.entries.initialize(from: entries)
        slots = .allocate(capacity: 1 << Self.slotBits)
        slots.initialize(repeating: 0)
        precondition(entries.count * 2 < slots.count)
        for (index, entry) in entries.enumerated() {
            var slot = Self.slot(entry.first, entry.last, entry.length)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int16(index + 1)
        }
    }

    deinit {
        bytes.deallocate()
        entries.deallocate()
        slots.deallocate()
    }

    /// The field whose key is exactly these bytes.
    @inline(__always)
    func field(_ key: UnsafeBufferPointer<UInt8>) -> MeetingBuilder.Field? {
        let (first, last) = Self.words(key)
        let length = key.count
        var slot = Self.slot(first, last, length)
        while true {
            let found = Int(slots[slot]) - 1
            if found < 0 { return nil }
            let entry = entries[found]
            if entry.first == first, entry.last == last, entry.length == length, middleMatches(entry, key) {
                return entry.field
            }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// Whether the bytes between the first and last eight (keys over sixteen bytes) are the entry's.
    @inline(__always)
    private func middleMatches(_ entry: Entry, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.length > 16 else { return true }
        let mine = UnsafeRawPointer(bytes.baseAddress! + entry.offset), theirs = UnsafeRawPointer(key.baseAddress!)
        var offset = 8
        while offset < entry.length - 8 {
            if mine.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != theirs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        return true
    }

    /// The first and last eight bytes (overlapping for keys under sixteen); a shorter key's bytes, twice.
    @inline(__always)
    private static func words(_ key: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard key.count >= 8, let base = key.baseAddress else {
            var word: UInt64 = 0
            for index in key.indices { word |= UInt64(key[index]) << (8 * index) }
            return (word, word)
        }
        let raw = UnsafeRawPointer(base)
        return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: key.count - 8, as: UInt64.self))
    }

    @inline(__always)
    private static func slot(_ first: UInt64, _ last: UInt64, _ length: Int) -> Int {
        let mixed = (first ^ (last &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: length)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> (64 - UInt64(slotBits)))
    }
}
