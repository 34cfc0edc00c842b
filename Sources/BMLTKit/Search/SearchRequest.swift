import Foundation

/// One `GetSearchResults` request and its decoding: the meetings decoded while the body arrives (or whole, from the
/// response cache or past it), PHP's notices logged, meetings without a usable id left out, `.nearest(n)` trimmed, and
/// the server's time of the answer kept (`serverDate`).
enum SearchRequest {
    /// `query` asked once. `fresh`: past the response cache and every cache between (`Cache-Control: no-cache`), the
    /// body decoded whole (a refresh's reads); otherwise through the response cache, streamed into `batcher`.
    static func send(_ query: [URLQueryItem], criteria: BMLTSearchCriteria, fresh: Bool, _ context: OperationContext,
                     batcher: SearchBatcher? = nil) async throws(BMLTError) -> BMLTSearchResults {
        let serverFormats = context.serverFormats
        let reply: HTTPReply
        if fresh {
            reply = try await context.freshSemanticReply("GetSearchResults", query, unique: false)
        } else {
            // The meetings are decoded while the body arrives (an answer from the cache is decoded whole).
            reply = try await context.semanticReply("GetSearchResults", query, consumer: { length in
                SearchBodySink(query: query, serverFormats: serverFormats, expectedLength: length,
                               batcher: NearestTrim.mayDrop(criteria) ? nil : batcher)
            })
        }
        let outcome: WireSearchChunks.Outcome
        if reply.isCachedSearchResults {
            // A list the cache keeps as brought up to date from the change log (`storeSearchResults`), not a reply.
            guard var kept = try? JSONDecoder().decode(BMLTSearchResults.self, from: reply.data) else {
                throw BMLTError.notFound(message: "not in the response cache")
            }
            kept.delta = nil
            batcher?.finish(kept.meetings)
            return kept
        } else if let sink = reply.consumer as? SearchBodySink {
            outcome = try sink.finish()
            if let message = outcome.phpMessage { context.transport.log.phpMessages(at: reply.url, message) }
        } else {
            outcome = try WireSearchChunks.wholeBody(reply.data, query: query, serverFormats: serverFormats)
            if fresh, let message = outcome.phpMessage { context.transport.log.phpMessages(at: reply.url, message) }
        }
        let (results, dropped) = (outcome.results, outcome.dropped)
        if dropped > 0 {
            context.transport.log.warning("the search results held \(dropped) meeting\(dropped == 1 ? "" : "s") without a usable id; "
                                          + "left out (\(results.meetings.count) kept)")
        }
        // `.nearest(n)` keeps the n nearest of the server's answer (see `NearestTrim`), which need not be its first n:
        // such a search streams nothing while it arrives and hands its trimmed list over whole, here. Otherwise what
        // was not handed over while the body arrived goes now: the batches together are exactly these meetings.
        var trimmed = NearestTrim.apply(results, criteria)
        trimmed.serverDate = RefreshOrigin.serverDate(reply)
        trimmed.bodyBytes = reply.bodyLength
        batcher?.finish(trimmed.meetings)
        return trimmed
    }
}
