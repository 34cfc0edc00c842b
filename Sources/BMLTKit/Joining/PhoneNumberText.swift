import Foundation

/// The phone number at the start of what an admin typed into `phone_meeting_number`, or `nil` where it holds
/// none for sure: no parsing of text that is no phone number, and no guess where the digits could be read two
/// ways (then `nil`, never a wrong number).
///
/// - A number with `+` (or the international prefix `00`) keeps its country code: `+44 (0)20 7946 0958` →
///   `+442079460958`; with `+1` exactly ten more digits must follow.
/// - `1-800-555-0123` and `1 (646) 555-0123` (North American grouping after a leading 1) get `+1`.
/// - Other numbers stay as written, digits only: `(646) 555-0123` → `6465550123`.
/// - The number must come before any label ("Meeting ID", "Passcode", "PIN"…): digits after those are codes.
/// - Tones already written after the number (Zoom's one-tap form `+16465588656,,85212345678#,,,,*123456#`) are
///   kept in `tones`.
struct PhoneNumberText {
    /// `+` and the digits with a country code, else the digits.
    var number: String
    /// Whether `number` has its country code.
    var hasCountryCode: Bool
    /// Tones written right after the number (`,,123#`): digits, `*`, `#` and `,` only; empty when none.
    var tones: String
    /// The text after the number (extension, "press 1", meeting ID and passcode, read by `JoinInfoText`).
    var rest: String

    init?(_ text: String) {
        guard text.utf8.count <= 2_000 else { return nil }
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["tel:", "callto:"] where trimmed.lowercased().hasPrefix(prefix) {
            trimmed = String(trimmed.dropFirst(prefix.count)).removingPercentEncoding ?? ""
        }
        // A link is no phone number.
        if !trimmed.contains(where: \.isWhitespace), JoinLinkText.httpsURL(from: trimmed) != nil || trimmed.contains(":/") { return nil }
        var characters = Array(trimmed)
        PhoneNumberText.cutAtLinks(&characters)
        let cutoff = PhoneNumberText.firstLabel(in: characters)
        guard let start = PhoneNumberText.numberStart(in: characters, before: cutoff) else { return nil }
        var plus = characters[start] == "+"
        var position = plus ? start + 1 : start
        if position < characters.count, characters[position] == "(" { position += 1 }
        // Groups of digits and the separators between them.
        var groups: [String] = []
        var groupEnds: [Int] = []
        while position < characters.count {
            var group = ""
            while position < characters.count, characters[position].isASCIIDigit { group.append(characters[position]); position += 1 }
            guard !group.isEmpty else { break }
            groups.append(group)
            groupEnds.append(position)
            // "(0)" after a country code is the national trunk prefix, not dialled from abroad.
            var separator = ""
            var cursor = position
            while cursor < characters.count, cursor < cutoff, " -./()\u{00A0}".contains(characters[cursor]), separator.count < 4 {
                separator.append(characters[cursor])
                cursor += 1
            }
            guard cursor < characters.count, cursor < cutoff, characters[cursor].isASCIIDigit,
                  separator.count <= 3, separator.filter({ $0 == " " || $0 == "\u{00A0}" }).count <= 1 else { break }
            if plus, separator.hasSuffix("("), cursor + 1 < characters.count, characters[cursor] == "0", characters[cursor + 1] == ")" {
                position = cursor + 2
                while position < characters.count, position < cutoff, " -.\u{00A0}".contains(characters[position]), position < cursor + 4 {
                    position += 1
                }
                continue
            }
            position = cursor
        }
        guard !groups.isEmpty else { return nil }
        if !plus, groups[0].hasPrefix("00"), groups[0].count > 2 || groups.count > 1 {
            // The international prefix 00: the country code follows.
            plus = true
            groups[0] = String(groups[0].dropFirst(2))
            if groups[0].isEmpty { groups.removeFirst(); groupEnds.removeFirst() }
        }
        guard let chosen = PhoneNumberText.choose(groups, plus: plus) else { return nil }
        let end = groupEnds[chosen.groups - 1]
        number = chosen.hasCountryCode ? "+" + chosen.digits : chosen.digits
        hasCountryCode = chosen.hasCountryCode
        // Tones written right after the number: a comma (or ";", "p", "w") directly followed by tones.
        var toneText = ""
        var after = end
        if after < characters.count, ",;".contains(characters[after]) {
            while after < characters.count, "0123456789*#,;pPwW".contains(characters[after]) {
                let character = characters[after]
                toneText.append(",;pPwW".contains(character) ? "," : character)
                after += 1
            }
        }
        tones = toneText.contains(where: { $0.isASCIIDigit }) ? toneText : ""
        rest = String(characters[(tones.isEmpty ? end : after)...])
    }

