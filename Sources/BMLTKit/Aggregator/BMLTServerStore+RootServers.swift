import Foundation

/// One root server of an aggregator with what the aggregator holds from it.
///
/// ```swift
/// for group in connection.server.rootServerGroups {
///     print(group.rootServer?.name ?? "root server \(group.rootServerID)", group.formats.count, group.serviceBodyTree.count)
/// }
/// ```
public struct BMLTRootServerGroup: Sendable, Hashable, Identifiable {
    /// The aggregator's id of the root server (`rootServerID` of everything in this group).
    public var rootServerID: Int
    /// The root server, when the aggregator's list names it.
    public var rootServer: BMLTRootServer?
    /// Its formats, in the server's order.
    public var formats: [BMLTFormat]
    /// Its service bodies as a tree (roots first, children sorted by name).
    public var serviceBodyTree: [BMLTServiceBodyNode]

    /// The root server's id.
    public var id: Int { rootServerID }

    /// A group value.
    public init(rootServerID: Int, rootServer: BMLTRootServer? = nil, formats: [BMLTFormat] = [],
                serviceBodyTree: [BMLTServiceBodyNode] = []) {
        self.rootServerID = rootServerID
        self.rootServer = rootServer
        self.formats = formats
        self.serviceBodyTree = serviceBodyTree
    }
}

extension BMLTServerStore {
    /// The root server with this aggregator id, if the aggregator listed it.
    /// ```swift
    /// let name = connection.server.rootServer(id: 2)?.name
    /// ```
    public func rootServer(id: Int) -> BMLTRootServer? { rootServers.first { $0.id == id } }

    /// The root server a meeting was imported from (by its `rootServerID`), if known.
    /// ```swift
    /// let source = connection.server.rootServer(of: meeting)?.name ?? "this server"
    /// ```
    public func rootServer(of meeting: BMLTMeeting) -> BMLTRootServer? { meeting.rootServerID.flatMap(rootServer(id:)) }

    /// The formats and the service-body tree grouped by root server, in the order of `rootServers` (then any
    /// root server id that only the data names). Empty on a plain root server, whose data has no root server id.
    /// ```swift
    /// let perRoot = connection.server.rootServerGroups.map { ($0.rootServer?.name ?? "?", $0.formats.count) }
    /// ```
    public var rootServerGroups: [BMLTRootServerGroup] {
        var ids = rootServers.map(\.id)
        let named = Set(ids)
        let seen = Set(formats.compactMap(\.rootServerID) + serviceBodies.compactMap(\.rootServerID))
        ids += seen.subtracting(named).sorted()
        return ids.map { id in
            BMLTRootServerGroup(rootServerID: id, rootServer: rootServer(id: id),
                                formats: formats.filter { $0.rootServerID == id },
                                serviceBodyTree: BMLTServiceBody.tree(from: serviceBodies.filter { $0.rootServerID == id }))
        }
    }
}
