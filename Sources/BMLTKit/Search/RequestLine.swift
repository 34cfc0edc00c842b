import Foundation

/// How long a request line the servers take, and id lists cut to fit.
///
/// Apache answers `414 Request-URI Too Long` to a request line over 8,190 bytes (its default `LimitRequestLine`:
/// `../shared/fixtures/server-truths/216-apache-414-headers.txt`, a 2.16.6 search for 400 `meeting_ids%5B%5D=` items,
/// 9.6 KB), and nginx's default header buffer holds 8 KB; `php -S` takes anything, so a stand-in on it never sees the
/// limit. Every `meeting_ids[]` item costs 19 bytes and the id's digits (`&meeting_ids%5B%5D=1234`): about 330 ids
/// fill a line. Longer lists go in several requests, each line at most `limit` bytes.
enum RequestLine {
    /// The longest request line sent: under Apache's 8,190 and nginx's 8,192 with room to spare.
    static let limit = 8_000

    /// The length of `GET <path>?<query> HTTP/1.1` for `url`.
    static func length(of url: URL) -> Int {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString.utf8.count }
        var target = components.percentEncodedPath
        if target.isEmpty { target = "/" }
        if let query = components.percentEncodedQuery { target += "?" + query }
        return "GET ".utf8.count + target.utf8.count + " HTTP/1.1".utf8.count
    }

    /// Whether a status is a server's "too long" (414 URI Too Long, and 431 for a head too large).
    static func isTooLong(_ error: BMLTError) -> Bool {
        if case .httpStatus(let code, _) = error { return code == 414 || code == 431 }
        return false
    }

    /// `ids` cut into runs whose request lines fit `limit`, given the line without any id (`base`, with a query) and
    /// the encoded name of the list's items. Each id costs `&<name>=<digits>`. A run holds at least one id.
    static func chunks(_ ids: [Int], base: Int, itemName: String = "meeting_ids[]", limit: Int = limit) -> [[Int]] {
        let name = RootServerURL.encode(itemName).utf8.count
        var runs: [[Int]] = []
        var current: [Int] = []
        var length = base
        for id in ids {
            let cost = 2 + name + String(id).utf8.count
            if !current.isEmpty, length + cost > limit {
                runs.append(current)
                current = []
                length = base
            }
            current.append(id)
            length += cost
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}