    /// Which digits make the number (without "+"), how many groups they take, and whether they start with a
    /// country code; `nil` when unsure.
    private static func choose(_ groups: [String], plus: Bool) -> (digits: String, groups: Int, hasCountryCode: Bool)? {
        let all = groups.joined()
        if plus {
            guard let first = all.first, first != "0" else { return nil }
            if first == "1" {
                // North America: +1 and exactly ten digits, the groups ending there.
                var total = ""
                for (index, group) in groups.enumerated() {
                    total += group
                    if total.count == 11 { return (total, index + 1, true) }
                    if total.count > 11 { return nil }
                }
                return nil
            }
            guard (8...15).contains(all.count) else { return nil }
            return (all, groups.count, true)
        }
        if groups.count >= 4, groups[0] == "1", groups[1].count == 3, groups[2].count == 3, groups[3].count == 4 {
            return (groups[0...3].joined(), 4, true)
        }
        if groups.count >= 3, groups[0].count == 3, groups[1].count == 3, groups[2].count == 4 {
            return (groups[0...2].joined(), 3, false)
        }
        guard (7...15).contains(all.count) else { return nil }
        return (all, groups.count, false)
    }

    /// Where the number starts: the first `+` followed by a digit, `(` followed by a digit, or a digit, that is
    /// not inside a word ("Zoom2") and comes before `cutoff`.
    private static func numberStart(in characters: [Character], before cutoff: Int) -> Int? {
        var index = 0
        while index < min(cutoff, characters.count) {
            let character = characters[index]
            let previous: Character? = index > 0 ? characters[index - 1] : nil
            let insideWord = previous.map { $0.isLetter || $0.isNumber } ?? false
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if !insideWord {
                if character.isASCIIDigit { return index }
                if (character == "+" || character == "("), next?.isASCIIDigit == true { return index }
            }
            // Skip the rest of a word that mixes letters and digits.
            if character.isLetter {
                while index < characters.count, characters[index].isLetter || characters[index].isNumber { index += 1 }
                continue
            }
            index += 1
        }
        return nil
    }

    /// Where the first meeting-ID, code or passcode label starts (the number must come before it).
    private static func firstLabel(in characters: [Character]) -> Int {
        let folded = characters.map(JoinInfoText.fold)
        for index in folded.indices where folded[index].isLetter && (index == 0 || !(folded[index - 1].isLetter || folded[index - 1].isNumber)) {
            for label in JoinInfoText.labels where label.kind != .extensionDigits {
                if JoinInfoText.matches(label.words, in: folded, at: index) { return index }
            }
        }
        return characters.count
    }

    /// Ends the text where a link starts ("://" or "www."), at the start of that word.
    private static func cutAtLinks(_ characters: inout [Character]) {
        var index = 0
        while index < characters.count {
            let isScheme = index + 2 < characters.count && characters[index] == ":" && characters[index + 1] == "/" && characters[index + 2] == "/"
            let isWWW = index + 3 < characters.count && (index == 0 || !characters[index - 1].isLetter)
                && characters[index...(index + 3)].map { $0.lowercased() }.joined() == "www."
            if isScheme || isWWW {
                var start = index
                while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
                characters = Array(characters[..<start])
                return
            }
            index += 1
        }
    }
}
