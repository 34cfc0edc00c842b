import Foundation
import Testing
@testable import BMLTKit

/// The chunked search decoder (what a search over the network uses: meetings decoded while the body arrives) against
/// the whole-body path (PHP notices salvaged, then `WireSearchStream.decodeUsable`): for every capture of every server
/// generation, our own quirky and broken replies and thousands of damaged ones, cut into pieces at every byte or in
/// sizes from 1 byte up, the same meetings, formats, dropped count and PHP message, or the same error.
@Suite("Chunked search decoder ≡ whole-body decoder", .serialized)
struct SearchChunkEquivalenceTests {
    typealias Outcome = Result<WireSearchChunks.Outcome, BMLTError>

    static let serverFormats = SearchStreamEquivalenceTests.serverFormats

    /// The whole-body path, as a search took it before the chunked decoder.
    static func whole(_ data: Data, query: [URLQueryItem] = []) -> Outcome {
        Result { () throws(BMLTError) in try WireSearchChunks.wholeBody(data, query: query, serverFormats: serverFormats) }
    }

    /// The chunked decoder fed `data` cut at `cuts` (sorted offsets).
    static func chunked(_ data: Data, cuts: [Int], query: [URLQueryItem] = []) -> Outcome {
        var decoder = WireSearchChunks(query: query, serverFormats: serverFormats, expectedLength: data.count)
        var start = 0
        for cut in cuts + [data.count] where cut >= start {
            decoder.consume(data.subdata(in: start..<cut))
            start = cut
        }
        return Result { () throws(BMLTError) in try decoder.finish() }
    }

    /// Pieces of `size` bytes.
    static func chunked(_ data: Data, size: Int, query: [URLQueryItem] = []) -> Outcome {
        chunked(data, cuts: Array(stride(from: size, to: data.count, by: size)), query: query)
    }

    /// Checks one reply: cut once at every byte (and in pieces of 1, 2, 3 and 7 bytes) when it is small, in pieces of
    /// 1 KB, 16 KB and at random cuts when it is large. Returns the disagreements found, each described (none when every
    /// way of cutting it gives the whole-body outcome). Records nothing itself: it also runs on a thread of its own
    /// (`OwnThread`), where no test is current.
    static func disagreements(_ data: Data, _ title: String, query: [URLQueryItem] = []) -> [String] {
        let expected = whole(data, query: query)
        var variants: [(String, Outcome)] = []
        if data.count <= 4096 {
            for cut in 0...data.count { variants.append(("cut at \(cut)", chunked(data, cuts: [cut], query: query))) }
            for size in [1, 2, 3, 7] { variants.append(("pieces of \(size)", chunked(data, size: size, query: query))) }
        } else {
            for size in [1024, 16_384, 65_536] { variants.append(("pieces of \(size)", chunked(data, size: size, query: query))) }
            var generator = SplitMix(seed: UInt64(data.count))
            var cuts = (0..<40).map { _ in Int(generator.next() % UInt64(data.count)) }
            cuts.sort()
            variants.append(("40 random cuts", chunked(data, cuts: cuts, query: query)))
        }
        variants.append(("one piece", chunked(data, cuts: [], query: query)))
        return variants.filter { $0.1 != expected }.map { "\(title), \($0.0): chunked \(describe($0.1)) ≠ whole \(describe(expected))" }
    }

    /// Records the first two of `disagreements` (each names its reply and its cuts) and how many there were.
    static func record(_ disagreements: [String]) {
        for line in disagreements.prefix(2) { Issue.record(Comment(rawValue: line)) }
        let count = disagreements.count   // not the list itself: #expect would print every one
        #expect(count == 0, "ways of cutting that disagreed with the whole-body path")
    }

