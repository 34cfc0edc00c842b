import Foundation

/// The chunked search decoder as the transport's `BodyConsumer`: the transport's delivery queue feeds it each piece
/// of a search reply as it arrives, and the search takes the results from it once the transfer has ended. With a
/// `batcher`, the meetings decoded so far are handed to it whenever a batch is due (see `SearchBatcher`).
final class SearchBodySink: BodyConsumer, Sendable {
    private let decoder: Locked<WireSearchChunks>
    private let batcher: SearchBatcher?
    /// This attempt's number with the batcher (see `SearchBatcher.beginAttempt`).
    private let attempt: Int

    init(query: [URLQueryItem], serverFormats: [BMLTFormat], expectedLength: Int?, batcher: SearchBatcher? = nil) {
        decoder = Locked(WireSearchChunks(query: query, serverFormats: serverFormats, expectedLength: expectedLength))
        self.batcher = batcher
        attempt = batcher?.beginAttempt() ?? 0
    }

    func consume(_ piece: Data) {
        decoder.withLock { $0.consume(piece) }
        guard let batcher, batcher.isDue() else { return }
        let batch = decoder.withLock { $0.takeDecoded(resolvingAgainst: batcher.table) }
        if !batch.isEmpty { batcher.offer(batch, attempt: attempt) }
    }

    /// The results (after the last piece).
    func finish() throws(BMLTError) -> WireSearchChunks.Outcome {
        try decoder.withLock { decoder in Result { () throws(BMLTError) in try decoder.finish() } }.get()
    }
}
