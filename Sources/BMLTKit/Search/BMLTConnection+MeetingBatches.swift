import Foundation

extension BMLTConnection {
    /// Searches for meetings and delivers them in batches while the reply is still arriving: the first meetings can be
    /// on screen after one round trip and the first few kilobytes, long before the last byte of a large reply.
    ///
    /// - The batches come in the server's order, each as soon as its meetings are decoded; together they are exactly
    ///   the meetings `meetings(matching:)` returns for the same criteria (the same request is sent: the meetings and
    ///   the formats they use), and the stream throws what `meetings(matching:)` throws, after the batches that were
    ///   whole (no meeting is ever half decoded). It ends after the last batch.
    /// - Sizing: the first batch as soon as one meeting is decoded; then whatever was decoded since, at most every
    ///   75 ms while the body arrives; the rest once the reply is whole. A reply answered whole (from the cache, or by
    ///   an app's own `BMLTHTTPTransport`) is one batch.
    /// - A slow consumer makes bigger batches, never a queue: the download goes on at the network's pace and what the
    ///   consumer has not taken yet is merged into its next batch.
    /// - Cancelling the consuming task (or dropping the stream) cancels the request: no more batches, the loop ends
    ///   (as every `AsyncThrowingStream`'s does when its task is cancelled), and the connection posts its one
    ///   `.bmltRequestCancelled`. A search cancelled otherwise (`request.cancel()`, `cancelAllRequests()`) ends the
    ///   stream with `BMLTError.cancelled`.
    /// - It is a search like the others: the aggregator filter rule is checked before anything is sent, progress,
    ///   the search store (`meetingsSoFar`, `isComplete`, then `meetings`) and the one final
    ///   `.bmltMeetingSearchResults` are as for `meetings(matching:)`.
    /// - A cut reply that is retried does not repeat batches: the retry's first meetings are checked against those
    ///   already delivered and skipped (should the server's list have changed in between, the stream throws instead).
    /// - The meetings' formats are resolved against the server's formats (`server.formats`, loaded by `connect()`),
    ///   because a reply carries its own format list after its meetings; on every server version captured the two lists
    ///   agree. A format added or renamed on the server after `connect()` is missing or carries its old name in the
    ///   batches that came before the reply's own list, while the results (and the last batch) use the reply's: call
    ///   `connect()` again after the server's formats change. On a connection not validated yet there is nothing to
    ///   resolve against: the meetings then come as one batch at the end, so that the batches never differ from the
    ///   results.
    /// - `.nearest(n)` keeps the n nearest of the server's answer, which need not be the first n it sent: such a search
    ///   streams nothing while it arrives and gives its n meetings as one batch at the end. So does a search whose
    ///   criteria carry a time `window` (`fromNow(days:_:in:)`): the window's meetings (with `.nearest(n)`, the n nearest
    ///   of the window, asked again wider when needed) are known only once the last request is answered.
    /// - Under `.cacheThenNetwork` the cached list reaches the store and observers first; the stream yields only the
    ///   network's meetings (a stream cannot take a cached list back).
    /// - Sorted and distance searches arrive in the order the server sorted them. A host that sorts locally should
    ///   insert each batch into its sorted list (or re-sort the whole list per batch), not append it.
    ///
    /// ```swift
    /// var shown: [BMLTMeeting] = []
    /// for try await batch in connection.meetingBatches(matching: criteria) {
    ///     shown += batch
    ///     tableView.reloadData()
    /// }
    /// ```
    public func meetingBatches(matching criteria: BMLTSearchCriteria) -> AsyncThrowingStream<[BMLTMeeting], any Error> {
        let search = batchedSearch(criteria, feedsStore: true)
        let lifetime = StreamLifetime(search.request)
        return AsyncThrowingStream<[BMLTMeeting], any Error> {
            try await search.channel.next(onCancel: { lifetime.request.cancel() })
        }
    }

    /// A meeting search (meetings and formats) whose batches go to a channel, which ends once the search's outcome
    /// has been delivered (stores, notifications), as `meetings(matching:)` returns. `feedsStore: false` is a
    /// `BMLTMeetingQuery`'s: the same request and events, no store touched. `delivered` gets every success's meetings
    /// with its request as it is applied (a query takes `.cacheThenNetwork`'s cached list from it).
    func batchedSearch(_ criteria: BMLTSearchCriteria, feedsStore: Bool, delivered: SearchDelivered? = nil)
        -> (request: BMLTRequest, channel: MeetingBatchChannel, outcome: Task<Result<BMLTSearchResults, BMLTError>, Never>) {
        let channel = MeetingBatchChannel()
        let (request, task) = launch(Self.meetingSearch(criteria, extent: .meetingsAndFormats, batches: channel,
                                                        feedsStore: feedsStore, delivered: delivered))
        let outcome = Task {
            let outcome = await task.value
            if case .failure(let error) = outcome { channel.finish(error) } else { channel.finish(nil) }
            return outcome
        }
        return (request, channel, outcome)
    }
}

/// Held by a batch stream only: when the stream is dropped before its end (the consumer stopped reading), its search
/// is cancelled. Harmless after the search has finished.
private final class StreamLifetime: Sendable {
    let request: BMLTRequest

    init(_ request: BMLTRequest) { self.request = request }

    deinit { request.cancel() }
}
