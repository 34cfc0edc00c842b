@_spi(Benchmarks) import BMLTKit
import Foundation

/// BMLTKit's own decoders, measured beside the baselines.
enum BMLTKitDecoders {
    static let all: [Decoder] = [
        Decoder(name: "d", title: "BMLTKit full typed decode (streaming)", run: { data in
            (try? BMLTSearchResults(jsonData: data))?.meetings.count ?? 0
        }),
        Decoder(name: "r", title: "BMLTKit reference decode (JSON tree)", run: { data in
            (try? BMLTSearchResults(referenceDecoding: data))?.meetings.count ?? 0
        }),
    ]
}
