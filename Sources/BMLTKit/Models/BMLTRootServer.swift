import Foundation

/// A root server an aggregator imports (`/api/v1/rootservers`; only an aggregator serves it).
///
/// Every meeting, format and service body an aggregator returns names its root server by `rootServerID`,
/// which is this `id`. The connection fetches the list once when it validates an aggregator; look one up with
/// `connection.server.rootServer(id:)`.
/// ```swift
/// let info = try await connection.validate()
/// if info.aggregatorModeEnabled, let meeting = connection.search.meetings.first,
///    let root = connection.server.rootServer(of: meeting) {
///     print("\(meeting.name) — from \(root.name) (\(root.serverInfo?.version ?? "never imported"))")
/// }
/// ```
public struct BMLTRootServer: Sendable, Hashable, Codable, Identifiable {
    /// The id in the aggregator (the `root_server_id` of its meetings, formats and service bodies).
    public var id: Int
    /// The id in the aggregator's source list (`sourceId`).
    public var sourceID: Int
    /// The name, as listed.
    public var name: String
    /// The root server's URL, as listed (usually with a trailing slash).
    public var url: String
    /// When its data was last imported, as sent: `"YYYY-MM-DD HH:MM:SS"` in UTC, without a zone; `nil` when
    /// it never was (an unreachable root server). See `lastImport` for the date.
    public var lastSuccessfulImport: String?
    /// Its counts of service bodies and meetings by kind (`numAreas`, `numTotal`, `numVirtual`, …); a count the
    /// server sends as `null` (never imported) is absent.
    public var statistics: [String: Int]
    /// What the root server said about itself at the last import (its `GetServerInfo`, which the aggregator
    /// sends as JSON inside a string); `nil` when never imported or unreadable.
    public var serverInfo: BMLTServerInfo?

    /// A root server entry.
    public init(id: Int, sourceID: Int, name: String, url: String, lastSuccessfulImport: String? = nil,
                statistics: [String: Int] = [:], serverInfo: BMLTServerInfo? = nil) {
        self.id = id
        self.sourceID = sourceID
        self.name = name
        self.url = url
        self.lastSuccessfulImport = lastSuccessfulImport
        self.statistics = statistics
        self.serverInfo = serverInfo
    }

    /// The last successful import as a date (the server writes UTC without saying so); `nil` when never imported.
    /// ```swift
    /// if let date = root.lastImport { print("imported \(date.formatted())") }
    /// ```
    public var lastImport: Date? { lastSuccessfulImport.flatMap(Self.utcDate) }

    /// Whether the aggregator has imported this root server at least once (an unreachable one never is).
    /// ```swift
    /// let missing = connection.server.rootServers.filter { !$0.hasBeenImported }
    /// ```
    public var hasBeenImported: Bool { lastSuccessfulImport != nil }

    /// The number of meetings imported from it (`statistics["numTotal"]`), when known.
    /// ```swift
    /// print(root.meetingCount ?? 0)
    /// ```
    public var meetingCount: Int? { statistics["numTotal"] }

    /// The listed URL as a `URL`, when it is one.
    /// ```swift
    /// let child = root.rootServerURL.map { BMLTConnection(rootServerURL: $0) }
    /// ```
    public var rootServerURL: URL? { URL(string: url) }

    /// `"2026-11-23 09:38:16"` (UTC) → a date; `nil` for anything else.
    static func utcDate(_ text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces)
            .split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" || $0 == "T" }).map { Int($0) }
        guard parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2],
                                        hour: parts[3], minute: parts[4], second: parts[5])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
