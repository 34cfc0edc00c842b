import Foundation

/// The REST admin interface's token, user and service-body replies.
enum WireRESTAuth {
    /// `{"access_token", "expires_at" (unix seconds), "token_type", "user_id"}` → the token and the user id.
    static func token(_ value: WireValue) throws(BMLTError) -> (token: AdminSession.Token, userID: Int?) {
        guard let token = value["access_token"]?.string, let expires = value["expires_at"]?.double else {
            throw .malformedResponse(what: .loginToken, detail: .unexpectedShape(expected: "{access_token, expires_at}"))
        }
        return (AdminSession.Token(value: token, expiresAt: Date(timeIntervalSince1970: expires)), value["user_id"]?.int)
    }

    /// A REST user (`{"id", "username", "type", "displayName", …}`).
    static func user(_ value: WireValue) -> BMLTUser? {
        guard let id = value["id"]?.int else { return nil }
        return BMLTUser(id: id, username: value["username"]?.string, displayName: value["displayName"]?.string,
                        role: role(value["type"]?.string))
    }

    static func role(_ type: String?) -> BMLTUserRole {
        switch type {
        case "admin": .serverAdministrator
        case "serviceBodyAdmin": .serviceBodyAdministrator
        case "observer": .observer
        case "deactivated": .deactivated
        default: .unknown
        }
    }

    /// The permissions of `user` from the REST service bodies, following the server's policy: a server
    /// administrator administers every service body; a service body's `adminUserId` administers it, its
    /// `assignedUserIds` edit its meetings (observers only see them); each service body passes what a user may
    /// do to its descendants.
    static func permissions(serviceBodies value: WireValue, user: BMLTUser) throws(BMLTError) -> [BMLTPermission] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: .serviceBodies, detail: .unexpectedShape(expected: "[service body]"))
        }
        struct Body { let id: Int; let parent: Int?; let name: String?; let direct: BMLTPermissionLevel? }
        let bodies: [Body] = entries.compactMap { entry in
            guard let id = entry["id"]?.int else { return nil }
            var direct: BMLTPermissionLevel?
            switch user.role {
            case .serverAdministrator: direct = .serviceBodyAdministrator
            case .deactivated, .unknown: direct = nil
            case .serviceBodyAdministrator, .observer:
                let assigned = entry["assignedUserIds"]?.array?.compactMap(\.int) ?? []
                if user.role == .observer {
                    direct = assigned.contains(user.id) || entry["adminUserId"]?.int == user.id ? .observer : nil
                } else if entry["adminUserId"]?.int == user.id {
                    direct = .serviceBodyAdministrator
                } else if assigned.contains(user.id) {
                    direct = .meetingListEditor
                }
            }
            return Body(id: id, parent: entry["parentId"]?.int, name: entry["name"]?.string, direct: direct)
        }
        let byID = Dictionary(bodies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func level(_ body: Body) -> BMLTPermissionLevel? {
            var best = body.direct
            var seen: Set<Int> = [body.id]
            var parent = body.parent
            while let id = parent, !seen.contains(id), let ancestor = byID[id] {
                seen.insert(id)
                if let inherited = ancestor.direct, inherited > (best ?? .observer) || best == nil { best = inherited }
                parent = ancestor.parent
            }
            return best
        }
        return bodies.compactMap { body in
            level(body).map { BMLTPermission(serviceBodyID: body.id, serviceBodyName: body.name, level: $0) }
        }
    }
}
