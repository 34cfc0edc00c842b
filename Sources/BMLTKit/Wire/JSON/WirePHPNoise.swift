import Foundation

/// PHP's own messages printed around a JSON reply. A 2.x server on PHP 8 with `display_errors` on (common on shared
/// hosting) sends `<br />\n<b>Deprecated</b>:  … in /path/file.php on line 12<br />` before its JSON, or a
/// `Warning` after it (or, with `html_errors` off, `Deprecated: … on line 12` lines). The JSON between is intact.
///
/// `salvage` returns that JSON when everything around it is recognisably PHP's messages — and nothing otherwise, so
/// a real HTML page (a login page, a 404 page) is still refused as one.
enum WirePHPNoise {
    /// What was found: the JSON, and the first PHP message (for the log).
    struct Salvaged: Sendable {
        /// The JSON value, after as many spaces as the reply had bytes before it: an error in the JSON is placed at
        /// its offset in the reply itself, as the chunked search decoder (which never sees the cut) places it.
        let json: Data
        let firstMessage: String
    }

    /// Whether `data` may hold PHP noise around JSON: its first or last non-blank byte is not a bracket (a cheap test
    /// done on every reply; only these are examined further).
    static func mayHaveNoise(_ data: Data) -> Bool {
        guard let first = data.first(where: { !isBlank($0) }), let last = data.last(where: { !isBlank($0) }) else { return false }
        let opens = first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        let closes = last == UInt8(ascii: "]") || last == UInt8(ascii: "}")
        return !(opens && closes)
    }

    /// The JSON inside PHP's messages, or `nil` when the reply is not JSON wrapped in PHP's messages only (at once,
    /// by `mayHaveNoise`, for the usual reply that begins and ends with a bracket).
    static func salvage(_ data: Data) -> Salvaged? {
        guard mayHaveNoise(data) else { return nil }
        let bytes = [UInt8](data)
        guard let start = firstJSONStart(bytes), let end = endOfValue(bytes, from: start) else { return nil }
        guard let first = noiseMessage(before: bytes[..<start], after: bytes[end...]) else { return nil }
        var json = Data(repeating: 0x20, count: start)
        json.append(contentsOf: bytes[start..<end])
        return Salvaged(json: json, firstMessage: first)
    }

    /// The first PHP message when the bytes before and after a JSON value are PHP's messages only (at least one),
    /// else `nil`. The chunked search decoder asks this of the bytes around the value it decoded.
    static func noiseMessage(before: some Collection<UInt8>, after: some Collection<UInt8>) -> String? {
        let before = String(decoding: before, as: UTF8.self)
        let after = String(decoding: after, as: UTF8.self)
        let messages = phpMessages(before) + phpMessages(after)
        guard let first = messages.first, isOnlyNoise(before), isOnlyNoise(after) else { return nil }
        return first
    }

    /// Bytes `salvage` and `mayHaveNoise` treat as blank around the JSON (white space and a byte order mark's bytes).
    static func isBlankByte(_ byte: UInt8) -> Bool { isBlank(byte) }

    private static let levels = "(?:Notice|Warning|Deprecated|Fatal error|Parse error|Strict Standards|Recoverable fatal error)"
    /// One line of PHP's messages: `<br />`, `<b>Warning</b>: … <br />`, or `PHP Warning: …` / `Warning: …`.
    private static let noiseLine = try! NSRegularExpression(
        pattern: "^(?:<br ?/?>|(?:<br ?/?>)?\\s*<b>\(levels)</b>:.*|(?:PHP )?\(levels):.*)$", options: [.caseInsensitive])
    private static let messageLine = try! NSRegularExpression(pattern: "(?:<b>)?\(levels)(?:</b>)?:", options: [.caseInsensitive])

    private static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func isOnlyNoise(_ text: String) -> Bool {
        lines(text).allSatisfy { line in
            noiseLine.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
    }

    /// The message lines (without HTML tags), for the log.
    private static func phpMessages(_ text: String) -> [String] {
        lines(text).filter { messageLine.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }.map {
            $0.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The first `[` or `{` that begins a line (after PHP's `<br />` and message lines).
    private static func firstJSONStart(_ bytes: [UInt8]) -> Int? {
        var lineStart = true
        for (index, byte) in bytes.enumerated() {
            if (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")) && lineStart { return index }
            if byte == 0x0A || byte == 0x0D { lineStart = true } else if !isBlank(byte) { lineStart = false }
        }
        return nil
    }

    /// The index just past the array or object that starts at `start` (strings and escapes respected).
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
        }
        return nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
