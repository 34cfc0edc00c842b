import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OperationContext {
    /// A GET through the cache, as `cacheMode` says: answered from a fresh entry (`.preferFresh`), from any entry
    /// when the server cannot answer (`.fallback`), from the cache alone (`.only`: a miss fails), and stored when
    /// the server answers 2xx. Never with a login: a request that carries credentials, or any request while an
    /// administrator is logged in (the server's answers then depend on who asks), bypasses the cache.
    ///
    /// A body read piece by piece by a `consumer` is also written piece by piece into a cache entry when it is to be
    /// stored (`CacheEntryWriter`); an answer from the cache comes in `data`, for the caller to decode whole.
    func cachedRead(_ request: URLRequest, retryable: Bool, consumer: BodyConsumerFactory? = nil) async throws(BMLTError) -> HTTPReply {
        // Without a cache, or for an operation that does not use it, straight to the server: the cache's work is a
        // function of its own, so that what it needs is not laid out in the task frame of every read in flight.
        if case .off = cacheMode { return try await fromServer(request, retryable: retryable, consumer: consumer) }
        return try await throughCache(request, retryable: retryable, consumer: consumer)
    }

    // Out of line, as `RequestLog`'s writers: the cache's work is not laid out in `send`'s task frame, which every request holds.
    @inline(never)
    private func throughCache(_ request: URLRequest, retryable: Bool, consumer: BodyConsumerFactory?) async throws(BMLTError) -> HTTPReply {
        guard let cache, let url = request.url, isCacheable(request) else {
            // `.only` asks the cache alone: what may not be cached is not asked of the server either.
            if case .only = cacheMode { throw BMLTError.notFound(message: "not in the response cache") }
            return try await fromServer(request, retryable: retryable, consumer: consumer)
        }
        let key = CacheKey(root: root, url: url)
        switch cacheMode {
        case .off:
            // Not reached (`cachedRead` sends these straight to the server); kept so that the switch names every mode.
            return try await fromServer(request, retryable: retryable, consumer: consumer)
        case .only:
            guard let hit = cache.body(for: key) else { throw BMLTError.notFound(message: "not in the response cache") }
            transport.log.note("← cache GET \(RequestLog.redacted(url))")
            return answer(hit, url: url)
        case .preferFresh(let maximumAge):
            if let hit = cache.body(for: key), Date().timeIntervalSince(hit.storedAt) < maximumAge {
                transport.log.note("← cache GET \(RequestLog.redacted(url)) (stored \(Int(Date().timeIntervalSince(hit.storedAt))) s ago)")
                return answer(hit, url: url)
            }
        case .store, .fallback:
            break
        }
        let reply: HTTPReply
        var keeping: BodyConsumerFactory?
        if let consumer { keeping = { length in KeptBody(consumer(length), writer: cache.writer(for: key)) } }
        do {
            reply = try await fromServer(request, retryable: retryable, consumer: keeping)
        } catch {
            if case .fallback = cacheMode, Self.cacheMayStandIn(for: error), let hit = cache.body(for: key) {
                transport.log.note("← cache GET \(RequestLog.redacted(url)): the server failed (\(error.description))")
                return answer(hit, url: url)
            }
            throw error
        }
        if (200..<300).contains(reply.statusCode) {
            if let body = reply.consumer as? KeptBody {
                let serverDate = RefreshOrigin.serverDate(reply)
                if let writer = body.writer { keep { writer.commit(serverDate: serverDate) } }
                var unwrapped = reply
                unwrapped.consumer = body.inner
                return unwrapped
            }
            let (data, serverDate) = (reply.data, RefreshOrigin.serverDate(reply))
            keep { cache.store(data, for: key, serverDate: serverDate) }
        } else if case .fallback = cacheMode, reply.statusCode >= 500, let hit = cache.body(for: key) {
            transport.log.note("← cache GET \(RequestLog.redacted(url)): the server answered HTTP \(reply.statusCode)")
            return answer(hit, url: url)
        }
        return reply
    }

    /// Keeps `results`, a search's list brought up to date from the change log, as the cached answer of the
    /// `switcher` read with `query` (the entry the list came from), with its new server time: the next
    /// `.cacheThenNetwork` delivery (this process's or the next launch's) starts from it. Under the same rules as a
    /// reply's entry: not without a cache or for a cache-only read, not while an administrator is logged in.
    func storeSearchResults(_ results: BMLTSearchResults, switcher: String, query: [URLQueryItem]) {
        guard let cache, results.serverDate != nil, !adminSession.isLoggedIn else { return }
        switch cacheMode {
        case .off, .only: return
        case .store, .preferFresh, .fallback: break
        }
        let url = transport.urls.url(root: root, path: "client_interface/json/",
                                     query: [URLQueryItem(name: "switcher", value: switcher)] + query)
        guard let body = try? JSONEncoder().encode(results) else { return }
        let (key, serverDate) = (CacheKey(root: root, url: url), results.serverDate)
        keep { cache.store(body, for: key, serverDate: serverDate, isSearchResults: true) }
    }

    /// A cache write, now, or when the read is used if it was sent before it was known to be wanted (`cacheHold`).
    private func keep(_ write: @escaping @Sendable () -> Void) {
        if let cacheHold { cacheHold.write(write) } else { write() }
    }

    private func isCacheable(_ request: URLRequest) -> Bool {
        request.value(forHTTPHeaderField: "Authorization") == nil && !adminSession.isLoggedIn
    }

    private func answer(_ hit: CacheHit, url: URL) -> HTTPReply {
        servedFromCache.withLock { $0 = true }
        var reply = HTTPReply(data: hit.data, statusCode: 200, headers: [:], url: url)
        reply.cachedServerDate = hit.serverDate
        reply.isCachedSearchResults = hit.isSearchResults
        return reply
    }

    /// Failures where the server did not give an answer of its own (a 4xx is an answer: it stands).
    static func cacheMayStandIn(for error: BMLTError) -> Bool {
        switch error {
        case .transport, .timeout, .responseTooLarge, .brokenReply: true
        case .httpStatus(let code, _): code >= 500
        default: false
        }
    }
}

extension BMLTRequestKind {
    /// Reads whose answers may come from the cache (never logins, writes, messages or administration).
    var isCacheableRead: Bool {
        switch self {
        case .validation, .meetingSearch, .formats, .serviceBodies, .changes, .deletedMeetings, .fieldValues,
             .coverageArea, .nawsExport: true
        case .login, .logout, .permissions, .saveMeeting, .deleteMeeting, .restoreMeeting, .rollbackMeeting,
             .sendMessage, .serverAdministration: false
        }
    }
}

/// A consumer that also writes the body into a cache entry as it arrives (committed once the reply is known good).
private final class KeptBody: BodyConsumer, Sendable {
    let inner: any BodyConsumer
    let writer: CacheEntryWriter?

    init(_ inner: any BodyConsumer, writer: CacheEntryWriter?) {
        self.inner = inner
        self.writer = writer
    }

    func consume(_ piece: Data) {
        writer?.append(piece)
        inner.consume(piece)
    }
}
