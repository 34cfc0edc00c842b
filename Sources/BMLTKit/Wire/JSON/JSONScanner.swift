import Foundation

/// A single-pass JSON reader over UTF-8 bytes: no `Any`, no Foundation parser, strict about the grammar and
/// about UTF-8. It builds `WireValue`s, or lets a decoder walk arrays and objects member by member and turn
/// only the values it wants into Swift strings (the fast meeting decoder does that).
///
/// Errors carry the byte offset, so a broken reply says where it broke.
struct JSONScanner: ~Copyable {
    /// What went wrong and where (byte offset).
    struct Failure: Error, Equatable {
        let message: String
        let offset: Int
    }

    /// A string's bytes in the input, before unescaping.
    struct StringSpan {
        let start: Int
        let end: Int
        let hasEscapes: Bool

        /// Whether the string is `""`.
        var isEmpty: Bool { end == start }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    /// Bytes not yet read.
    var remaining: Int { bytes.count - index }
    private var depth = 0
    private static let maximumDepth = 512

    /// A scanner over `bytes`. `depth` is how deeply the bytes sit in a larger document (the streaming decoder scans
    /// one element of a list at a time), so the nesting limit counts as it would over the whole document.
    init(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        self.depth = depth
        // A UTF-8 byte order mark is allowed at the start.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Parses the whole input as one JSON value (trailing white space only).
    static func parse(_ data: Data) throws(Failure) -> WireValue {
        let result: Result<WireValue, Failure> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                let value = try scanner.value()
                try scanner.end()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Structure

    /// Requires the end of input (after white space).
    mutating func end() throws(Failure) {
        skipWhitespace()
        if index != bytes.count { throw fail("unexpected text after the JSON value") }
    }

    /// The next significant byte, without consuming it; `nil` at the end.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `[`; returns `false` (and consumes `]`) when the array is empty.
    mutating func beginArray() throws(Failure) -> Bool {
        try expect(UInt8(ascii: "["))
        try enter()
        if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return false }
        return true
    }

    /// After an element: consumes `,` and returns `true`, or consumes `]` and returns `false`.
    mutating func nextElement() throws(Failure) -> Bool {
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case UInt8(ascii: "]"): index += 1; depth -= 1; return false
        default: throw fail("expected , or ] in a list")
        }
    }

    /// Consumes `{`; returns `false` (and consumes `}`) when the object is empty.
    mutating func beginObject() throws(Failure) -> Bool {
        try expect(UInt8(ascii: "{"))
        try enter()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return false }
        return true
    }

    /// Reads a member's key and the `:` after it.
    mutating func key() throws(Failure) -> StringSpan {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name") }
        let span = try stringSpan()
        try expect(UInt8(ascii: ":"))
        return span
    }

