import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which redirects are followed: never from https to http, and never with credentials to another host.
enum RedirectRule {
    /// The request to follow, or `nil` to refuse.
    static func follow(from origin: URL, to request: URLRequest) -> URLRequest? {
        guard let target = request.url else { return nil }
        if origin.scheme?.lowercased() == "https", target.scheme?.lowercased() != "https" { return nil }
        var next = request
        if origin.host?.lowercased() != target.host?.lowercased() {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }
}