    static func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .success(let value): "\(value.results.meetings.count) meetings, \(value.results.formats.count) formats, dropped \(value.dropped), php \(value.phpMessage ?? "-")"
        case .failure(let error): "error \(error)"
        }
    }

    @Test("every search capture of 2.16.6, 3.1.2, 4.1.0 and the 4.1.0 aggregator", .needsCorpus)
    func captures() async throws {
        // Seconds of decoding (half a minute under the thread sanitizer): on a thread of its own, not the test pool's.
        let (found, checked, meetings) = try await OwnThread.run { () throws -> ([String], Int, Int) in
            var found: [String] = [], checked = 0, meetings = 0
            for folder in [FixtureCorpus.legacy, FixtureCorpus.modern, FixtureCorpus.server4x, "aggregator-4x"] {
                for name in FixtureCorpus.files(folder) where name.contains("GetSearchResults") {
                    let data = try FixtureCorpus.data(folder, name)
                    found += Self.disagreements(data, "\(folder)/\(name)")
                    if case .success(let outcome) = Self.whole(data) { meetings += outcome.results.meetings.count }
                    checked += 1
                }
            }
            return (found, checked, meetings)
        }
        Self.record(found)
        #expect(checked >= 60, "only \(checked) search captures were found")
        #expect(meetings > 2_000, "the captures held only \(meetings) meetings")
    }

    /// The decoder fed `data` a byte at a time: the body split at every byte boundary at once.
    static func byteByByte(_ data: Data, query: [URLQueryItem] = []) -> Outcome {
        var decoder = WireSearchChunks(query: query, serverFormats: serverFormats, expectedLength: data.count)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for index in bytes.indices { decoder.consume(UnsafeBufferPointer(rebasing: bytes[index..<index + 1])) }
        }
        return Result { () throws(BMLTError) in try decoder.finish() }
    }

    /// The oracle: PHP's notices removed, then the reference path (the JSON tree), without the id-less meetings.
    static func reference(_ data: Data) -> Result<(BMLTSearchResults, Int), BMLTError> {
        Result { () throws(BMLTError) in
            let body = WirePHPNoise.salvage(data)?.json ?? data
            let usable = try WireSearchStream.usable(try WireSearchStream.reference(body, serverFormats: serverFormats), query: [])
            return (usable.results, usable.dropped)
        }
    }

    @Test("every search capture split at every byte boundary decodes as the body held whole, which decodes as the reference path", .needsCorpus)
    func everyByteBoundary() async throws {
        let (found, checked) = try await OwnThread.run { () throws -> ([String], Int) in
            var found: [String] = [], checked = 0
            for folder in [FixtureCorpus.legacy, FixtureCorpus.modern, FixtureCorpus.server4x, "aggregator-4x"] {
                for name in FixtureCorpus.files(folder) where name.contains("GetSearchResults") {
                    let data = try FixtureCorpus.data(folder, name)
                    let whole = Self.whole(data)
                    let split = Self.byteByByte(data)
                    if split != whole { found.append("\(folder)/\(name): split \(Self.describe(split)) ≠ whole \(Self.describe(whole))") }
                    switch (whole, Self.reference(data)) {
                    case (.success(let outcome), .success(let (results, dropped))):
                        if outcome.results != results || outcome.dropped != dropped { found.append("\(folder)/\(name): whole ≠ reference") }
                    case (.failure(let error), .failure(let expected)):
                        if error != expected { found.append("\(folder)/\(name): whole \(error) ≠ reference \(expected)") }
                    default:
                        found.append("\(folder)/\(name): whole \(Self.describe(whole)), the reference path disagrees")
                    }
                    checked += 1
                }
            }
            return (found, checked)
        }
        Self.record(found)
        #expect(checked >= 60, "only \(checked) search captures were found")
    }

    @Test("every other capture too, whatever it holds (formats, server info, HTML, CSV): the same outcome", .needsCorpus)
    func otherCaptures() async throws {
        let (found, files) = try await OwnThread.run { () throws -> ([String], Int) in
            var found: [String] = [], files = 0
            for folder in [FixtureCorpus.legacy, FixtureCorpus.modern, FixtureCorpus.server4x, "aggregator-4x"] {
                for suffix in [".json", ".js", ".xml", ".csv", ".empty", ".html", ".txt"] {
                    for name in FixtureCorpus.files(folder, suffix: suffix) where !name.contains("GetSearchResults") {
                        let data = try FixtureCorpus.data(folder, name)
                        let expected = Self.whole(data)
                        for size in [1, 5, 4096] {
                            let outcome = Self.chunked(data, size: size)
                            if outcome != expected {
                                found.append("\(folder)/\(name) in pieces of \(size): chunked \(Self.describe(outcome)) ≠ whole \(Self.describe(expected))")
                            }
                        }
                        files += 1
                    }
                }
            }
            return (found, files)
        }
        Self.record(found)
        #expect(files >= 150)
    }

    @Test("our own quirky and broken replies, cut at every byte", arguments: SearchStreamEquivalenceTests.quirky.indices)
    func quirky(_ index: Int) {
        let (title, text) = SearchStreamEquivalenceTests.quirky[index]
        Self.record(Self.disagreements(Data(text.utf8), title))
    }

    /// Replies for the chunked decoder's own decisions: PHP notices after the JSON, a byte order mark cut short,
    /// shapes decided at the end, errors in the structure around the meetings.
    static let edges: [(String, [UInt8])] = [
        ("a PHP warning after the JSON", Array("[{\"id_bigint\":\"1\"}]\n<br />\n<b>Warning</b>:  Undefined variable $x in /var/www/a.php on line 3<br />\n".utf8)),
        ("a plain PHP notice after the object", Array("{\"meetings\":[{\"id_bigint\":\"1\"}],\"formats\":[]}\nPHP Notice:  Undefined index: x in /a.php on line 9\n".utf8)),
        ("PHP notices before the JSON", Array("<br />\n<b>Deprecated</b>:  Creation of dynamic property in /a.php on line 2<br />\n[{\"id_bigint\":\"3\"}]".utf8)),
        ("text after the JSON that is not PHP's", Array("[{\"id_bigint\":\"1\"}]\nhello".utf8)),
        ("a bracket after the JSON", Array("[{\"id_bigint\":\"1\"}] ]".utf8)),
        ("a byte order mark", [0xEF, 0xBB, 0xBF] + Array("[{\"id_bigint\":\"1\"}]".utf8)),
        ("a byte order mark cut short", [0xEF, 0xBB] + Array("[{\"id_bigint\":\"1\"}]".utf8)),
        ("white space, then a byte order mark", [0x20, 0xEF, 0xBB, 0xBF] + Array("[]".utf8)),
        ("only white space", Array(" \n\t ".utf8)),
        ("only a byte order mark", [0xEF, 0xBB, 0xBF]),
        ("an error object with errors", Array(#"{"message":"Unauthenticated.","errors":{}}"#.utf8)),
        ("an error object beside meetings", Array(#"{"message":"x","meetings":[{"id_bigint":"1"}]}"#.utf8)),
        ("a bare value in the list", Array(#"[{"id_bigint":"1"},12x]"#.utf8)),
        ("a minus alone", Array(#"[-]"#.utf8)),
        ("true followed by text", Array(#"[{"id_bigint":"1"},truex]"#.utf8)),
        ("a list closed by a brace", Array(#"[{"id_bigint":"1"}}"#.utf8)),
        ("a meeting closed by a bracket", Array(#"[{"id_bigint":"1"]]"#.utf8)),
        ("a missing colon", Array(#"{"meetings" [{"id_bigint":"1"}]}"#.utf8)),
        ("a member name that is not a string", Array(#"{meetings:[]}"#.utf8)),
        ("invalid UTF-8 in a member name before a missing colon", Array(#"{""#.utf8) + [0xFF] + Array(#"" 1}"#.utf8)),
        ("a key cut by the end", Array(#"{"meet"#.utf8)),
        ("a list cut after a comma", Array(#"[{"id_bigint":"1"},"#.utf8)),
        ("a number cut by the end", Array(#"[{"id_bigint":"1"},12"#.utf8)),
        ("meetings twice, the last a number", Array(#"{"meetings":[{"id_bigint":"1"}],"meetings":5}"#.utf8)),
        ("meetings then non-objects", Array(#"{"meetings":[{"id_bigint":"1"},[1]],"formats":[]}"#.utf8)),
        ("formats broken, meetings fine", Array(#"{"meetings":[{"id_bigint":"1"}],"formats":[1,2]}"#.utf8)),
        ("nested too deeply in a member", Array(("{\"x\":" + String(repeating: "[", count: 520) + String(repeating: "]", count: 520) + "}").utf8)),
        ("meetings nested too deeply", Array(("{\"meetings\":[{\"x\":" + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}]}").utf8)),
        ("meetings without ids", Array(#"[{"id_bigint":"0"},{"id_bigint":""},{"id_bigint":"4"}]"#.utf8)),
        ("no meeting with an id", Array(#"[{"id_bigint":"0"},{"meeting_name":"x"}]"#.utf8)),
        // Found in review: white space before broken JSON that PHP notices follow (the whole-body path decoded only the
        // salvaged value and counted offsets from its first byte).
        ("white space, broken JSON, then a PHP warning", Array(" [1,]\nWarning: x in /a.php on line 2\n".utf8)),
        ("a blank line, a missing comma, then a PHP warning",
         Array("\r\n{\"meetings\":[{\"id_bigint\":\"1\"}] \"formats\":[]}\n<br />\n<b>Warning</b>:  Undefined index in /a.php on line 4<br />\n".utf8)),
        ("white space, nesting too deep, then a PHP notice",
         Array((" {\"x\":" + String(repeating: "[", count: 520) + String(repeating: "]", count: 520) + "}\nPHP Notice:  x in /a.php on line 1\n").utf8)),
        ("PHP notices before and after broken JSON",
         Array("<br />\n<b>Deprecated</b>:  x in /a.php on line 2<br />\n[{\"id_bigint\":\"1\"},]\nWarning: y in /b.php on line 3\n".utf8)),
    ]

    @Test("the chunked decoder's own decisions (PHP notices, byte order marks, shapes, structure errors)", arguments: edges.indices)
    func edge(_ index: Int) {
        let (title, bytes) = Self.edges[index]
        Self.record(Self.disagreements(Data(bytes), title))
    }

    @Test("id-less meetings kept when data_field_key leaves id_bigint out, as the whole-body path keeps them")
    func dataFieldKey() {
        let query = [URLQueryItem(name: "data_field_key", value: "meeting_name,weekday_tinyint")]
        let data = Data(#"[{"meeting_name":"A","weekday_tinyint":"2"},{"meeting_name":"B","weekday_tinyint":"3"}]"#.utf8)
        Self.record(Self.disagreements(data, "data_field_key", query: query))
        guard case .success(let outcome) = Self.chunked(data, size: 5, query: query) else {
            Issue.record("the id-less meetings of a data_field_key search were refused")
            return
        }
        #expect(outcome.results.meetings.map(\.name) == ["A", "B"])
    }

    @Test("3,000 damaged copies of a real reply, each cut at random: always the whole-body path's outcome")
    func damaged() async throws {
        var base = Data(SearchStreamEquivalenceTests.quirky.prefix(12).map(\.1).joined(separator: "\n").utf8)
        if FixtureCorpus.isAvailable {
            base = try FixtureCorpus.data(FixtureCorpus.server4x, "006-GetSearchResults-get_used_formats.json").prefix(6000)
        }
        let found = try await OwnThread.run { [base] () -> [String] in
            var generator = SplitMix(seed: 0xC4A7)
            let alphabet = Array(#"{}[]",:\ 0123456789-.eE+tfnul"#.utf8) + [0x80, 0xC3, 0xFF, 0x00, 0xEF, 0xBB, 0xBF]
            var found: [String] = []
            for round in 0..<3_000 {
                let bytes = generator.damaged([UInt8](base), round: round, alphabet: alphabet)
                let data = Data(bytes)
                let expected = Self.whole(data)
                var cuts = (0..<6).map { _ in bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count + 1)) }
                cuts.sort()
                let outcome = Self.chunked(data, cuts: cuts)
                if outcome != expected {
                    found.append("round \(round), cuts \(cuts): chunked \(Self.describe(outcome)) ≠ whole \(Self.describe(expected)) for \(String(decoding: data.prefix(400), as: UTF8.self))")
                }
            }
            return found
        }
        Self.record(found)
    }

    @Test("meetings are decoded while the body arrives, and the body is not kept", .needsCorpus)
    func decodesAsItArrives() throws {
        let list = try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetSearchResults_all.json")
        // The same meetings in the shape of a get_used_formats reply (4.1.0 sends that shape; its captures are small).
        let object = Data(#"{"meetings":"#.utf8) + list + Data(#","formats":[]}"#.utf8)
        for (name, data) in [("a list (2.16.6 capture)", list), ("an object holding it", object)] {
            var decoder = WireSearchChunks(query: [], serverFormats: [], expectedLength: data.count)
            decoder.consume(data.prefix(data.count / 2))
            let halfway = decoder.meetingsDecoded
            #expect(decoder.bytesHeld < 16_384, "\(name): \(decoder.bytesHeld) bytes held halfway")
            decoder.consume(data.suffix(from: data.count / 2))
            let outcome = try decoder.finish()
            let all = outcome.results.meetings.count
            #expect(all > 40 && halfway >= all / 2 - 2 && halfway < all, "\(name): \(halfway) of \(all) decoded halfway")
        }
    }

    @Test("an empty piece, with or without memory behind it, changes nothing")
    func emptyPieces() throws {
        for text in ["<html>", "[{\"id_bigint\":\"1\"}]"] {
            var decoder = WireSearchChunks(query: [], serverFormats: [])
            decoder.consume(Data(text.prefix(3).utf8))
            decoder.consume(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
            decoder.consume(Data())
            decoder.consume(Data(text.dropFirst(3).utf8))
            let outcome = Result { () throws(BMLTError) in try decoder.finish() }
            #expect(outcome == Self.whole(Data(text.utf8)), "\(text)")
        }
    }
}
