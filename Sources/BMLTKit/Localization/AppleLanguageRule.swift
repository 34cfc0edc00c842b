import Foundation

/// How Apple platforms choose the language of a bundle that is not the app's own (BMLTKit's string tables), written
/// out as a function of what it reads, so that Linux can test the rule the Apple build follows.
///
/// On Apple platforms `defaultLocale` asks Apple itself: `Bundle.preferredLocalizations(from:)` over the tables
/// BMLTKit has (CFBundle's `CFBundleCopyPreferredLocalizationsFromArray`: "the one or more of them that CFBundle would
/// use in the current application context"), the choice every other framework and `Bundle.module` string in the app
/// gets. `appleLanguage(_:)` is that rule as swift-corelibs-foundation's `CFBundle_Locale.c` (Apple's CF) states it
/// (`_CFBundleCopyPreferredLanguagesInList`, `_CFBundleCopyLanguageSearchListInBundle`), at the level of language codes:
/// 1. Unless the app's Info.plist sets `CFBundleAllowMixedLocalizations`: the app's language search list — the first of
///    the user's languages the app is localized in (else its development language), then its development language —
///    and the first of that list BMLTKit has a table for. An app localized in English and Japanese, running in
///    Japanese, speaks English (its development language), whatever else the user reads.
/// 2. Otherwise (mixed localizations, or no language of the app's list has a table): the first of the user's preferred
///    languages BMLTKit has a table for.
/// 3. English.
/// A program whose main bundle has no identifier (a bare command-line tool) is not an app: it reads the environment
/// (`environmentLanguage(_:)`). A tool with an embedded Info.plist is an app here, as for Apple: it sets
/// `CFBundleAllowMixedLocalizations` to speak the user's language.
extension BMLTLocalization {
    /// What Apple's rule reads: the app's localizations and development language, the user's languages, and the app's
    /// `CFBundleAllowMixedLocalizations`.
    struct AppContext: Sendable, Equatable {
        /// `Bundle.main.localizations`.
        var localizations: [String]
        /// `Bundle.main.developmentLocalization` (`CFBundleDevelopmentRegion`).
        var developmentLanguage: String?
        /// `Locale.preferredLanguages` (the user's order).
        var userLanguages: [String]
        /// The app's Info.plist `CFBundleAllowMixedLocalizations`.
        var allowsMixedLocalizations = false
    }

    /// The table language Apple's rule picks in `app` (see above); English when none matches.
    static func appleLanguage(_ app: AppContext) -> String {
        if !app.allowsMixedLocalizations {
            let appLanguages = app.localizations.map(baseCode(ofIdentifier:))
            let development = app.developmentLanguage.map(baseCode(ofIdentifier:)).flatMap { $0.isEmpty ? nil : $0 }
            // The app's language search list: the language it runs in, then its development language (CF appends it
            // "as a fallback for individual resources that are not present"), English when it names neither.
            let running = app.userLanguages.lazy.map(baseCode(ofIdentifier:)).first { !$0.isEmpty && appLanguages.contains($0) }
            let searchList = [running ?? development ?? "en", development].compactMap { $0 }
            if let chosen = searchList.lazy.compactMap({ language(ofIdentifier: $0) }).first { return chosen }
        }
        return app.userLanguages.lazy.compactMap { language(ofIdentifier: $0) }.first ?? "en"
    }

    /// The language code of `identifier` whether BMLTKit has a table for it or not (`ja_JP` → `ja`, `zh-Hant` →
    /// `zh`); `""` for nothing.
    static func baseCode(ofIdentifier identifier: String) -> String {
        let base = identifier.split(whereSeparator: { ".@".contains($0) }).first.map(String.init) ?? ""
        return base.split(whereSeparator: { "_-".contains($0) }).first.map { $0.lowercased() } ?? ""
    }

    /// An Info.plist boolean as CFBundle reads one (`_CFBundleGetInfoDictionaryBoolean`): `true`, a string `"true"` or
    /// `"YES"` in any case, or a number other than 0.
    static func infoBoolean(_ value: Any?) -> Bool {
        switch value {
        case let flag as Bool: return flag
        case let text as String: return ["true", "yes"].contains(text.lowercased())
        case let number as Int: return number != 0
        default: return false
        }
    }

    /// The tables as Apple's call takes them: English first, so that CF's last fallback (the array's first entry)
    /// is English.
    static var tablesEnglishFirst: [String] { ["en"] + supportedLanguages.filter { $0 != "en" } }

    #if canImport(Darwin)
    /// Apple's own choice among the tables in this app (`Bundle.preferredLocalizations(from:)`).
    static var applesChoice: String {
        Bundle.preferredLocalizations(from: tablesEnglishFirst).first.flatMap { language(ofIdentifier: $0) } ?? "en"
    }

    /// What Apple's rule reads in this process (compared with `applesChoice` by the tests on a Mac).
    static var mainBundleContext: AppContext {
        AppContext(localizations: Bundle.main.localizations, developmentLanguage: Bundle.main.developmentLocalization,
                   userLanguages: Locale.preferredLanguages,
                   allowsMixedLocalizations: infoBoolean(Bundle.main.object(forInfoDictionaryKey: "CFBundleAllowMixedLocalizations")))
    }

    /// Whether the main bundle follows a parent's localization (an app extension): Apple's private code decides
    /// there, and `appleLanguage(_:)` does not model it.
    static var followsParentLocalization: Bool {
        Bundle.main.object(forInfoDictionaryKey: "NSExtension") != nil
            || infoBoolean(Bundle.main.object(forInfoDictionaryKey: "CFBundleFollowParentLocalization"))
    }
    #endif
}
