import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Raw requests to the server's semantic interface, beside BMLTKit: what the SERVER does (its answer to a search by
/// ids with a weekday, its `Date` header, its compression, the longest query it takes), where BMLTKit's own calls
/// would show what BMLTKit makes of it. Anonymous always: no cookie is kept or sent, no token, no password; the
/// session is the connection's (the demo server's `URLProtocol` offline), its timeout the check's.
struct WireProbe: Sendable {
    /// One answer as received.
    struct Reply: Sendable {
        var status: Int
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
        /// The request target's length in bytes (path and query), as a server's request line limit counts it.
        var targetLength: Int

        /// The body as JSON (nil when it is not).
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }

        /// The meetings of a `GetSearchResults` answer (a list, or `{"meetings": …}`), as `[String: Any]`.
        var meetings: [[String: Any]]? {
            if let list = json as? [[String: Any]] { return list }
            if let list = json as? [Any], list.isEmpty { return [] }
            return (json as? [String: Any])?["meetings"] as? [[String: Any]]
        }

        /// The `id_bigint`s of a `GetSearchResults` answer.
        var meetingIDs: [Int]? { meetings?.compactMap { Self.int($0["id_bigint"]) } }

        static func int(_ value: Any?) -> Int? {
            if let number = value as? Int { return number }
            if let text = value as? String { return Int(text.trimmingCharacters(in: .whitespaces)) }
            return (value as? NSNumber)?.intValue
        }
    }

    let root: URL
    let session: URLSession
    let timeout: TimeInterval
    let tally: RequestTally
    let userAgent: String

    /// A probe of `connection`'s server through `configuration`'s session (its protocol classes: the demo server),
    /// keeping no cookie and no cache.
    init(root: URL, configuration: BMLTConfiguration, timeout: TimeInterval, tally: RequestTally) {
        self.root = root
        self.timeout = timeout
        self.tally = tally
        userAgent = configuration.userAgent
        let sessionConfiguration = (configuration.urlSessionConfiguration.copy() as? URLSessionConfiguration) ?? .ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = timeout
        sessionConfiguration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: sessionConfiguration)
    }

    /// `GET <root>/client_interface/json/?switcher=…&…` (brackets percent-encoded, as BMLTKit sends them).
    func semantic(_ items: [(String, String)]) async throws -> Reply {
        try await get("client_interface/json/", items)
    }

    /// A GET of `path` under the root with `items` as its query.
    func get(_ path: String, _ items: [(String, String)]) async throws -> Reply {
        let query = items.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        var base = root.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        guard let url = URL(string: base + path + (query.isEmpty ? "" : "?" + query)) else {
            throw CLIFailure("Could not make a request address from \(base + path).")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let target = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        do {
            let (body, response) = try await session.data(for: request)
            tally.add(requests: 1, bytes: body.count)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return Reply(status: http.statusCode, headers: headers, body: body, targetLength: target.utf8.count)
        } catch {
            tally.add(requests: 1, bytes: 0)
            throw Self.described(error)
        }
    }

    /// A transport failure as BMLTKit words it (a timeout as `.timeout`, others by their `URLError` code).
    static func described(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        guard let urlError = error as? URLError else { return error }
        if urlError.code == .timedOut { return BMLTError.timeout }
        if urlError.code == .cancelled { return CancellationError() }
        return BMLTError.transport(code: urlError.code.rawValue)
    }

    /// Percent-encoding for a query name or value: letters, digits and `-._~` as they are (brackets and commas
    /// encoded, as BMLTKit sends them).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{0}"..."\u{7F}"))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The server's clock from a `Date` header (IMF-fixdate), nil when absent or unreadable.
    static func date(_ header: String?) -> Date? {
        guard let header else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: header)
    }
}
