import Foundation
import Testing
@testable import BMLTKit

@Suite("JSON scanner (single pass over UTF-8)")
struct JSONScannerTests {
    /// Numbers compare by value (the reference parser may call 1.0 an integer).
    static func normalized(_ value: WireValue) -> WireValue {
        switch value {
        case .integer(let number): return .double(Double(number))
        case .array(let elements): return .array(elements.map(normalized))
        case .object(let members): return .object(members.mapValues(normalized))
        default: return value
        }
    }

    static func reference(_ data: Data) throws -> WireValue { try WireValue.parseWithFoundation(data) }

    @Test("every JSON capture of both servers parses to the same value as the reference parser",
          .needsCorpus)
    func capturesMatchReference() throws {
        var checked = 0
        for folder in [FixtureCorpus.legacy, FixtureCorpus.modern] {
            for file in FixtureCorpus.files(folder) {
                let data = try FixtureCorpus.data(folder, file)
                let expected = try? Self.reference(data)
                let actual = try? JSONScanner.parse(data)
                #expect(expected.map(Self.normalized) == actual.map(Self.normalized), "\(folder)/\(file)")
                checked += 1
            }
        }
        #expect(checked >= 140)
    }

    @Test("escapes, unicode and numbers", arguments: [
        (#""a\"b\\c\/d\n\t""#, WireValue.string("a\"b\\c/d\n\t")),
        (#""Espa\u00f1ol \ud83d\ude00 é""#, .string("Español 😀 é")),
        ("[1, -2, 3.5, 1e3, -0.25E-2, 0]", .array([.integer(1), .integer(-2), .double(3.5), .double(1000), .double(-0.0025), .integer(0)])),
        (#" {"a" : [true, false, null], "b": {}} "#, .object(["a": .array([.bool(true), .bool(false), .null]), "b": .object([:])])),
        ("\u{FEFF}[]", .array([])),
        ("12345678901234567890", .double(1.2345678901234567e19)),
    ])
    func values(text: String, expected: WireValue) throws {
        #expect(try JSONScanner.parse(Data(text.utf8)) == expected)
    }

    @Test("bad input is an error with a position, never a crash", arguments: [
        "", "[", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\":}", "\"open", "tru", "nul", "01", "1.", "-", "1e",
        "[1]x", "\"\\q\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00x\"", "{1:2}", "[,]", "\"a\u{01}b\"",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func badInput(text: String) {
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Data(text.utf8)) }
    }

    @Test("invalid UTF-8 inside a string is an error")
    func invalidUTF8() {
        let bytes: [UInt8] = Array(#"["ok", ""#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8)
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Data(bytes)) }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Data(overlong)) }
    }

    @Test("the error says where")
    func position() {
        do {
            _ = try JSONScanner.parse(Data(#"{"a": [1, 2,, 3]}"#.utf8))
            Issue.record("must fail")
        } catch {
            #expect(error.offset == 12)
        }
    }
}


/// `trimmedSpaces` is `trimmingCharacters(in: .whitespaces)` with a fast path.
@Suite("Trimming spaces from wire strings")
struct TrimmedSpacesTests {
    @Test("the same as trimmingCharacters(in: .whitespaces) for ASCII, tabs, newlines and Unicode spaces")
    func sameAsFoundation() {
        let texts = ["", " ", "\t", "42", " 42", "42 ", " 42 ", "\t7\t", "\n5\n", "\u{00A0}3\u{00A0}", "\u{2003}x", "x\u{3000}",
                     "a b", "  ", "é", " é ", "1,2, 3", "\r\n", "\u{0}", "🙂 ", "\u{200B}9"]
        for text in texts {
            #expect(text.trimmedSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text[...].trimmedSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription) as a Substring")
        }
    }
}
