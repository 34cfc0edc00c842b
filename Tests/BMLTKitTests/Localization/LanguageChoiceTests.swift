import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Issue 49's language work: which language BMLTKit picks (Apple: as Apple picks a bundle's, issue 59; a tool without a
/// bundle and Linux: the environment), what a locale with a region or a script reads, right-to-left sentences that keep their
/// numbers and URLs in order, dates in the language's form, log lines in English, and the resource bundle Xcode names
/// in the environment (SwiftUI previews).
@Suite("Languages: choice, bad locales, right-to-left isolation, dates, log lines, the bundle Xcode names")
struct LanguageChoiceTests {
    nonisolated static let farsi = Locale(identifier: "fa_IR")
    static let fsi = "\u{2068}", pdi = "\u{2069}"

    /// Apple's rule as `appleLanguage(_:)` states it (CFBundle_Locale.c, `_CFBundleCopyPreferredLanguagesInList`);
    /// the Apple build asks `Bundle.preferredLocalizations(from:)`, and `appleRuleIsApplesOwn` compares the two there.
    @Test("Apple: the app's language when BMLTKit has it, else the app's development language; the user's with mixed localizations")
    func appleChoice() {
        typealias App = BMLTLocalization.AppContext
        func choice(_ localizations: [String], development: String?, user: [String], mixed: Bool = false) -> String {
            BMLTLocalization.appleLanguage(App(localizations: localizations, developmentLanguage: development,
                                               userLanguages: user, allowsMixedLocalizations: mixed))
        }
        // Apple audit A2's table. An app localized in English and Japanese, running in Japanese on a device set to
        // Japanese then French: English, the app's development language, as Apple's frameworks in it (it was French).
        #expect(choice(["en", "ja"], development: "en", user: ["ja-JP", "fr-FR"]) == "en")
        #expect(choice(["en", "ja"], development: "en", user: ["ja", "es"]) == "en")
        // An app in English and Spanish on a device set to French then Spanish runs in Spanish: Spanish.
        #expect(choice(["en", "es"], development: "en", user: ["fr", "es"]) == "es")
        #expect(choice(["Base", "en", "es-419"], development: "en", user: ["es-MX", "en-US"]) == "es")
        // An English-only app on a Spanish device: English, like the rest of the app…
        #expect(choice(["en"], development: "en", user: ["es-ES", "en"]) == "en")
        // …unless its Info.plist sets CFBundleAllowMixedLocalizations: then the user's first language with a table.
        #expect(choice(["en"], development: "en", user: ["es-ES", "en"], mixed: true) == "es")
        #expect(choice(["en", "ja"], development: "en", user: ["ja", "sv", "de"], mixed: true) == "sv")
        // The app's languages have no table (a Japanese-only app): the user's first language with one, else English.
        #expect(choice(["ja"], development: "ja", user: ["ja", "de"]) == "de")
        #expect(choice(["ja"], development: "ja", user: ["ja", "zh-Hant"]) == "en")
        // The app runs in the first of the user's languages it has (French here, not its German)…
        #expect(choice(["de", "fr"], development: "de", user: ["it", "fr-CA"]) == "fr")
        // …and when it has none of them, in its development language, which comes before the user's own languages.
        #expect(choice(["de", "it"], development: "de", user: ["ja", "fr"]) == "de")
        // A bundle with no localizations and no development language (a bare tool's folder): English.
        #expect(choice([], development: nil, user: ["fr"]) == "en")
        #expect(choice([], development: nil, user: []) == "en")
    }