    /// After a member: consumes `,` and returns `true`, or consumes `}` and returns `false`.
    mutating func nextMember() throws(Failure) -> Bool {
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case UInt8(ascii: "}"): index += 1; depth -= 1; return false
        default: throw fail("expected , or } in an object")
        }
    }

    /// Whether the key's bytes are exactly `name` (ASCII keys, no escapes).
    func key(_ span: StringSpan, is name: StaticString) -> Bool {
        guard !span.hasEscapes, span.end - span.start == name.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + span.start, name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    /// Whether the span's raw bytes equal `name` (both without escapes).
    func span(_ span: StringSpan, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !span.hasEscapes, span.end - span.start == name.count else { return false }
        return memcmp(bytes.baseAddress! + span.start, name.baseAddress!, name.count) == 0
    }

    /// A string's raw bytes (escapes not resolved).
    func bytes(of span: StringSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
    }

    /// The key's bytes as a Swift string.
    func string(_ span: StringSpan) throws(Failure) -> String {
        span.hasEscapes ? try unescape(span) : try validated(span.start, span.end)
    }

    // MARK: Values

    /// Any JSON value, as a `WireValue`.
    mutating func value() throws(Failure) -> WireValue {
        guard let byte = peek() else { throw fail("the JSON ends too early") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string(try stringSpan()))
        case UInt8(ascii: "{"):
            var members: [String: WireValue] = [:]
            if try beginObject() {
                // Most objects the server sends (formats, service bodies, server info, change records) have 6 to 12
                // members: room for them at once instead of growing (and re-hashing) from one.
                members.reserveCapacity(12)
                repeat {
                    let name = try string(try key())
                    members[name] = try value()
                } while try nextMember()
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [WireValue] = []
            if try beginArray() {
                repeat { elements.append(try value()) } while try nextElement()
            }
            return .array(elements)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    /// Skips one value of any kind without building it.
    mutating func skipValue() throws(Failure) {
        guard let byte = peek() else { throw fail("the JSON ends too early") }
        switch byte {
        case UInt8(ascii: "\""): _ = try stringSpan()
        case UInt8(ascii: "{"):
            if try beginObject() { repeat { _ = try key(); try skipValue() } while try nextMember() }
        case UInt8(ascii: "["):
            if try beginArray() { repeat { try skipValue() } while try nextElement() }
        default: _ = try value()
        }
    }

    /// Reads a string token, returning where its bytes are (no allocation). Inlined: it is called for every key
    /// and every string value, and most strings are a word or two long.
    @inline(__always)
    mutating func stringSpan() throws(Failure) -> StringSpan {
        // The opening quote is nearly always the very next byte; otherwise `expect` skips white space first.
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { index += 1 } else { try expect(UInt8(ascii: "\"")) }
        let start = index
        var hasEscapes = false
        while true {
            // Eight bytes at a time: a word without a quote, a backslash or a control character is skipped whole;
            // otherwise the first such byte is found from the mask's lowest bit (the lowest bit is exact). The last
            // few bytes, and the byte the mask found, are then read one at a time below.
            if let base = bytes.baseAddress {
                while index + 8 <= bytes.count {
                    let mask = Self.attentionMask(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    if mask == 0 { index += 8; continue }
                    index += mask.trailingZeroBitCount >> 3
                    break
                }
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return StringSpan(start: start, end: index - 1, hasEscapes: hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 2
                continue
            }
            if byte < 0x20 { throw fail("a control character inside a string") }
            index += 1
        }
        throw fail("a string is not closed")
    }

    private mutating func number() throws(Failure) -> WireValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a malformed number") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { while index < bytes.count, isDigit(bytes[index]) { index += 1 } }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a malformed number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a malformed number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw fail("a number out of range") }
        return .double(double)
    }

    // MARK: Helpers

    /// The high bit of each of the word's eight bytes that is `"`, `\\` or below 0x20, and maybe of bytes after
    /// such a byte (a borrow can carry into them): zero exactly when there is none, and the lowest bit set is exact.
    @inline(__always)
    private static func attentionMask(_ word: UInt64) -> UInt64 {
        let control = (word &- ones &* 0x20) & ~word & highs
        return quoteOrBackslashMask(word) | control
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each of the word's bytes that is `"` or `\\` (and maybe of bytes after one): zero exactly when
    /// there is none. Also what `JSONFramer` skips strings by.
    @inline(__always)
    static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        return zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
    }

    /// JSON's white space (the only bytes allowed between tokens).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("nested too deeply") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else { throw fail("expected \(Character(Unicode.Scalar(byte)))") }
        index += 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            throw fail("unexpected character")
        }
        index += count
    }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private func validated(_ start: Int, _ end: Int) throws(Failure) -> String {
        let span = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard let text = Self.validatedUTF8(span) else {
            throw Failure(message: "invalid UTF-8 in a string", offset: start)
        }
        return text
    }

    /// The bytes as a string, or `nil` when they are not valid UTF-8. ASCII (nearly all of a meeting list) is
    /// checked eight bytes at a time; other text is decoded and compared with its input, since decoding
    /// replaces every invalid sequence (so a string equal to its bytes had none).
    static func validatedUTF8(_ span: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = span.baseAddress, !span.isEmpty else { return "" }
        var index = 0
        var isASCII = true
        while index + 8 <= span.count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                isASCII = false
                break
            }
            index += 8
        }
        if isASCII {
            while index < span.count, span[index] < 0x80 { index += 1 }
            isASCII = index == span.count
        }
        let text = String(decoding: span, as: UTF8.self)
        if isASCII { return text }
        return text.utf8.elementsEqual(span) ? text : nil
    }

    private func unescape(_ span: StringSpan) throws(Failure) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(span.end - span.start)
        var position = span.start
        func hex(_ at: Int) throws(Failure) -> UInt32 {
            guard at + 4 <= span.end else { throw Failure(message: "a broken \\u escape", offset: at) }
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = bytes[at + offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw Failure(message: "a broken \\u escape", offset: at)
                }
                value = value << 4 | digit
            }
            return value
        }
        while position < span.end {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else { output.append(byte); position += 1; continue }
            guard position + 1 < span.end else { throw Failure(message: "a broken escape", offset: position) }
            let escaped = bytes[position + 1]
            position += 2
            switch escaped {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): output.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex(position)
                position += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 6 <= span.end, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw Failure(message: "an unpaired surrogate in a \\u escape", offset: position)
                    }
                    let low = try hex(position + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { throw Failure(message: "an unpaired surrogate in a \\u escape", offset: position) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Failure(message: "an unpaired surrogate in a \\u escape", offset: position)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Failure(message: "a broken \\u escape", offset: position) }
                output.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw Failure(message: "an unknown escape", offset: position - 1)
            }
        }
        guard let text = output.withUnsafeBufferPointer(Self.validatedUTF8) else {
            throw Failure(message: "invalid UTF-8 in a string", offset: span.start)
        }
        return text
    }
}
