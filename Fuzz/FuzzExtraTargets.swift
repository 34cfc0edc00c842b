import Foundation

/// Differential targets: the single-pass search decoder against the reference path, and the chunked decoder against
/// the whole-body path, on the same bytes. Any difference in results or errors stops the fuzzer (as a crash would).
enum FuzzExtraTargets {
    static func run(_ data: Data) {
        let streaming = Result(catching: { () throws(BMLTError) in try WireSearchStream.decode(data, serverFormats: formats) })
        let reference = Result(catching: { () throws(BMLTError) in try WireSearchStream.reference(data, serverFormats: formats) })
        if streaming != reference {
            fatalError("the streaming and reference search decoders disagree")
        }
        if case .success(let expected) = reference, let fast = try? WireSearchStream.fast(data, serverFormats: formats),
           fast != expected {
            fatalError("the single pass answered differently from the reference")
        }
        chunked(data)
    }

    /// The chunked decoder (what a search over the network uses) against the whole-body path: the input cut at
    /// every byte when it is small, else in pieces of 1, 3 and 61 bytes and at cuts taken from its own bytes.
    static func chunked(_ data: Data) {
        let whole = Result(catching: { () throws(BMLTError) in try WireSearchChunks.wholeBody(data, query: [], serverFormats: formats) })
        var cutSets: [[Int]] = []
        if data.count <= 64 {
            cutSets = (0...data.count).map { [$0] }
        } else {
            for size in [1, 3, 61] { cutSets.append(Array(stride(from: size, to: data.count, by: size))) }
            cutSets.append(Set(data.prefix(16).map { Int($0) * data.count / 256 }).sorted())
        }
        for cuts in cutSets {
            var decoder = WireSearchChunks(query: [], serverFormats: formats, expectedLength: data.count)
            var start = 0
            for cut in cuts + [data.count] where cut >= start {
                decoder.consume(data.subdata(in: start..<cut))
                start = cut
            }
            if Result(catching: { () throws(BMLTError) in try decoder.finish() }) != whole {
                fatalError("the chunked search decoder disagrees with the whole-body path (cuts \(cuts.prefix(8)))")
            }
        }
    }

    private static let formats = [BMLTFormat(id: 17, key: "O", name: "Open"), BMLTFormat(id: 4, key: "C", name: "Closed", language: "es")]
}
