import Foundation

/// Finds where one JSON value ends in bytes that arrive in pieces, without parsing it: the chunked search decoder
/// frames each element of a list with it, then hands the whole element to `JSONScanner` (which checks the grammar).
///
/// It counts brackets outside strings (of any kind: `{"a":1]` ends at the `]`, where the scanner then fails with the
/// same message and offset as over the whole body), follows strings with their escapes as the scanner does (a
/// backslash takes the next byte, whatever it is), and ends a bare value (number, literal, stray text) at the first
/// byte that cannot be part of it. It keeps its state between pieces, so no byte is looked at twice.
struct JSONFramer {
    enum Kind {
        /// `{…}` or `[…]`: ends just after the bracket that closes the first one.
        case container
        /// `"…"`: ends just after the closing quote.
        case string
        /// A number, `true`, `false`, `null` or stray text: ends before the first delimiter (not consumed).
        case bare
    }

    let kind: Kind
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// A framer for the value whose first byte is `first` (`nil` when no value can start with that byte).
    init?(first: UInt8) {
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): kind = .container
        case UInt8(ascii: "\""): kind = .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"),
             UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .bare
        default: return nil
        }
    }

    /// Reads `bytes[from...]` (the value's first byte included, the first time); returns the index just past the
    /// value's end when it ends in these bytes, else `nil` (call again with the next piece from index 0).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = from
        if kind == .bare {
            while index < count {
                if Self.endsBare(base[index]) { return index }
                index += 1
            }
            return nil
        }
        while index < count {
            if inString {
                if escaped {
                    escaped = false
                    index += 1
                    continue
                }
                // Eight bytes at a time while none is a quote or a backslash.
                while index + 8 <= count,
                      JSONScanner.quoteOrBackslashMask(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) == 0 {
                    index += 8
                }
                guard index < count else { return nil }
                let byte = base[index]
                index += 1
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if kind == .string { return index }
                }
                continue
            }
            let byte = base[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { return index }
            default:
                break
            }
        }
        return nil
    }

    /// Bytes that end a bare value: white space and JSON's punctuation.
    static func endsBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), UInt8(ascii: "\""),
             UInt8(ascii: "["), UInt8(ascii: "{"):
            true
        default:
            JSONScanner.isWhitespace(byte)
        }
    }
}
