import Foundation
import Testing
@testable import BMLTKit

/// The streaming search decoder (what every search uses) against the reference path (`WireValue` tree, then
/// the same meeting mapping): the same meetings, formats and errors for every capture, our own quirky replies
/// and thousands of damaged ones — and the streaming path really is the one that answers for real replies.
@Suite("Streaming search decoder ≡ reference decoder", .serialized)
struct SearchStreamEquivalenceTests {
    typealias Outcome = Result<BMLTSearchResults, BMLTError>

    static let serverFormats = [
        BMLTFormat(id: 17, key: "O", name: "Open", language: "en"),
        BMLTFormat(id: 17, key: "A", name: "Abierta", language: "es"),
        BMLTFormat(id: 4, key: "C", name: "Closed", language: "en"),
    ]

    static func streaming(_ data: Data) -> Outcome {
        Result(catching: { () throws(BMLTError) in try BMLTSearchResults(jsonData: data, serverFormats: serverFormats) })
    }

    static func reference(_ data: Data) -> Outcome {
        Result(catching: { () throws(BMLTError) in try WireSearchStream.reference(data, serverFormats: serverFormats) })
    }

    /// Whether the single pass itself (no fallback) decodes the bytes to the reference's result.
    static func fastPathAnswers(_ data: Data) -> Bool {
        guard let fast = try? WireSearchStream.fast(data, serverFormats: serverFormats),
              case .success(let expected) = reference(data) else { return false }
        return fast == expected
    }

    @Test("every search capture of 2.16.6 and 3.1.2: the single pass answers, and equals the reference", .needsCorpus)
    func searchCaptures() async throws {
        // Seconds of decoding: on a thread of its own, not the test pool's (see `OwnThread`).
        let (unanswered, checked) = try await OwnThread.run { () throws -> ([String], Int) in
            var unanswered: [String] = [], checked = 0
            for folder in [FixtureCorpus.legacy, FixtureCorpus.modern] {
                for name in FixtureCorpus.files(folder) where name.contains("GetSearchResults") {
                    let data = try FixtureCorpus.data(folder, name)
                    let compact = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
                    if compact == "{}" { continue }   // "nothing": left to the reference path on purpose
                    if !Self.fastPathAnswers(data) { unanswered.append("\(folder)/\(name)") }
                    checked += 1
                }
            }
            return (unanswered, checked)
        }
        #expect(unanswered.isEmpty, "the single pass did not give the reference result for \(unanswered)")
        #expect(checked >= 35, "only \(checked) search captures were found")
    }

    @Test("every capture of both servers, whatever it holds: the same results or the same error", .needsCorpus)
    func wholeCorpus() async throws {
        let (different, files) = try await OwnThread.run { () throws -> ([String], Int) in
            var different: [String] = [], files = 0
            for folder in [FixtureCorpus.legacy, FixtureCorpus.modern] {
                for suffix in [".json", ".js", ".xml", ".csv", ".empty"] {
                    for name in FixtureCorpus.files(folder, suffix: suffix) {
                        let data = try FixtureCorpus.data(folder, name)
                        if Self.streaming(data) != Self.reference(data) { different.append("\(folder)/\(name)") }
                        files += 1
                    }
                }
            }
            return (different, files)
        }
        #expect(different.isEmpty, "the streaming decoder and the reference disagree on \(different)")
        #expect(files >= 150)
    }

