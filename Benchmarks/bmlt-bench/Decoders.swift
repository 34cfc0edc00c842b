import Foundation

/// The decoders compared, by letter as in the issue: (a) JSONSerialization only, (b) the old library's way,
/// (c) JSONDecoder into a plain all-String struct, (d) BMLTKit's full typed decode.
struct Decoder: Sendable {
    let name: String
    let title: String
    let run: @Sendable (Data) -> Int
}

enum Decoders {
    static let all: [Decoder] = [
        Decoder(name: "a", title: "JSONSerialization parse only", run: Baselines.serializationOnly),
        Decoder(name: "b", title: "old library (JSONSerialization + dict nodes)", run: Baselines.oldLibraryWay),
        Decoder(name: "c", title: "JSONDecoder, plain 13-field String struct", run: Baselines.plainDecodable),
    ] + BMLTKitDecoders.all

    /// Runs this executable again in child mode to measure one decoder's peak memory on one payload alone.
    static func peakMemory(decoder: String, payload: URL) -> Int {
        Measure.child(["--child-memory", decoder, "--payload", payload.path])?.last ?? 0
    }
}
