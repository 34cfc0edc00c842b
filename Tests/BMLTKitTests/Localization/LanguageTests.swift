import Foundation
import Testing
@testable import BMLTKit

/// BMLTKit's words in the twelve languages of the root servers: the sentences a host shows, picked by locale, with
/// English behind every table and plurals and numbers formatted for the language.
@Suite("Languages: errors, problems and names in the servers' languages")
struct LanguageTests {
    nonisolated static let spanish = Locale(identifier: "es_ES")
    nonisolated static let farsi = Locale(identifier: "fa_IR")

    /// A Farsi sentence without its bidi isolates (U+2066…U+2069), to compare its words.
    static func plain(_ text: String) -> String { text.filter { !"\u{2066}\u{2067}\u{2068}\u{2069}".contains($0) } }

    @Test("an error's description reads in Spanish when the locale says so")
    func spanishSentences() {
        #expect(BMLTError.timeout.localizedDescription(for: Self.spanish)
                == "El servidor no respondió a tiempo. Vuelva a intentarlo, o aumente el tiempo de espera en BMLTConfiguration.")
        let page = BMLTError.malformedResponse(what: .meetingSearch, detail: .page)
        #expect(page.localizedDescription(for: Self.spanish) == "No se pudo leer la respuesta del servidor (los resultados de la "
                + "búsqueda de reuniones): el servidor envió una página HTML o XML en lugar de JSON.")
        #expect(BMLTError.unsupported(.serverSettings).localizedDescription(for: Locale(identifier: "es_MX"))
                == "Este servidor raíz no admite la configuración del servidor (/api/v1/settings existe a partir del servidor "
                + "raíz 4.0; este servidor respondió 404).")
        // The server's own words are quoted as they came, inside the Spanish sentence.
        #expect(BMLTError.forbidden(message: "Forbidden").localizedDescription(for: Self.spanish)
                == "Este usuario no tiene permiso para hacer eso: «Forbidden». Pida a un administrador los permisos necesarios.")
        #expect(BMLTMessageRejection.looksLikeSpam.localizedDescription(for: Self.spanish)
                == "El servidor tomó el mensaje por spam. Quite los enlaces y vuelva a intentarlo.")
    }

    @Test("an error's description reads in Farsi, right to left, its quantities in Persian digits")
    func farsiSentences() {
        #expect(Self.plain(BMLTError.timeout.localizedDescription(for: Self.farsi))
                == "سرور به‌موقع پاسخ نداد. دوباره تلاش کنید، یا زمان انتظار را در BMLTConfiguration بیشتر کنید.")
        #expect(Self.plain(BMLTError.responseTooLarge(limit: 1_048_576).localizedDescription(for: Self.farsi))
                == "پاسخ سرور از حد ۱٬۰۴۸٬۵۷۶ بایت بزرگ‌تر بود. جست‌وجو را محدودتر کنید یا maximumResponseSize را بیشتر کنید.")
        #expect(Self.plain(BMLTError.notARootServer(reason: .noVersion).localizedDescription(for: Self.farsi))
                == "این نشانی مانند یک سرور ریشهٔ BMLT پاسخ نمی‌دهد: GetServerInfo نسخه ندارد. نشانی را بررسی کنید.")
        #expect(Self.farsi.language.characterDirection == .rightToLeft)
    }

    @Test("a write's outcome reads in Spanish: a lost answer, a write the server failed on, an already-deleted meeting")
    func spanishWriteOutcomes() {
        let open = BMLTError.writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: .createMeeting, loss: .transport(code: -1005),
                                                                         finding: .severalCandidates(ids: [71, 72])))
        #expect(open.localizedDescription(for: Self.spanish) == "Se perdió la respuesta a la solicitud de crear una reunión (se "
                + "perdió la conexión (código -1005)). La lista de cambios muestra 2 reuniones nuevas creadas con esta sesión "
                + "desde entonces que coinciden con ella (71, 72); no se eligió ninguna. Revíselas y elimine cualquier duplicado.")
        // The server's words stay its own, quoted inside the sentence; what the failed write left is told from the version.
        let failed = BMLTError.httpStatus(code: 500, message: "Internal Server Error")
            .asWriteFailure(.createMeeting, leftBehind: .newMeetingChangeRecord(serverVersion: "2.16.6"))
        #expect(failed.localizedDescription(for: Self.spanish) == "El servidor falló en esta escritura (crear una "
                + "reunión): respondió con el código de estado HTTP 500 («Internal Server Error»). Aun así dejó algo: el "
                + "servidor raíz 2.16.6 registra el cambio «nuevo» de una reunión antes de guardar sus campos, así que ese "
                + "registro de cambio queda en la lista de cambios. Repetirla sin cambios fallará de la misma manera; avise al "
                + "administrador del servidor.")
        let gone = BMLTMeetingDeletion(meetingID: 42, wasAlreadyDeleted: true,
                                       deletion: BMLTChange(id: 9, type: .deleted, meetingID: 42, userName: "Nassau Admin"))
        #expect(gone.localizedDescription(for: Self.spanish) == "La reunión 42 ya estaba eliminada (por Nassau Admin).")
        #expect(gone.description == "Meeting 42 was already deleted (by Nassau Admin).")
        for text in [open, failed].map({ $0.localizedDescription(for: Self.spanish) }) {
            #expect(!text.contains("Vuelva a intentarlo") && !text.contains("The "), "no “Try again”, no English: \(text)")
        }
    }

    @Test("a write's outcome reads in Farsi: its counts in Persian digits, the date in the language's own form")
    func farsiWriteOutcomes() {
        let open = BMLTError.writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: .deleteMeeting, itemID: 42, loss: .timeout,
                                                                         finding: .lookUpFailed(.httpStatus(code: 503, message: nil))))
        #expect(Self.plain(open.localizedDescription(for: Self.farsi)) == "پاسخ حذف جلسهٔ 42 از دست رفت (سرور به‌موقع پاسخ نداد)، و بررسی "
                + "آنچه اکنون روی سرور است هم ممکن نشد (سرور یا پراکسیِ جلوی آن با وضعیت HTTP 503 پاسخ داد). شاید انجام شده "
                + "باشد: وقتی سرور در دسترس بود، پیش از انجام دوباره جلسه‌های سرور (یا فهرست تغییرات) را بخوانید.")
        let similar = BMLTError.writeOutcomeUnknown(BMLTUnknownWriteOutcome(writeKind: .createMeeting, loss: .timeout,
                                                                            finding: .noRecordButSimilar(ids: [7])))
        #expect(Self.plain(similar.localizedDescription(for: Self.farsi)).contains("نهاد خدماتی ۱ جلسهٔ مشابه دارد (7)"))
        let failed = BMLTError.serverFailedOnWrite(BMLTWriteFailure(writeKind: .saveMeeting, code: 501))
        #expect(Self.plain(failed.localizedDescription(for: Self.farsi)) == "سرور در انجام این تغییر با خطا روبه‌رو شد (ذخیرهٔ جلسه): با "
                + "وضعیت HTTP 501 پاسخ داد. جلسه را دوباره بخوانید تا ببینید اکنون روی سرور چه هست. تکرار آن بدون تغییر به "
                + "همین شکل شکست می‌خورد؛ به مدیر سرور خبر دهید.")
        let gone = BMLTMeetingDeletion(meetingID: 42, wasAlreadyDeleted: true,
                                       deletion: BMLTChange(id: 9, date: Date(timeIntervalSince1970: 1_790_000_000), type: .deleted,
                                                            meetingID: 42, userName: "Nassau Admin"))
        let text = Self.plain(gone.localizedDescription(for: Self.farsi))
        #expect(text.hasPrefix("جلسهٔ 42 پیش‌تر حذف شده بود (به دست Nassau Admin، ") && text.hasSuffix(").")
                && text.contains { "۰۱۲۳۴۵۶۷۸۹".contains($0) }, "\(text)")
        #expect(gone.description.hasPrefix("Meeting 42 was already deleted (by Nassau Admin, 2026-"))
    }

    @Test("a locale without a table falls back to English, never to a key", arguments: ["ja", "zh_Hans", "xx", "", "en_GB"])
    func unknownLocale(identifier: String) {
        let errors: [BMLTError] = [.timeout, .cancelled, .unsupported(.legacyAdminAction), .responseTooLarge(limit: 2),
                                   .malformedResponse(what: .fieldValues(key: "location_sub_province"), detail: .emptyBody)]
        for error in errors {
            let sentence = error.localizedDescription(for: Locale(identifier: identifier))
            #expect(sentence == error.description, "\(identifier): \(sentence)")
            #expect(!sentence.contains("error.") && !sentence.contains("subject.") && !sentence.contains("%"), "\(sentence)")
        }
        #expect(BMLTError.malformedResponse(what: .fieldValues(key: "location_sub_province"), detail: .emptyBody).description
                == "The server's answer to the values of location_sub_province could not be read: the body is empty.")
        // A key missing from a table reads English too.
        #expect(StringTables.template("error.timeout", language: "xx") == EnglishTable.strings["error.timeout"])
    }

    @Test("every language has every key of the English table, in the bundle the build made")
    func everyLanguageHasEveryKey() throws {
        let english = EnglishTable.strings
        #expect(english.count > 150)
        for language in BMLTLocalization.supportedLanguages where language != "en" {
            let table = try #require(StringTables.table(language), "no table for \(language) in Bundle.module")
            let categories = PluralCategory.required(for: language).map(\.rawValue)
            for key in english.keys {
                if let hash = key.firstIndex(of: "#") {
                    let base = key[..<hash]
                    for category in categories { #expect(table["\(base)#\(category)"] != nil, "\(language): \(base)#\(category)") }
                } else {
                    #expect(table[key] != nil, "\(language): \(key)")
                }
            }
        }
    }

    @Test("a plural and its number follow the language: Russian one/few/many, Polish, German grouping")
    func pluralsAndNumbers() {
        func message(_ count: Int, _ language: String) -> String? {
            let problems = (0..<count).map { BMLTFieldProblem(key: "meeting_name", message: "x\($0)") }
            guard case .validationFailed(let message, _) = MeetingDraftRules.error(problems, language: language) else { return nil }
            return message
        }
        #expect(message(1, "ru") == "до отправки найдена 1 проблема; ничего не отправлено")
        #expect(message(3, "ru") == "до отправки найдены 3 проблемы; ничего не отправлено")
        #expect(message(5, "ru") == "до отправки найдено 5 проблем; ничего не отправлено")
        #expect(message(22, "pl") == "przed wysłaniem znaleziono 22 problemy; nic nie zostało wysłane")
        #expect(message(12, "pl") == "przed wysłaniem znaleziono 12 problemów; nic nie zostało wysłane")
        #expect(message(1, "en") == "1 problem found before sending; nothing was sent")
        #expect(message(2, "en") == "2 problems found before sending; nothing was sent")
        #expect(BMLTError.responseTooLarge(limit: 1_048_576).localizedDescription(for: Locale(identifier: "de"))
                == "Die Antwort des Servers war größer als die Grenze von 1.048.576 Byte. Grenzen Sie die Suche ein oder erhöhen Sie maximumResponseSize.")
        #expect(BMLTError.responseTooLarge(limit: 1).description
                == "The server's answer was larger than the limit of 1 byte. Narrow the search or raise maximumResponseSize.")
        #expect(PluralCategory.of(0, in: "fr") == .one && PluralCategory.of(0, in: "de") == .other)
        #expect(PluralCategory.of(111, in: "ru") == .many && PluralCategory.of(101, in: "ru") == .one)
    }

    @Test("a draft's problems read in the configuration's language, with their structured reasons")
    @MainActor
    func draftProblemsInTheConfiguredLanguage() throws {
        var configuration = BMLTConfiguration()
        configuration.locale = Self.spanish
        let connection = BMLTConnection(rootServerURL: try #require(URL(string: "https://example.org/main_server")),
                                        configuration: configuration)
        var draft = BMLTMeetingDraft(serviceBodyID: 3)
        draft.name = String(repeating: "n", count: 130)
        let problems = connection.problems(in: draft)
        let name = try #require(problems.first { $0.key == "meeting_name" })
        #expect(name.reason == .tooLong(maximum: 128))
        #expect(name.message == "El nombre no puede tener más de 128 caracteres.")
        let day = try #require(problems.first { $0.key == "weekday_tinyint" })
        #expect(day.reason == .required && day.message == "El campo del día es obligatorio.")
        #expect(connection.localizedDescription(of: .cancelled) == "Se canceló la solicitud.")
        #expect(connection.locale == Self.spanish)
    }

    @Test("on Linux the language comes from LANGUAGE, LC_ALL, LC_MESSAGES and LANG as gettext reads them")
    func defaultLanguage() {
        func language(_ environment: [String: String]) -> String {
            BMLTLocalization.environmentLanguage(environment)
        }
        #expect(language(["LANG": "es_ES.UTF-8"]) == "es")
        #expect(language(["LANG": "pt_BR.UTF-8@latin"]) == "pt")
        #expect(language(["LANG": "de_DE.UTF-8", "LANGUAGE": "ja:fa:en"]) == "fa", "the first of LANGUAGE with a table")
        #expect(language(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"]) == "sv")
        #expect(language(["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"]) == "fr")
        #expect(language(["LANG": "C.UTF-8", "LANGUAGE": "es"]) == "en", "gettext ignores LANGUAGE in the C locale")
        #expect(language(["LANG": "ja_JP.UTF-8"]) == "en")
        #expect(language([:]) == "en")
    }

    @Test("weekday names come from Foundation's calendar for the locale")
    func weekdayNames() {
        #expect(BMLTWeekday.monday.localizedName(for: Self.spanish) == "lunes")
        #expect(BMLTWeekday.monday.localizedName(for: Self.farsi) == "دوشنبه")
        #expect(BMLTWeekday.sunday.localizedName(for: Locale(identifier: "de")) == "Sonntag")
        #expect(BMLTWeekday.saturday.localizedName(for: Locale(identifier: "en")) == BMLTWeekday.saturday.name)
    }

    @Test("placeholders: numbered, repeated, sequential and %% are filled; a missing argument leaves nothing")
    func placeholders() {
        #expect(StringTables.fill("%2$@ then %1$@, again %2$@", ["a", "b"]) == "b then a, again b")
        #expect(StringTables.fill("%@ and %@ at 100%%", ["x", "y"]) == "x and y at 100%")
        #expect(StringTables.fill("only %3$@.", ["a"]) == "only .")
    }
}
