import Foundation

/// An `/api/v1` endpoint this server version does not have, told apart from a broken reply.
///
/// A 4.x server answers every path it has no route for with its administration UI — an HTML page with status **200**,
/// not a 404: 4.1.0 answers `GET /api/v1/servicebodies/{id}/editors` and `GET /api/v1/openapi-semantic.json` (both new
/// in 4.2) that way. Parsed as JSON that page would be a decode error; here it is `.unsupported`, naming what was asked
/// (the request) and the server's version, the same error a server gets that answers the endpoint with a 404 it has no
/// route for (an HTML 404 page, or — for an endpoint newer than the server — any 404).
enum WireRESTEndpoint {
    /// Root server 4.2.0, as `versionInt`, taken as the first with `GET /api/v1/servicebodies/{id}/editors` and
    /// `/api/v1/openapi-semantic.json`: 4.1.0 has neither (its OpenAPI document lists 17 paths, and it answers both with
    /// its admin page), 4.2.7 has both (18 paths); the releases between were not checked.
    static let editorsVersion = 4_002_000

    /// Checks a reply to a JSON read of `path` (under `api/v1/`) and parses it: an answer that shows the endpoint
    /// does not exist on this server throws `.unsupported`; everything else is `WireReply.json`'s.
    /// `introducedIn` (a `versionInt`) marks an endpoint newer than some servers: a plain 404 from a server older than
    /// that is "not supported" too, while a newer server's 404 stays `.notFound` (the thing asked for is missing).
    static func json(_ reply: HTTPReply, method: String = "GET", path: String, what: BMLTError.Subject, server: BMLTServerInfo?,
                     introducedIn: Int? = nil) throws(BMLTError) -> WireValue {
        if let missing = missing(reply, method: method, path: path, what: what, server: server, introducedIn: introducedIn) {
            throw missing
        }
        return try WireReply.json(reply, what: what)
    }

    /// `.unsupported` when `reply` says the server has no such endpoint, else `nil`.
    static func missing(_ reply: HTTPReply, method: String, path: String, what: BMLTError.Subject, server: BMLTServerInfo?,
                        introducedIn: Int? = nil) -> BMLTError? {
        let page = isPage(reply)
        let answer: BMLTError.EndpointAnswer
        switch reply.statusCode {
        case 200..<300 where page:
            answer = .page(status: reply.statusCode)
        case 404 where page:
            answer = .pageNotFound
        case 404:
            guard let introducedIn, let versionInt = server?.versionInt, versionInt > 0, versionInt < introducedIn else { return nil }
            answer = .notFound(introducedIn: version(introducedIn))
        default:
            return nil
        }
        return .unsupported(.endpoint(what, method: method, path: path, serverVersion: server?.version, answer: answer))
    }

    /// Whether the body is a page (HTML or XML) rather than JSON: its first character is `<`, or the server called it
    /// `text/html` and it is not empty.
    static func isPage(_ reply: HTTPReply) -> Bool {
        let first = reply.data.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "<") { return true }
        let type = HTTPHeaders.value("Content-Type", in: reply.headers) ?? ""
        return first != nil && type.lowercased().contains("text/html") && first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
    }

    /// `4_002_000` → `4.2.0`.
    private static func version(_ versionInt: Int) -> String {
        "\(versionInt / 1_000_000).\((versionInt / 1000) % 1000).\(versionInt % 1000)"
    }
}
