import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a list remembers of where it came from, for bringing it up to date later: the server and search it answers
/// (`origin`), and the server's time of the answer (its `Date` header, `serverDate`).
enum RefreshOrigin {
    /// The root server and the search's query (`GetSearchResults` items, extent included): two results with the same
    /// origin answer the same search on the same server.
    static func of(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent, root: URL) -> String {
        let query = WireSearchQuery.items(criteria, extent: extent, distanceUnits: .miles)
            .map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return root.absoluteString + " " + query
    }

    /// The root server part of an origin.
    static func root(of origin: String) -> String {
        String(origin.prefix { $0 != " " })
    }

    /// The reply's `Date` header as a date (for an answer of the response cache, the one it kept); `nil` when it is
    /// missing or not an HTTP date.
    static func serverDate(_ reply: HTTPReply) -> Date? {
        reply.cachedServerDate ?? HTTPHeaders.value("Date", in: reply.headers).flatMap(HTTPHeaders.date)
    }
}

extension OperationContext {
    /// This context without the response cache: what a refresh reads must come from the server.
    var uncached: OperationContext {
        OperationContext(root: root, transport: transport, serverInfo: serverInfo, serverFormats: serverFormats,
                         adminSession: adminSession, cache: nil, cacheMode: .off, language: self.language)
    }

    /// A semantic read that no cache may answer: past the response cache, with `Cache-Control: no-cache` and, when
    /// `unique`, a query item of its own (`_=`) so that no cache between the app and the server can have it either.
    /// Its `Date` header is the server's time of the answer. `limit`: the most bytes of body taken (then
    /// `.responseTooLarge`).
    func freshSemanticReply(_ switcher: String, _ query: [URLQueryItem], unique: Bool,
                            limit: Int? = nil) async throws(BMLTError) -> HTTPReply {
        var items = [URLQueryItem(name: "switcher", value: switcher)] + query
        if unique { items.append(URLQueryItem(name: "_", value: String(UInt64.random(in: 1...UInt64.max)))) }
        let request = transport.makeRequest(transport.urls.url(root: root, path: "client_interface/json/", query: items),
                                            headers: ["Cache-Control": "no-cache"])
        let reply = try await fromServer(request, retryable: true, limit: limit)
        try WireReply.checkStatus(reply)
        return reply
    }
}
