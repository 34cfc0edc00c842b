import Foundation

extension BMLTConnection {
    /// Reads an aggregator's root servers again (the fire-and-forget form of `rootServers()`): posts
    /// `.bmltServerAdminResults` with `.rootServers(list)`, or `.bmltError` (`.unsupported` on a plain root
    /// server); fills `server.rootServers` and `admin.rootServers`. Validation already reads them once on an
    /// aggregator; call this to refresh (the aggregator re-imports every few hours). Needs no login.
    /// ```swift
    /// connection.fetchRootServers()
    /// // later: connection.server.rootServers.map(\.name)
    /// ```
    @discardableResult
    public func fetchRootServers() -> BMLTRequest {
        perform(.rootServers)
    }

    /// The root server an aggregator imported this meeting from, when known (`nil` on a plain root server).
    /// ```swift
    /// for meeting in results.meetings {
    ///     print(meeting.name, connection.rootServer(of: meeting)?.name ?? "")
    /// }
    /// ```
    public func rootServer(of meeting: BMLTMeeting) -> BMLTRootServer? {
        server.rootServer(of: meeting)
    }
}