    /// Replies written for this test in the server's shapes, each with a quirk.
    static let quirky: [(String, String)] = [
        ("numbers instead of strings", #"[{"id_bigint":12,"service_body_bigint":3.0,"weekday_tinyint":2,"venue_type":1,"latitude":40.5,"longitude":-73.25,"published":1,"duration_time":null}]"#),
        ("empty strings and nulls", #"[{"id_bigint":"1","service_body_bigint":"","weekday_tinyint":"","start_time":"","meeting_name":null,"published":"","formats":"","format_shared_id_list":""}]"#),
        ("spaces, signs and odd digits", #"[{"id_bigint":" 7 ","service_body_bigint":"+3","weekday_tinyint":"-1","venue_type":"02","shared_group_id_bigint":"0012","start_time":" 19:30:00","duration_time":"1:30:00"}]"#),
        ("times at and past the limits", #"[{"id_bigint":"1","start_time":"24:00:00","duration_time":"25:00:00"},{"id_bigint":"2","start_time":"24:00:01","duration_time":"00:60:00"},{"id_bigint":"3","start_time":"20","duration_time":"1:5"},{"id_bigint":"4","start_time":"12:34","duration_time":"99:59:59"}]"#),
        ("escapes in keys and values", #"[{"id\u005fbigint":"5","meeting_name":"Caf\u00e9 \"Hope\" \\ \/ \n\ud83d\ude00","location_text":"Z\u00fcrich","extra\u0020key":"x"}]"#),
        ("non-ASCII text", "[{\"id_bigint\":\"6\",\"meeting_name\":\"Grupo Esperanza — Ñandú 日本語\",\"location_municipality\":\"São Paulo\"}]"),
        ("duplicate keys: the last wins", #"[{"id_bigint":"1","id_bigint":"2","custom":"a","custom":"","published":"1","published":"","meeting_name":"A","meeting_name":"B"}]"#),
        ("unknown keys kept as text", #"[{"id_bigint":"9","custom_text":"hello","custom_number":42,"custom_bool":true,"custom_null":null,"custom_list":[1,2],"custom_object":{"a":1}}]"#),
        ("formats as CSV, ids, arrays and unknown keys", #"[{"id_bigint":"1","formats":" O , C ,,ZZ","format_shared_id_list":"17, 4,x,,99","lang_enum":"es"},{"id_bigint":"2","formats":["O","C",3]},{"id_bigint":"3","formats":"O,C"}]"#),
        ("meetings then formats, formats win over the server's", #"{"meetings":[{"id_bigint":"1","formats":"O","format_shared_id_list":"17"}],"formats":[{"id":"17","key_string":"O","name_string":"Own","lang":"en"}]}"#),
        ("formats then meetings", #"{"formats":[{"id":"4","key_string":"C","name_string":"Closed here","lang":"en"}],"meetings":[{"id_bigint":"1","format_shared_id_list":"4"}]}"#),
        ("formats only", #"{"formats":[{"id":"4","key_string":"C","name_string":"Closed","lang":"en"}]}"#),
        ("meetings {} inside the object", #"{"meetings":{},"formats":[]}"#),
        ("other members beside meetings", #"{"meetings":[{"id_bigint":"1"}],"note":"x","count":1,"nested":{"a":[true,false,null]}}"#),
        ("duplicate meetings member", #"{"meetings":[{"id_bigint":"1"}],"meetings":[{"id_bigint":"2"}]}"#),
        ("escaped member name", #"{"meeting\u0073":[{"id_bigint":"1"}]}"#),
        ("time zones", #"[{"id_bigint":"1","time_zone":"America/New_York"},{"id_bigint":"2","time_zone":"Nowhere/Else"},{"id_bigint":"3","time_zone":""}]"#),
        ("coordinates out of range", #"[{"id_bigint":"1","latitude":"91","longitude":"10"},{"id_bigint":"2","latitude":"1e2","longitude":"nan"},{"id_bigint":"3","latitude":"-33.9","longitude":"151.2"}]"#),
        ("a byte order mark and white space", "\u{FEFF} \n\t[ {\"id_bigint\" : \"1\" } , { } ]\r\n"),
        ("empty list", "[]"),
        ("empty object", "{}"),
        ("empty meeting", "[{}]"),
        ("a list with a number", #"[{"id_bigint":"1"},2]"#),
        ("a list of strings", #"["a","b"]"#),
        ("an object without meetings", #"{"id_bigint":"1"}"#),
        ("an error object", #"{"message":"Server Error"}"#),
        ("a string", #""meetings""#),
        ("HTML", "<html><title>502 Bad Gateway</title></html>"),
        ("empty body", ""),
        ("truncated", #"[{"id_bigint":"1","meeting_name":"Unfin"#),
        ("trailing garbage", #"[{"id_bigint":"1"}] x"#),
        ("a trailing comma", #"[{"id_bigint":"1"},]"#),
        ("a control character in a string", "[{\"meeting_name\":\"a\u{01}b\"}]"),
        ("a bad escape", #"[{"meeting_name":"a\qb"}]"#),
        ("an unpaired surrogate", #"[{"meeting_name":"\ud83d"}]"#),
        ("nested too deeply", "[{\"x\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]"),
        ("a huge number", #"[{"id_bigint":1e999}]"#),
        ("digits beyond Int", #"[{"id_bigint":"99999999999999999999","service_body_bigint":"123456789012345678"}]"#),
    ] + RealShapeReplies.searches

    @Test("our own quirky replies: the same results or the same error", arguments: quirky.indices)
    func quirkyReplies(_ index: Int) {
        let (title, text) = Self.quirky[index]
        let data = Data(text.utf8)
        #expect(Self.streaming(data) == Self.reference(data), "\(title)")
        // Every reply the reference accepts is answered by the single pass itself, but for the two shapes left
        // to the reference on purpose.
        if case .success = Self.reference(data), !["empty object", "escaped member name"].contains(title) {
            #expect(Self.fastPathAnswers(data), "\(title): the single pass did not answer")
        }
    }

    @Test("invalid UTF-8 in a value, a key and a skipped member is refused by both")
    func invalidUTF8() {
        let cases: [[UInt8]] = [
            Array(#"[{"meeting_name":""#.utf8) + [0xC3, 0x28] + Array(#""}]"#.utf8),
            Array(#"[{""#.utf8) + [0xFF] + Array(#"":"x"}]"#.utf8),
            Array(#"{"other":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"","meetings":[]}"#.utf8),
            Array(#"[{"id_bigint":""#.utf8) + [0xE2, 0x82] + Array(#""}]"#.utf8),
            // Found by the differential fuzzer: an unknown member name of the outer object, never read.
            Array(#"{"m"#.utf8) + [0xDF, 0x65] + Array(#"etings":[],"meetings":[{"id_bigint":"1"}]}"#.utf8),
        ]
        for bytes in cases {
            let data = Data(bytes)
            let outcome = Self.streaming(data)
            #expect(outcome == Self.reference(data))
            guard case .failure(.malformedResponse) = outcome else {
                Issue.record("invalid UTF-8 was accepted: \(outcome)")
                continue
            }
        }
    }

    @Test("5,000 damaged copies of a real reply (bytes changed, cut, doubled): never a crash, always the same outcome")
    func damagedReplies() async throws {
        var base = Data(Self.quirky.prefix(12).map(\.1).joined(separator: "\n").utf8)
        if FixtureCorpus.isAvailable {
            base = try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetSearchResults_meeting_ids.json")
        }
        let failures = try await OwnThread.run { [base] () -> [String] in
            var generator = SplitMix(seed: 0xB417)
            let alphabet = Array(#"{}[]",:\ 0123456789-.eE+tfnul"#.utf8) + [0x80, 0xC3, 0xFF, 0x00]
            var failures: [String] = []
            for round in 0..<5_000 {
                let data = Data(generator.damaged([UInt8](base), round: round, alphabet: alphabet))
                if Self.streaming(data) != Self.reference(data) {
                    failures.append("round \(round): the two decoders disagree on \(String(decoding: data.prefix(300), as: UTF8.self))")
                }
            }
            return failures
        }
        for failure in failures.prefix(3) { Issue.record(Comment(rawValue: failure)) }
        let count = failures.count   // not the list itself: #expect would print every one
        #expect(count == 0, "of 5,000 damaged replies decoded differently")
    }

    @Test("a search through the connection gives the reference's meetings, and the reference's error")
    @MainActor
    func searchUsesIt() async throws {
        let good = Self.quirky[8].1, bad = #"[{"id_bigint":"1"},2]"#
        let stub = StubServer { _ in .json(good) }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let meetings = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let expected = try WireSearchStream.reference(Data(good.utf8), serverFormats: [])
        #expect(meetings == expected.meetings && meetings.count == 3)
        stub.answer { _ in .json(bad) }
        var thrown: BMLTError?
        do { _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly) } catch { thrown = error as? BMLTError }
        guard case .failure(let reference) = Result(catching: { () throws(BMLTError) in
            try WireSearchStream.reference(Data(bad.utf8), serverFormats: [])
        }) else { Issue.record("the reference accepted a list holding a number"); return }
        #expect(thrown == reference)
        #expect(connection.search.meetings == expected.meetings, "the last good meetings are kept")
    }
}

extension SplitMix {
    /// A damaged copy of `base`, by `round`: one byte changed, cut short, a run of 40 bytes doubled, or three bytes
    /// changed (to bytes of `alphabet`).
    mutating func damaged(_ base: [UInt8], round: Int, alphabet: [UInt8]) -> [UInt8] {
        var bytes = base
        switch round % 4 {
        case 0: bytes[Int(next() % UInt64(bytes.count))] = alphabet[Int(next() % UInt64(alphabet.count))]
        case 1: bytes.removeSubrange(Int(next() % UInt64(bytes.count))...)
        case 2:
            let at = Int(next() % UInt64(bytes.count))
            bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
        default:
            for _ in 0..<3 { bytes[Int(next() % UInt64(bytes.count))] = alphabet[Int(next() % UInt64(alphabet.count))] }
        }
        return bytes
    }
}

/// A small seeded generator, so a failure is repeatable.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
