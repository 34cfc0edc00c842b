import Foundation
import Testing
@testable import BMLTKit

/// Random and hostile text through every joining parser: nothing traps, and every answer keeps its promises
/// (an `https` link that reads back to itself, a `tel:` link of 7 to 15 digits, an address without empty parts).
@Suite("Joining: random and hostile input")
struct JoiningAdversarialTests {
    static let pieces = [
        "https://", "http://", "//", "javascript:", "data:", "file:", "zoom.us", "us02web.zoom.us", "/j/", "85212345678",
        "?pwd=", "&", "=", "#", "%", "%2", "%zz", "%00", "@", ":", ":443", ".", "..", ",", ",,", ";", "*", "+", "+1", "00",
        "(", ")", "[", "]", "<", ">", "\"", "'", " ", "  ", "\n", "\t", "\u{00A0}", "\u{200B}", "\u{0000}", "\u{FEFF}",
        "é", "ñ", "ß", "İ", "’", "😀", "👩‍👩‍👧", "\u{0301}", "\u{202E}", "Meeting ID", "ID:", "Passcode", "Contraseña",
        "Code secret", "mot de passe", "ext.", "x", "press", "PIN", "tel:", "www.", "meet.google.com", "abc-defg-hij",
        "teams.microsoft.com/l/meetup-join/", "646", "558", "8656", "-", "0", "1", "9", "999999999999999999999",
        "none", "is", "es", "\r\n", "xn--", "-.", "localhost",
    ]

    static func text(_ random: inout SplitMix) -> String {
        var text = ""
        for _ in 0..<Int(random.next() % 14) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        return text
    }

    @Test("8,000 random texts as link, info and phone: no trap, every answer valid")
    func randomTexts() async throws {
        // On a thread of its own (a few seconds of CPU): see OwnThread.
        let problems = try await OwnThread.run { Self.problemsInRandomTexts(rounds: 8_000) }
        #expect(problems.isEmpty, "\(problems.count) problems, the first: \(problems.prefix(3))")
    }

    /// Every broken promise, named by round and input.
    static func problemsInRandomTexts(rounds: Int) -> [String] {
        var random = SplitMix(seed: 0xB317_0030)   // the suite's seeded generator: a failure is repeatable
        var problems: [String] = []
        for round in 0..<rounds {
            let link = Self.text(&random), info = Self.text(&random), phone = Self.text(&random)
            var meeting = BMLTMeeting(id: round, serviceBodyID: 1, name: "x", weekday: .monday, startTime: .init(hour: 23, minute: 59))
            meeting.virtualMeetingLink = link
            meeting.virtualMeetingAdditionalInfo = info
            meeting.phoneMeetingNumber = phone
            meeting.street = info
            meeting.municipality = link
            if let join = meeting.virtualMeeting {
                if join.link.scheme != "https" || join.link.host?.contains(".") != true
                    || BMLTVirtualMeeting(link: join.link.absoluteString)?.link != join.link {
                    problems.append("round \(round): link \(link.debugDescription) gave \(join.link)")
                }
                if let app = join.appURL, ["https", "http", "javascript", "file", "data"].contains(app.scheme ?? "") {
                    problems.append("round \(round): app link \(app)")
                }
            }
            if let dial = meeting.dialIn {
                let digits = dial.number.drop { $0 == "+" }
                if dial.url.scheme != "tel" || !(7...15).contains(digits.count) || !digits.allSatisfy(\.isASCIIDigit)
                    || !dial.tones.allSatisfy({ "0123456789*#,".contains($0) }) {
                    problems.append("round \(round): phone \(phone.debugDescription) gave \(dial.url)")
                }
            }
            if let address = meeting.addressText,
               address.isEmpty || address.contains(where: \.isNewline) || address.first?.isWhitespace != false || address.last?.isWhitespace != false {
                problems.append("round \(round): address \(address.debugDescription)")
            }
            for provider in BMLTMapProvider.allCases { _ = meeting.directionsURL(provider) }
        }
        return problems
    }

    @Test("hostile shapes: huge, control characters, lone surrogates' replacements, endless digits", arguments: [
        String(repeating: "https://zoom.us/j/", count: 2_000), String(repeating: "9", count: 100_000),
        String(repeating: "Passcode: ", count: 5_000), String(repeating: "+1 ", count: 10_000), "\u{FFFD}\u{FFFD}https://zoom.us",
        String(repeating: "(", count: 3_000) + "https://zoom.us/j/1" + String(repeating: ")", count: 3_000),
        "https://" + String(repeating: "a.", count: 200) + "com", "https://zoom.us/" + String(repeating: "%", count: 1_000),
    ])
    func hostile(_ text: String) {
        _ = BMLTVirtualMeeting(link: text, additionalInfo: text)
        _ = BMLTDialIn(phone: text, additionalInfo: text, service: .zoom, linkMeetingID: text)
        _ = JoinInfoText(text)
        if let join = BMLTVirtualMeeting(link: text) { #expect(join.link.scheme == "https") }
    }
}
