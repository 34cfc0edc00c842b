import Foundation

/// The chunked search decoder as the transport's `BodyConsumer`: the transport's delivery queue feeds it each piece
/// of a search reply as it arrives, and the search takes the results from it once the transfer has ended.
final class SearchBodySink: BodyConsumer, @unchecked Sendable {
    private let decoder: Locked<WireSearchChunks>

    init(query: [URLQueryItem], serverFormats: [BMLTFormat], expectedLength: Int?) {
        decoder = Locked(WireSearchChunks(query: query, serverFormats: serverFormats, expectedLength: expectedLength))
    }

    func consume(_ piece: Data) {
        decoder.withLock { $0.consume(piece) }
    }

    /// The results (after the last piece).
    func finish() throws(BMLTError) -> WireSearchChunks.Outcome {
        try decoder.withLock { decoder in Result { () throws(BMLTError) in try decoder.finish() } }.get()
    }
}
