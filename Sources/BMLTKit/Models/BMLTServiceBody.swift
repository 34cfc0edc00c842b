import Foundation

/// A service body: a group, area, region or zone that owns meetings, in a tree of parents and children.
public struct BMLTServiceBody: Sendable, Hashable, Codable, Identifiable {
    /// The service body's id.
    public var id: Int
    /// The parent's id; `nil` at the top of the tree.
    public var parentID: Int?
    /// The name, e.g. "Nassau Area Service".
    public var name: String
    /// A description.
    public var description: String
    /// The kind of service body (area, region, …).
    public var type: BMLTServiceBodyType?
    /// The web site.
    public var url: URL?
    /// The helpline phone number.
    public var helpline: String?
    /// The NAWS world id, e.g. "AR19518".
    public var worldID: String?
    /// The contact email, when the server publishes it.
    public var email: String?
    /// On an aggregator, the root server this service body was imported from (`root_server_id`; see
    /// `BMLTRootServer`). Its `id` and `parentID` are the aggregator's own.
    public var rootServerID: Int?

    /// A service body value.
    public init(id: Int, parentID: Int? = nil, name: String, description: String = "", type: BMLTServiceBodyType? = nil,
                url: URL? = nil, helpline: String? = nil, worldID: String? = nil, email: String? = nil, rootServerID: Int? = nil) {
        self.id = id
        self.parentID = parentID
        self.name = name
        self.description = description
        self.type = type
        self.url = url
        self.helpline = helpline
        self.worldID = worldID
        self.email = email
        self.rootServerID = rootServerID
    }
}

/// The kind of a service body (the `type` code on the wire).
public enum BMLTServiceBodyType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A group (`GR`).
    case group = "GR"
    /// A co-op (`CO`).
    case coop = "CO"
    /// A group service unit (`GS`).
    case groupServiceUnit = "GS"
    /// A local service unit (`LS`).
    case localServiceUnit = "LS"
    /// An area (`AS`).
    case area = "AS"
    /// A metro area (`MA`).
    case metroArea = "MA"
    /// A region (`RS`).
    case region = "RS"
    /// A zone or forum (`ZF`).
    case zone = "ZF"
    /// World services (`WS`).
    case world = "WS"
}

/// A service body with its children: one node of the service-body tree.
public struct BMLTServiceBodyNode: Sendable, Hashable, Codable, Identifiable {
    /// The service body at this node.
    public var serviceBody: BMLTServiceBody
    /// Its children, sorted by name.
    public var children: [BMLTServiceBodyNode]

    /// The service body's id.
    public var id: Int { serviceBody.id }

    /// A tree node.
    public init(serviceBody: BMLTServiceBody, children: [BMLTServiceBodyNode] = []) {
        self.serviceBody = serviceBody
        self.children = children
    }

    /// This node and every node below it, depth first.
    public var flattened: [BMLTServiceBody] {
        [serviceBody] + children.flatMap(\.flattened)
    }
}

extension BMLTServiceBody {
    /// Builds the tree from a flat list. A service body whose parent is not in the list (an orphan) keeps its
    /// place at the root; a cycle in the parent ids is broken rather than looping, so every body appears once.
    public static func tree(from serviceBodies: [BMLTServiceBody]) -> [BMLTServiceBodyNode] {
        var unique: [Int: BMLTServiceBody] = [:]
        for body in serviceBodies where unique[body.id] == nil { unique[body.id] = body }
        var children: [Int: [BMLTServiceBody]] = [:]
        var roots: [BMLTServiceBody] = []
        for body in unique.values {
            if let parent = body.parentID, parent != body.id, unique[parent] != nil {
                children[parent, default: []].append(body)
            } else {
                roots.append(body)
            }
        }
        var placed = Set<Int>()
        func node(_ body: BMLTServiceBody) -> BMLTServiceBodyNode {
            placed.insert(body.id)
            let kids = (children[body.id] ?? []).filter { !placed.contains($0.id) }.sorted(by: Self.byName)
            return BMLTServiceBodyNode(serviceBody: body, children: kids.map(node))
        }
        var result = roots.sorted(by: Self.byName).map(node)
        // Bodies only reachable through a parent cycle have no root; put them at the root too.
        for body in unique.values.sorted(by: Self.byName) where !placed.contains(body.id) {
            result.append(node(body))
        }
        return result
    }

    private static func byName(_ lhs: BMLTServiceBody, _ rhs: BMLTServiceBody) -> Bool {
        lhs.name == rhs.name ? lhs.id < rhs.id : lhs.name < rhs.name
    }
}
