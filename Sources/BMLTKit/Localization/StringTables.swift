import Foundation

/// The string tables: `Resources/<language>.lproj/Localizable.strings` from BMLTKit's resource bundle
/// (`ResourceBundle`), English compiled in (`EnglishTable`) for every build — a key missing from a table, a language
/// without one, or a build without its resource bundle (the fuzzer's and `.ci/darwin-shaped`'s `swiftc` builds, a binary
/// copied without its `.resources` folder) reads English, never a key, and never stops the program.
///
/// Placeholders are `%@` or numbered `%1$@`, `%2$@`, …; every argument is text, numbers already formatted for the
/// locale (`number(_:in:)`). A plural sentence has one key per CLDR category of its language (`key#one`, …).
enum StringTables {
    /// Loaded tables by language (`nil`: none in the bundle).
    private static let loaded = Locked<[String: [String: String]?]>([:])

    /// The sentence for `key` in `language` with `arguments` put in its placeholders.
    static func text(_ key: String, _ arguments: [String] = [], language: String) -> String {
        fill(template(key, language: language), arguments, isolating: BMLTLocalization.isRightToLeft(language))
    }

    /// The plural sentence `key` for `count` (its category in `language`), with `arguments` (the count, formatted,
    /// is usually the first).
    static func plural(_ key: String, count: Int, _ arguments: [String], language: String) -> String {
        let category = PluralCategory.of(count, in: language)
        if let table = table(language), let found = table["\(key)#\(category.rawValue)"] ?? table["\(key)#other"] {
            return fill(found, arguments, isolating: BMLTLocalization.isRightToLeft(language))
        }
        let english = PluralCategory.of(count, in: "en").rawValue
        return fill(EnglishTable.strings["\(key)#\(english)"] ?? EnglishTable.strings["\(key)#other"] ?? "", arguments)
    }

    /// `value` as a number of `language` (grouping and digits: ۱۲٬۳۴۵ in Farsi, 12 345 in French).
    static func number(_ value: Int, language: String) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: language)
        formatter.numberStyle = .decimal
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    /// The template of `key`: the language's table, else English.
    static func template(_ key: String, language: String) -> String {
        table(language)?[key] ?? EnglishTable.strings[key] ?? ""
    }

    /// The table of `language` (English: the compiled-in one).
    static func table(_ language: String) -> [String: String]? {
        if language == "en" { return EnglishTable.strings }
        if let cached = loaded.withLock({ $0[language] }) { return cached }
        let table = load(language)
        loaded.withLock { $0[language] = .some(table) }
        return table
    }

    private static func load(_ language: String) -> [String: String]? {
        guard let path = ResourceBundle.bundle?.path(forResource: "Localizable", ofType: "strings", inDirectory: nil,
                                                     forLocalization: language),
              let data = FileManager.default.contents(atPath: path),
              let table = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: String]
        else { return nil }
        return table
    }

    /// U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: what `fill` puts around each argument of a
    /// right-to-left sentence.
    static let firstStrongIsolate = "\u{2068}", popDirectionalIsolate = "\u{2069}"

    /// Puts `arguments` into `%@` and `%n$@` (and `%%` → `%`). `isolating` (a right-to-left language's sentence): each
    /// non-empty argument sits between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so that a code
    /// (`-1005`), a URL, a version or the server's own words keep their own direction and do not pull the Farsi around
    /// them out of order; an argument that is itself Farsi (a phrase) stays right to left inside its isolate.
    static func fill(_ template: String, _ arguments: [String], isolating: Bool = false) -> String {
        guard template.contains("%") else { return template }
        var out = ""
        var next = 0
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" { out += "%"; rest = rest.dropFirst(); continue }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            var index = next
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$", let n = Int(digits) {
                index = n - 1
                rest = rest.dropFirst(digits.count + 1)
            } else {
                next += 1
            }
            guard rest.first == "@" else { out += "%"; continue }
            rest = rest.dropFirst()
            let argument = index >= 0 && index < arguments.count ? arguments[index] : ""
            out += isolating && !argument.isEmpty ? firstStrongIsolate + argument + popDirectionalIsolate : argument
        }
        return out + rest
    }
}
