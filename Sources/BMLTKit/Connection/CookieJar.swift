import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The connection's own cookies: the legacy admin session lives here, never in `HTTPCookieStorage.shared`,
/// so two connections to the same server never share a login.
final class CookieJar: Sendable {
    // HTTPCookie is immutable; the array is guarded by the lock.
    private let cookies = Locked<[HTTPCookie]>([])

    /// Remembers the cookies a response sets. (Out of line, as `RequestLog`'s writers, to keep the transport's task frames small.)
    @inline(never)
    func store(headers: [String: String], for url: URL) {
        // Most replies set no cookie: found without Foundation's cookie parser, which every reply went through.
        guard headers.keys.contains(where: { $0.utf8.count == 10 && $0.lowercased() == "set-cookie" }) else { return }
        let received = HTTPCookie.cookies(withResponseHeaderFields: headers, for: url)
        guard !received.isEmpty else { return }
        cookies.withLock { jar in
            for cookie in received {
                jar.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if let expiry = cookie.expiresDate, expiry < Date() { continue }   // a deletion
                jar.append(cookie)
            }
        }
    }

    /// The `Cookie` header for a request to `url`, if any cookie applies.
    @inline(never)
    func header(for url: URL) -> String? {
        guard !cookies.withLock({ $0.isEmpty }), let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let now = Date()
        let matching = cookies.withLock { jar in
            jar.filter { cookie in
                if let expiry = cookie.expiresDate, expiry < now { return false }
                if cookie.isSecure, url.scheme?.lowercased() != "https" { return false }
                let domain = cookie.domain.lowercased()
                let domainMatches = domain.hasPrefix(".")
                    ? (host == String(domain.dropFirst()) || host.hasSuffix(domain))
                    : host == domain
                return domainMatches && path.hasPrefix(cookie.path.isEmpty ? "/" : cookie.path)
            }
        }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Names of the cookies held (never their values).
    var names: [String] { cookies.withLock { $0.map(\.name) } }

    /// Forgets every cookie (logout).
    func removeAll() { cookies.withLock { $0.removeAll() } }
}