    @Test("the Info.plist booleans Apple reads: true, \"YES\" or \"true\" in any case, or a number other than 0")
    func infoBooleans() {
        for yes: Any in [true, "YES", "yes", "True", 1, 7] { #expect(BMLTLocalization.infoBoolean(yes), "\(yes)") }
        for no: Any? in [false, "NO", "", "1", 0, nil, [true]] { #expect(!BMLTLocalization.infoBoolean(no), "\(String(describing: no))") }
        #expect(BMLTLocalization.tablesEnglishFirst.first == "en"
                && Set(BMLTLocalization.tablesEnglishFirst) == Set(BMLTLocalization.supportedLanguages)
                && BMLTLocalization.tablesEnglishFirst.count == BMLTLocalization.supportedLanguages.count)
    }

    #if canImport(Darwin)
    /// On a Mac (CI's macOS jobs): Apple's own answer in this process equals the rule written out above, given what it
    /// reads here. Not run on Linux, where there is no Apple rule to compare with.
    @Test("Apple: the rule written out is Apple's own (Bundle.preferredLocalizations(from:)) in this process")
    func appleRuleIsApplesOwn() {
        guard !BMLTLocalization.followsParentLocalization else { return }
        let context = BMLTLocalization.mainBundleContext
        #expect(BMLTLocalization.appleLanguage(context) == BMLTLocalization.applesChoice, "\(context)")
    }
    #endif

    @Test("a tool without a bundle (and Linux) reads LANGUAGE, LC_ALL, LC_MESSAGES and LANG as gettext does")
    func environmentChoice() {
        func language(_ environment: [String: String]) -> String {
            BMLTLocalization.environmentLanguage(environment)
        }
        #expect(language(["LANG": "ru_RU.UTF-8"]) == "ru")
        #expect(language(["LANG": "de_DE.UTF-8", "LANGUAGE": "ja:fa:en"]) == "fa")
        #expect(language(["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"]) == "fr")
        #expect(language(["LANG": "POSIX", "LANGUAGE": "es"]) == "en")
        #expect(language([:]) == "en")
        #if !canImport(Darwin)
        // Linux keeps the environment rule, whatever the main bundle says.
        #expect(BMLTLocalization.defaultLocale.identifier == language(ProcessInfo.processInfo.environment))
        #endif
    }

    @Test("a locale with a region or a script reads its language; one without a table, or none, reads English")
    func regionScriptAndUnknown() {
        let cases: [(String, String)] = [
            ("pt-BR", "pt"), ("pt_PT", "pt"), ("PT-br", "pt"), ("es-419", "es"), ("ru-Cyrl-RU", "ru"), ("fa-AF", "fa"),
            ("de_CH@currency=CHF", "de"), ("el_GR.UTF-8", "el"),
            ("sr-Latn", "en"), ("sr_Latn_RS", "en"), ("zh-Hant-TW", "en"), ("ja", "en"), ("x", "en"), ("", "en"),
        ]
        for (identifier, expected) in cases {
            #expect(BMLTLocalization.language(for: Locale(identifier: identifier)) == expected, "\(identifier)")
        }
        #expect(BMLTLocalization.language(ofIdentifier: "sr-Latn") == nil)
        #expect(BMLTLocalization.language(ofIdentifier: "C") == nil && BMLTLocalization.language(ofIdentifier: "POSIX") == nil)
        // What a person sees: Brazilian Portuguese reads the Portuguese table; Serbian (Latin) reads English.
        #expect(BMLTError.cancelled.localizedDescription(for: Locale(identifier: "pt-BR"))
                == BMLTError.cancelled.localizedDescription(for: Locale(identifier: "pt")))
        #expect(BMLTError.cancelled.localizedDescription(for: Locale(identifier: "sr-Latn")) == BMLTError.cancelled.description)
    }

