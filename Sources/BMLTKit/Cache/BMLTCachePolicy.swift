import Foundation

/// When a connection with a `BMLTConfiguration.cache` answers reads from it.
///
/// Root servers send no `ETag` or freshness headers, so caching is the client's choice. Whatever the policy, a
/// connection with a cache stores what it reads (only reads: never anything sent with a login, never a write) and
/// clears the root server's entries after any successful write.
/// ```swift
/// var configuration = BMLTConfiguration()
/// configuration.cache = BMLTResponseCache(directory: cachesFolder, maximumBytes: 50_000_000)
/// configuration.cachePolicy = .networkElseCache     // offline: the last answer, marked bmltIsFromCache
/// ```
public enum BMLTCachePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Always ask the server (the default). The cache is still filled, for later offline use.
    case networkOnly
    /// An answer the cache holds and that is younger than the cache's `maximumAge` is used without asking the
    /// server; otherwise the server is asked.
    case cacheElseNetwork
    /// The cached answer (of any age) is delivered at once, as a request of its own whose notifications say
    /// `bmltIsFromCache == true`; then the server is asked as usual and its answer (or error) follows. Each of the two
    /// requests has its one outcome. The `async` forms return the server's answer.
    case cacheThenNetwork
    /// Ask the server; when it cannot be reached, times out, cuts the reply off or answers 5xx, the cached answer
    /// (of any age) is used instead, marked `bmltIsFromCache`. An app can start offline this way.
    case networkElseCache
}

/// How one operation's reads use the cache (from the policy, or "cache only" for `.cacheThenNetwork`'s first
/// delivery).
enum CacheMode: Sendable {
    case off
    case store
    case preferFresh(maximumAge: TimeInterval)
    case fallback
    case only
}
