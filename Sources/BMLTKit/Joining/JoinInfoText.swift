import Foundation

/// The meeting ID, phone code and passcodes written in free text ("Meeting ID: 852 1234 5678 Passcode: 12345"),
/// by their labels in common English, Spanish and French (and a few German and Portuguese) wordings.
///
/// Labels are matched without regard to case or accents, at word starts; links in the text are skipped (a
/// `?pwd=` inside a link is no passcode a person types). A passcode needs a separator after its label (`:`, `=`,
/// `-`, "is", "es", "est") or a digit in it, so "Passcode below" finds nothing; words such as "none", "ninguno",
/// "aucun", "see" are no passcode.
struct JoinInfoText {
    /// The meeting ID, digits only ("Meeting ID", "ID de reunión", "Numéro de réunion", "ID:").
    var meetingID: String?
    /// The code a phone caller enters, digits only ("Phone conference ID", "Access code", "PIN").
    var phoneCode: String?
    /// Every labelled passcode, in order.
    var passcodes: [String] = []
    /// The extension or menu digits a caller dials after the number ("ext. 12", "press 1", "marque 2").
    var extensionDigits: [String] = []

    /// The first passcode.
    var passcode: String? { passcodes.first }
    /// The first passcode that is digits only (one a phone can dial).
    var numericPasscode: String? { passcodes.first { $0.allSatisfy(\.isASCIIDigit) } }

    enum Kind { case meetingID, phoneCode, passcode, extensionDigits, ignored }

    struct Label {
        let words: [Character]
        let kind: Kind
        /// A bare, short label ("id", "pw") counts only when a separator follows it.
        let needsSeparator: Bool
    }

    /// Longest first, so "meeting id" wins over "id".
    static let labels: [Label] = {
        let table: [(Kind, Bool, [String])] = [
            (.meetingID, false, ["meeting id", "meeting-id", "meeting number", "meeting no", "meeting #", "zoom id",
                                 "webinar id", "id de reunion", "id de la reunion", "id. de reunion", "id de sala",
                                 "numero de reunion", "numero de la reunion", "no. de reunion", "n° de reunion",
                                 "identificador de reunion", "identifiant de reunion", "identifiant de la reunion",
                                 "sitzungs-id", "id da reuniao", "meeting-kennung"]),
            (.meetingID, true, ["id", "mid"]),
            (.phoneCode, false, ["phone conference id", "conference id", "conference code", "access code",
                                 "participant code", "attendee access code", "id de conferencia", "id de conference",
                                 "code de conference", "pin"]),
            (.passcode, false, ["passcode", "password", "pass code", "pass word", "meeting password", "meeting passcode",
                                "contrasena", "clave", "codigo de acceso", "codigo de reunion", "code secret",
                                "mot de passe", "code d'acces", "code de la reunion", "kenncode", "passwort", "senha"]),
            (.passcode, true, ["pwd", "pw", "pass", "mdp"]),
            (.extensionDigits, false, ["extension", "ext.", "ext", "press", "then press", "option", "presione", "pulse",
                                       "marque", "oprima", "opcion", "poste", "appuyez sur", "tapez", "composez le"]),
            (.extensionDigits, true, ["x"]),
            (.ignored, false, ["participant id", "attendee id", "host key", "user id", "caller id"]),
        ]
        return table.flatMap { kind, needsSeparator, words in
            words.map { Label(words: Array($0), kind: kind, needsSeparator: needsSeparator) }
        }.sorted { $0.words.count > $1.words.count }
    }()

    /// Words that say there is no passcode, or that are no passcode.
    static let notPasscodes: Set<String> = [
        "none", "n/a", "na", "no", "not", "nil", "-", "--", "see", "below", "above", "required", "optional", "ask",
        "tba", "tbd", "same", "email", "contact", "call", "text", "ninguno", "ninguna", "ninguna.", "sin", "ver",
        "pedir", "aucun", "aucune", "voir", "sans", "keine", "kein", "nenhuma", "nenhum", "is", "es", "est", "ist",
        "and", "y", "et", "und", "or", "o", "ou",
    ]

    init(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        // Long texts are cut: real additional info is a few hundred characters.
        let original = Array(text.prefix(4_000))
        var folded = original.map(JoinInfoText.fold)
        JoinInfoText.blankLinks(&folded)
        var index = 0
        while index < folded.count {
            let startsWord = index == 0 || !(folded[index - 1].isLetter || folded[index - 1].isNumber)
            guard startsWord, folded[index].isLetter else { index += 1; continue }
            guard let label = JoinInfoText.labels.first(where: {
                JoinInfoText.matches($0.words, in: folded, at: index, digitsMayFollow: $0.kind == .extensionDigits)
            }) else {
                index += 1
                continue
            }
            let end = index + label.words.count
            if let (value, next) = value(for: label, in: original, folded: folded, from: end) {
                switch label.kind {
                case .meetingID: if meetingID == nil { meetingID = value }
                case .phoneCode: if phoneCode == nil { phoneCode = value }
                case .passcode: passcodes.append(value)
                case .extensionDigits: extensionDigits.append(value)
                case .ignored: break
                }
                index = max(next, index + 1)
            } else {
                index = end
            }
        }
    }

