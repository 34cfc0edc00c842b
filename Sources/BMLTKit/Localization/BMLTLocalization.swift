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
/// 2. otherwise ``defaultLocale``: on Apple platforms the app's `Bundle.main.preferredLocalizations` (the language the
///    app runs in), on Linux the `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` environment as `gettext` reads it.
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

    /// The locale BMLTKit speaks when none is given: on Apple platforms the first of the app's preferred
    /// localizations it has a table for; on Linux the first language of `LANGUAGE` (ignored, as `gettext` does, when
    /// the locale is `C` or `POSIX`), then `LC_ALL`, `LC_MESSAGES`, `LANG`. English when none matches.
    /// ```swift
    /// print(BMLTLocalization.defaultLocale.identifier)   // e.g. "es" with LANG=es_ES.UTF-8 on Linux
    /// ```
    public static var defaultLocale: Locale {
        Locale(identifier: defaultLanguage(environment: ProcessInfo.processInfo.environment,
                                           preferred: Bundle.main.preferredLocalizations))
    }

    /// `defaultLocale`'s language from an environment and an app's preferred localizations (tested directly).
    static func defaultLanguage(environment: [String: String], preferred: [String]) -> String {
        #if canImport(Darwin)
        return preferred.lazy.compactMap { language(ofIdentifier: $0) }.first ?? "en"
        #else
        let effective = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let base = effective.split(separator: ".").first.map(String.init) ?? ""
        guard !base.isEmpty, base != "C", base != "POSIX" else { return "en" }
        let candidates = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init) + [effective]
        return candidates.lazy.compactMap { language(ofIdentifier: $0) }.first ?? "en"
        #endif
    }

    /// `es_ES.UTF-8@euro`, `pt-BR`, `fa` → the supported language, or `nil`.
    static func language(ofIdentifier identifier: String) -> String? {
        let base = identifier.split(whereSeparator: { ".@".contains($0) }).first.map(String.init) ?? ""
        let code = base.split(whereSeparator: { "_-".contains($0) }).first.map { $0.lowercased() } ?? ""
        return supportedLanguages.contains(code) ? code : nil
    }
}