    @Test("right to left: Farsi is the one table written right to left, by Foundation's own data")
    func rightToLeftLanguages() {
        #expect(BMLTLocalization.rightToLeftLanguages == ["fa"])
        for language in BMLTLocalization.supportedLanguages {
            #expect(BMLTLocalization.isRightToLeft(language)
                    == (Locale.Language(identifier: language).characterDirection == .rightToLeft), "\(language)")
        }
    }

    @Test("right to left: every value put into a Farsi sentence is isolated — codes, URLs, counts, the server's words")
    func farsiArgumentsIsolated() {
        let url = "https://example.org/main_server/"
        let invalid = BMLTError.invalidURL(url).localizedDescription(for: Self.farsi)
        #expect(invalid.contains(Self.fsi + url + Self.pdi), "a URL inside a right-to-left sentence: \(invalid)")
        #expect(invalid.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) }, "the sentence is Farsi")
        let transport = BMLTError.transport(code: -1009).localizedDescription(for: Self.farsi)
        #expect(transport.contains(Self.fsi + "-1009" + Self.pdi), "a negative code: \(transport)")
        let said = BMLTError.httpStatus(code: 503, message: "Service Unavailable").localizedDescription(for: Self.farsi)
        #expect(said.contains(Self.fsi + "503" + Self.pdi) && said.contains(Self.fsi + "Service Unavailable" + Self.pdi), "\(said)")
        // A phrase that is itself Farsi is isolated too (first strong: right to left inside), and its own values inside it.
        let nested = BMLTError.malformedResponse(what: .fieldValues(key: "location_sub_province"), detail: .invalidJSON(offset: 12))
            .localizedDescription(for: Self.farsi)
        #expect(nested.contains(Self.fsi + "location_sub_province" + Self.pdi), "\(nested)")
        // Every isolate is closed, and nothing is left out of one: no ASCII digit or URL outside an isolate.
        for sentence in [invalid, transport, said, nested] {
            #expect(sentence.filter { $0 == Character(Self.fsi) }.count == sentence.filter { $0 == Character(Self.pdi) }.count)
            #expect(!Self.outsideIsolates(sentence).contains { $0.isASCII && $0.isNumber }, "\(sentence)")
        }
        // The table's own literal codes are isolated (U+2066 LRI … U+2069), checked for every key by .ci/strings.
        #expect(BMLTError.transport(code: -1005).localizedDescription(for: Self.farsi).contains("\u{2066}-1005\u{2069}"))
        // Left-to-right languages are untouched: no isolate in English or Spanish.
        for locale in [Locale(identifier: "en"), Locale(identifier: "es")] {
            let text = BMLTError.invalidURL(url).localizedDescription(for: locale)
            #expect(!text.contains(Self.fsi) && !text.contains(Self.pdi) && !text.contains("\u{2066}"), "\(text)")
        }
        #expect(!BMLTError.transport(code: -1009).description.contains(Self.fsi))
    }

    @Test("the formatter isolates each argument in a right-to-left sentence, and only there")
    func fillIsolates() {
        #expect(StringTables.fill("(کد %@)", ["-1005"], isolating: true) == "(کد \u{2068}-1005\u{2069})")
        #expect(StringTables.fill("%2$@ و %1$@", ["a", "b"], isolating: true) == "\u{2068}b\u{2069} و \u{2068}a\u{2069}")
        #expect(StringTables.fill("[%@]", [""], isolating: true) == "[]", "nothing to isolate")
        #expect(StringTables.fill("(code %@)", ["-1005"]) == "(code -1005)")
    }

    @Test("a deletion's date reads in the language's form for a person, English too; ISO 8601 only in description")
    func deletionDates() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)   // 2026-09-21 (UTC)
        let gone = BMLTMeetingDeletion(meetingID: 42, wasAlreadyDeleted: true,
                                       deletion: BMLTChange(id: 9, date: date, type: .deleted, meetingID: 42, userName: "Nassau Admin"))
        let english = gone.localizedDescription(for: Locale(identifier: "en_US"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en")
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        #expect(english == "Meeting 42 was already deleted (by Nassau Admin, \(formatter.string(from: date))).")
        #expect(english.contains("2026") && english.contains("Sep"), "\(english)")
        let iso = try Regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T")
        #expect(english.firstMatch(of: iso) == nil, "no ISO 8601 for a person: \(english)")
        #expect(gone.description == "Meeting 42 was already deleted (by Nassau Admin, \(ISO8601DateFormatter().string(from: date))).")
        #expect(gone.description.firstMatch(of: iso) != nil)
        let german = gone.localizedDescription(for: Locale(identifier: "de"))
        #expect(german.contains("2026") && german.firstMatch(of: iso) == nil, "\(german)")
    }

    @Test("a failed request's log line is English (description), whatever the device's language")
    func logLinesInEnglish() throws {
        let lines = Locked<[String]>([])
        let log = RequestLog(level: .errors, handler: { _, line in lines.withLock { $0.append(line) } })
        let request = URLRequest(url: try #require(URL(string: "https://example.org/main_server/client_interface/json/")))
        let error = BMLTError.transport(code: -1009)
        log.outcome(request, .failure(error), seconds: 0.25)
        let line = try #require(lines.withLock { $0.first })
        #expect(line.hasPrefix("✕ GET https://example.org/main_server/client_interface/json/ failed in 0.250 s: "))
        #expect(line.hasSuffix(error.description), "\(line)")
        // Bites under a device language other than English (run with LANG=fa_IR.UTF-8 or es_ES.UTF-8): the localized
        // sentence must not be what is logged.
        if error.localizedDescription != error.description {
            #expect(!line.contains(error.localizedDescription), "\(line)")
        }
    }

    @Test("the bundle Xcode names in PACKAGE_RESOURCE_BUNDLE_PATH (SwiftUI previews) is looked for first")
    func bundlePathFromTheEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = try #require(ResourceBundle.bundle, "the test build has its resource bundle")
        let copy = folder.appendingPathComponent(built.bundleURL.lastPathComponent)
        try FileManager.default.copyItem(at: built.bundleURL, to: copy)

        let byPath = try #require(ResourceBundle.find(in: ResourceBundle.folders(environment: ["PACKAGE_RESOURCE_BUNDLE_PATH": folder.path])))
        #expect(byPath.bundleURL.resolvedPath == copy.resolvedPath, "the named folder's copy, first")
        let byURL = try #require(ResourceBundle.find(in: ResourceBundle.folders(
            environment: ["PACKAGE_RESOURCE_BUNDLE_URL": folder.absoluteString])))
        #expect(byURL.bundleURL.resolvedPath == copy.resolvedPath)
        // Without the variable (or with an empty one) the search is as before: the build's own bundle.
        let plain = try #require(ResourceBundle.find(in: ResourceBundle.folders(environment: ["PACKAGE_RESOURCE_BUNDLE_PATH": ""])))
        #expect(plain.bundleURL.resolvedPath == built.bundleURL.resolvedPath)
    }

    /// `text` without its U+2066/U+2068 … U+2069 spans.
    static func outsideIsolates(_ text: String) -> String {
        var depth = 0
        var out = ""
        for character in text {
            switch character {
            case "\u{2066}", "\u{2068}": depth += 1
            case "\u{2069}": depth = max(0, depth - 1)
            default: if depth == 0 { out.append(character) }
            }
        }
        return out
    }
}