    /// A lower-cased character without its accent; typographic apostrophes become `'`.
    static func fold(_ character: Character) -> Character {
        if character == "’" || character == "‘" || character == "`" || character == "ʼ" { return "'" }
        if character == "\u{00A0}" || character == "\u{202F}" { return " " }
        let folded = String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.count == 1 ? Character(folded) : character
    }

    /// Replaces every word that holds "://" or starts with "www." by spaces.
    static func blankLinks(_ folded: inout [Character]) {
        var start = 0
        while start < folded.count {
            guard !folded[start].isWhitespace else { start += 1; continue }
            var end = start
            while end < folded.count, !folded[end].isWhitespace { end += 1 }
            let word = String(folded[start..<end])
            if word.contains("://") || word.hasPrefix("www.") {
                for position in start..<end { folded[position] = " " }
            }
            start = end
        }
    }

    /// Whether `words` stands at `index` and ends at a word boundary; a space in a label matches any run of white
    /// space (or a `-` / `_`).
    static func matches(_ words: [Character], in folded: [Character], at index: Int, digitsMayFollow: Bool = false) -> Bool {
        var position = index
        for character in words {
            if character == " " {
                guard position < folded.count, folded[position].isWhitespace || folded[position] == "-" || folded[position] == "_" else { return false }
                while position < folded.count, folded[position].isWhitespace { position += 1 }
            } else {
                guard position < folded.count, folded[position] == character else { return false }
                position += 1
            }
        }
        if position < folded.count, let last = words.last, last.isLetter || last.isNumber {
            let next = folded[position]
            if next.isLetter || (next.isNumber && !digitsMayFollow) { return false }
        }
        return true
    }

    /// The value after a label: digits for IDs, codes and extensions, one word for a passcode; and where
    /// scanning goes on.
    private func value(for label: Label, in original: [Character], folded: [Character], from start: Int) -> (String, Int)? {
        var position = start
        var separated = false
        func skipSpaces() { while position < folded.count, folded[position].isWhitespace { position += 1 } }
        skipSpaces()
        // "Meeting number (access code): 2345 678 9012": a short remark in brackets.
        if position < folded.count, folded[position] == "(",
           let close = folded[position...].prefix(32).firstIndex(of: ")"), !folded[position..<close].contains(where: \.isNumber) {
            position = close + 1
            skipSpaces()
        }
        while position < folded.count, ":：=-–—#".contains(folded[position]) {
            separated = true
            position += 1
            skipSpaces()
        }
        for word in ["is", "es", "est", "ist"] {
            let characters = Array(word)
            if JoinInfoText.matches(characters, in: folded, at: position) {
                position += characters.count
                separated = true
                skipSpaces()
                while position < folded.count, ":=".contains(folded[position]) { position += 1; skipSpaces() }
                break
            }
        }
        if label.needsSeparator && !separated && label.kind != .extensionDigits { return nil }
        switch label.kind {
        case .passcode:
            return passcode(in: original, folded: folded, from: position, separated: separated)
        case .extensionDigits:
            // "x" only right before digits ("x123", "x 123"): "x" alone in a sentence is no extension.
            guard let (digits, next) = JoinInfoText.digitGroups(in: folded, from: position, maximum: 8), digits.count <= 8 else { return nil }
            return (digits, next)
        default:
            guard let (digits, next) = JoinInfoText.digitGroups(in: folded, from: position, maximum: 15), digits.count >= 4 else { return nil }
            return (digits, next)
        }
    }

    /// Digit groups separated by one space, `-` or `.` ("852 1234 5678"), at most `maximum` digits (a group that
    /// would pass it is left out); a `#` right after is taken too.
    static func digitGroups(in folded: [Character], from start: Int, maximum: Int) -> (String, Int)? {
        var digits = ""
        var position = start
        var groupEnd = start
        while position < folded.count {
            var group = ""
            var cursor = position
            while cursor < folded.count, folded[cursor].isASCIIDigit { group.append(folded[cursor]); cursor += 1 }
            guard !group.isEmpty, digits.count + group.count <= maximum else { break }
            digits += group
            groupEnd = cursor
            guard cursor + 1 < folded.count, " -.".contains(folded[cursor]), folded[cursor + 1].isASCIIDigit else { break }
            position = cursor + 1
        }
        guard !digits.isEmpty else { return nil }
        if groupEnd < folded.count, folded[groupEnd] == "#" { groupEnd += 1 }
        return (digits, groupEnd)
    }

    private func passcode(in original: [Character], folded: [Character], from start: Int, separated: Bool) -> (String, Int)? {
        var position = start
        while position < original.count, "\"“”'«»".contains(original[position]) { position += 1 }
        var end = position
        while end < original.count, !original[end].isWhitespace, !",;()[]{}<>\"“”«»|".contains(original[end]) { end += 1 }
        var word = String(original[position..<end])
        while let last = word.last, ".:#'!?".contains(last) { word.removeLast() }
        let lower = String(word.map(JoinInfoText.fold))
        guard !word.isEmpty, word.count <= 32, !JoinInfoText.notPasscodes.contains(lower),
              !JoinInfoText.labels.contains(where: { String($0.words) == lower }),
              separated || word.contains(where: \.isASCIIDigit),
              word.allSatisfy({ !$0.isWhitespace && !$0.isNewline && $0.unicodeScalars.allSatisfy { $0.value >= 0x21 } })
        else { return nil }
        return (word, end)
    }
}
