import Foundation

extension BMLTConnection {
    /// Keeps `admin` (and the `server` store's service bodies and tree) in step with a server-administration result.
    func store(_ result: BMLTServerAdminResult) {
        switch result {
        case .formats(let formats): admin.formats = formats
        case .format(let format, _): Self.upsert(format, in: &admin.formats)
        case .formatDeleted(let id): admin.formats.removeAll { $0.id == id }
        case .serviceBodies(let bodies):
            admin.serviceBodies = bodies
            server.serviceBodies = bodies.map(\.serviceBody)
        case .serviceBody(let body, _):
            Self.upsert(body, in: &admin.serviceBodies)
            var flat = server.serviceBodies
            Self.upsert(body.serviceBody, in: &flat)
            server.serviceBodies = flat          // one assignment: the tree is rebuilt once
        case .serviceBodyDeleted(let id):
            admin.serviceBodies.removeAll { $0.id == id }
            server.serviceBodies = server.serviceBodies.filter { $0.id != id }
        case .serviceBodyEditors: break
        case .users(let users): admin.users = users
        case .user(let user, _): Self.upsert(user, in: &admin.users)
        case .userDeleted(let id): admin.users.removeAll { $0.id == id }
        case .settings(let settings): admin.settings = settings
        case .rootServers(let servers):
            admin.rootServers = servers
            server.rootServers = servers
        case .rootServer(let server): Self.upsert(server, in: &admin.rootServers)
        }
    }

    /// Replaces the element with the same id, or appends it.
    private static func upsert<Element: Identifiable>(_ element: Element, in list: inout [Element]) {
        if let index = list.firstIndex(where: { $0.id == element.id }) { list[index] = element } else { list.append(element) }
    }
}
