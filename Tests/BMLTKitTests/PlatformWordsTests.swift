import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// What differs between Linux's Foundation and Apple's, checked on the words and rules BMLTKit writes itself: the codes
/// only Apple's URL loading system gives (App Transport Security, a lost connection with no reply), error text that is
/// libcurl's English on Linux and the device's language on Apple, and time-zone names.
@Suite("Platform differences: error words and time-zone names")
struct PlatformWordsTests {
    @Test("App Transport Security's refusal (-1022) has its own sentence naming ATS and the Info.plist keys, never 'could not be reached'")
    func appTransportSecurity() {
        let error = BMLTError.from(NSError(domain: NSURLErrorDomain, code: -1022))
        guard case .transport(let code) = error else { Issue.record("\(error)"); return }
        #expect(code == -1022)
        let sentence = error.description
        #expect(sentence.contains("App Transport Security") && sentence.contains("Info.plist"), "\(sentence)")
        #expect(sentence.contains("NSExceptionDomains") && sentence.contains("NSAllowsLocalNetworking"), "\(sentence)")
        #expect(!sentence.contains("could not be reached"), "\(sentence)")
        #expect(!Transport.isTransient(error), "a refusal by the app's own settings is not retried")
    }

    @Test("a connection lost before any reply (-1005) is retried and says so, never 'could not be reached'")
    func lostBeforeReply() {
        let error = BMLTError.from(URLError(.networkConnectionLost))
        #expect(error == .transport(code: -1005))
        #expect(Transport.isTransient(error))
        let sentence = error.description
        #expect(sentence.contains("lost before its reply arrived") && !sentence.contains("could not be reached"), "\(sentence)")
        // Once the head has arrived the same code is a broken reply (the server was reached).
        let head = HTTPURLResponse(url: URL(string: "https://example.org/")!, statusCode: 200, httpVersion: nil, headerFields: nil)
        let after = BMLTError.from(URLError(.networkConnectionLost), afterHead: head, bytes: 10)
        guard case .brokenReply(let code, _) = after else { Issue.record("\(after)"); return }
        #expect(code == -1005)
    }

    @Test("the HTTP stack's words are quoted only where they are libcurl's; otherwise BMLTKit's own words for the code")
    func stackWords() {
        // No description of its own: Foundation's generic sentence (English on Linux, localized on Apple) is never quoted.
        let bare = NSError(domain: NSURLErrorDomain, code: URLError.cannotParseResponse.rawValue)
        #expect(BMLTError.stackWords(bare) == nil)
        #expect(BMLTError.stackWords(NSError(domain: NSURLErrorDomain, code: -1)) == nil)
        // A description of its own: libcurl's message on Linux (quoted, any address removed); on Apple a system sentence
        // in the device's language (not quoted: BMLTKit's sentences are English).
        let described = NSError(domain: NSURLErrorDomain, code: URLError.cannotParseResponse.rawValue,
                                userInfo: [NSLocalizedDescriptionKey: "Failed writing header for https://example.org/x?token=1"])
        #if canImport(FoundationNetworking)
        #expect(BMLTError.stackWords(described) == "Failed writing header for <address>")
        #else
        #expect(BMLTError.stackWords(described) == nil)
        #endif
        let broken = BMLTError.from(bare)
        #expect(broken == .brokenReply(code: URLError.cannotParseResponse.rawValue, detail: .unreadable(stack: nil)))
        #expect(broken.description.contains("the reply could not be read (the reply's head could not be parsed)"), "\(broken)")
    }

    @Test("a draft's time zone is checked by name with TimeZone(identifier:), not against the platform's list", arguments: [
        ("America/New_York", true), ("UTC", true), ("Europe/London", true), ("Asia/Kolkata", true),
        ("GMT+0100", false), ("GMT-0530", false), ("Mars/Olympus_Mons", false), ("", false),
        (String(repeating: "A", count: 41), false),
    ])
    func zoneNames(identifier: String, named: Bool) {
        #expect(MeetingDraftRules.isNamedZone(identifier) == named, "\(identifier)")
    }

    @Test("every zone this platform can make by name passes, and TimeZone(secondsFromGMT:) does not")
    func everyKnownZone() throws {
        let refused = TimeZone.knownTimeZoneIdentifiers.filter { !MeetingDraftRules.isNamedZone($0) && !$0.hasPrefix("GMT+") && !$0.hasPrefix("GMT-") }
        #expect(refused.isEmpty, "\(refused)")
        let offset = try #require(TimeZone(secondsFromGMT: 3600))
        #expect(!MeetingDraftRules.isNamedZone(offset.identifier), "\(offset.identifier)")
    }
}
