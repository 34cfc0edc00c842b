import Foundation

/// The languages BMLTKit speaks, and how it picks one.
///
/// Every sentence BMLTKit shows a person (an error's `localizedDescription`, a draft problem's `message`, a message
/// rejection) comes from a string table in one of the twelve languages the root servers speak. English is the
/// development language; a language without a table, or a sentence missing from one, falls back to English, never to
/// a key.
///
/// Which language, in this order:
/// 1. an explicit locale: `error.localizedDescription(for: locale)`, or `BMLTConfiguration.locale` for what a
///    connection words itself (draft problems, `connection.localizedDescription(of:)`);
/// 2. otherwise ``defaultLocale``: on Apple platforms, in an app (or an extension, or a tool with an Info.plist), the
///    language Apple picks for a bundle with these tables (`Bundle.preferredLocalizations(from:)`): the app's own
///    language when BMLTKit has it, else the app's development language, as every other framework in the app speaks;
///    the user's next preferred languages only when the app sets `CFBundleAllowMixedLocalizations` (or its languages
///    have no table). On Linux, and for a command-line tool without a bundle, the `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`
///    and `LANG` environment as `gettext` reads it.
///
/// A locale with a region or a script reads its language's table (`pt_BR` → Portuguese, `ru-Cyrl` → Russian); a
/// language without a table (`sr-Latn`, `ja`) reads English. In Farsi, a right-to-left language, every value put into
/// a sentence (a number, a code, a URL, the server's words) is wrapped in U+2068 … U+2069 so that it keeps its own
/// direction.
///
/// ```swift
/// let spanish = BMLTLocalization.language(for: Locale(identifier: "es_MX"))   // "es"
/// let japanese = BMLTLocalization.language(for: Locale(identifier: "ja"))     // "en": no table, English
/// print(BMLTLocalization.supportedLanguages.count)                            // 12
/// ```
public enum BMLTLocalization {
    /// The languages with a table: those the root servers speak (`langs` of 4.2.7).
    /// ```swift
    /// if BMLTLocalization.supportedLanguages.contains("sv") { print("svenska") }
    /// ```
    public static let supportedLanguages = ["da", "de", "el", "en", "es", "fa", "fr", "it", "pl", "pt", "ru", "sv"]

    /// The table language for `locale`: its language code when BMLTKit has a table for it, else `"en"`.
    /// ```swift
    /// let language = BMLTLocalization.language(for: Locale(identifier: "pt_BR"))   // "pt"
    /// ```
    public static func language(for locale: Locale) -> String {
        // A build without its tables (no resource bundle) speaks English throughout: numbers too, not Persian digits in
        // an English sentence.
        guard let code = language(ofIdentifier: locale.identifier), StringTables.table(code) != nil else { return "en" }
        return code
    }

    /// The locale BMLTKit speaks when none is given.
    ///
    /// On Apple platforms, in an app (or an app extension, or a tool with an Info.plist): Apple's own choice for a
    /// bundle holding BMLTKit's tables in this app, `Bundle.preferredLocalizations(from:)` — the language the app runs
    /// in when BMLTKit has it, else the app's development language, so that one screen speaks one language: an app
    /// localized in English and Japanese, running in Japanese on a device set to Japanese then French, speaks English
    /// like its system texts. With `CFBundleAllowMixedLocalizations` in the app's Info.plist, Apple (and BMLTKit) take the
    /// first of the user's preferred languages there is a table for instead: an English-only app on a Spanish device
    /// speaks Spanish. A command-line tool without a bundle (`Bundle.main.bundleIdentifier == nil`), and Linux: the first
    /// language of `LANGUAGE` (ignored, as `gettext` does, when the locale is `C` or `POSIX`), then `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`. English when none matches. A view that has its own locale (SwiftUI's `\.locale`, a
    /// preview's) words an error with `error.localizedDescription(for:)`.
    /// ```swift
    /// print(BMLTLocalization.defaultLocale.identifier)   // e.g. "es" with LANG=es_ES.UTF-8 on Linux
    /// ```
    public static var defaultLocale: Locale {
        #if canImport(Darwin)
        if Bundle.main.bundleIdentifier != nil { return Locale(identifier: applesChoice) }
        #endif
        return Locale(identifier: environmentLanguage(ProcessInfo.processInfo.environment))
    }

    /// `defaultLocale`'s language on Linux and for a tool without a bundle (tested directly, on every platform): the
    /// environment as `gettext` reads it. English when none matches.
    static func environmentLanguage(_ environment: [String: String]) -> String {
        let effective = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let base = effective.split(separator: ".").first.map(String.init) ?? ""
        guard !base.isEmpty, base != "C", base != "POSIX" else { return "en" }
        let candidates = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init) + [effective]
        return candidates.lazy.compactMap { language(ofIdentifier: $0) }.first ?? "en"
    }

    /// The supported languages written right to left (Farsi), from Foundation's own data: their sentences isolate every
    /// argument (`StringTables.fill`).
    static let rightToLeftLanguages: Set<String> = Set(supportedLanguages.filter {
        Locale.Language(identifier: $0).characterDirection == .rightToLeft
    })

    /// Whether `language` (a table language) is written right to left.
    static func isRightToLeft(_ language: String) -> Bool { rightToLeftLanguages.contains(language) }

    /// `es_ES.UTF-8@euro`, `pt-BR`, `sr-Latn-RS`, `fa` → the supported language, or `nil`: the language code before the
    /// first `_` or `-` (a region or a script after it is ignored: `pt-BR` → `pt`, `ru-Cyrl` → `ru`), lower-cased; a code
    /// BMLTKit has no table for (`sr`, `ja`, `zh`), `C`, `POSIX` or nothing → `nil`.
    static func language(ofIdentifier identifier: String) -> String? {
        let code = baseCode(ofIdentifier: identifier)
        return supportedLanguages.contains(code) ? code : nil
    }
}
