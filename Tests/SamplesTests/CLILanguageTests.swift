import BMLTKit
import Foundation
@testable import ObserverCLI
import Testing

/// The observer CLI speaks English whatever `LANG` says: its flags and help are English, so BMLTKit's sentences are
/// taken in English too (`error.description`), never mixed with the app-language `localizedDescription`.
@Suite("bmlt-observer's words stay English")
struct CLILanguageTests {
    @Test("the CLI's sentence for a library error is the English one, though the error has a Spanish sentence too",
          arguments: [BMLTError.cancelled, .unsupported(.serverSettings), .transport(code: URLError.cannotFindHost.rawValue),
                      .malformedResponse(what: .meetingSearch, detail: .page)])
    func english(error: BMLTError) {
        let sentence = ErrorWords.sentence(error, timeout: nil)
        #expect(sentence == error.description)
        #expect(sentence != error.localizedDescription(for: Locale(identifier: "es")), "a Spanish table exists for \(error)")
    }

    @Test("a .timeout under --timeout inf or 1e300 names the number as given (it was converted to Int, a trap)")
    func timeoutNumbers() {
        #expect(ErrorWords.sentence(BMLTError.timeout, timeout: .infinity).contains("within --timeout inf s"))
        #expect(ErrorWords.sentence(BMLTError.timeout, timeout: nil, deadline: 1e300).contains("within BMLT_OBSERVER_DEADLINE 1e+300 s"))
        #expect(ErrorWords.sentence(BMLTError.timeout, timeout: 5).contains("within --timeout 5 s"))
    }

    @Test("a reason the CLI words itself is English too")
    func notARootServer() {
        #expect(ErrorWords.sentence(BMLTError.notARootServer(reason: .noClientInterface), timeout: nil)
                == "This address does not answer like a BMLT root server: there is no client_interface at this address (HTTP 404). "
                + "Check the --server URL.")
    }
}
