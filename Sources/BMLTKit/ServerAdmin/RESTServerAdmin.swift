import Foundation

/// Runs a `BMLTServerAdminAction` against `/api/v1`: bearer token from the login, JSON bodies, 201 with the
/// created object, 204 after PATCH (the object is then read back, so callers get what the server holds),
/// typed errors for 401/403/404/409/422 (`WireReply.checkStatus`).
struct RESTServerAdmin {
    let context: OperationContext

    private static let json = "application/json"

    func run(_ action: BMLTServerAdminAction) async throws(BMLTError) -> BMLTServerAdminResult {
        switch action {
        case .formats:
            return .formats(try WireRESTResources.list(try await get("formats", what: .formats), what: .formats, WireRESTResources.format))
        case .format(let id):
            return .format(try await readFormat(id), wasCreated: false)
        case .createFormat(let format):
            let created = try await create("formats", WireRESTResources.body(format), what: .newFormat)
            return .format(try WireRESTResources.one(created, what: .newFormat, WireRESTResources.format), wasCreated: true)
        case .patchFormat(let format, let original):
            try await write("PATCH", "formats/\(format.id)",
                            WireRESTResources.changes(WireRESTResources.body(format), from: WireRESTResources.body(original)))
            return .format(try await readFormat(format.id), wasCreated: false)
        case .deleteFormat(let id):
            try await delete("formats/\(id)", what: .format(id: id))
            return .formatDeleted(id: id)

        case .serviceBodies:
            return .serviceBodies(try WireRESTResources.list(try await get("servicebodies", what: .serviceBodies),
                                                             what: .serviceBodies, WireRESTResources.serviceBody))
        case .serviceBody(let id):
            return .serviceBody(try await readServiceBody(id), wasCreated: false)
        case .createServiceBody(let body):
            let created = try await create("servicebodies", WireRESTResources.body(body), what: .newServiceBody)
            return .serviceBody(try WireRESTResources.one(created, what: .newServiceBody, WireRESTResources.serviceBody), wasCreated: true)
        case .patchServiceBody(let body, let original):
            try await write("PATCH", "servicebodies/\(body.id)",
                            WireRESTResources.changes(WireRESTResources.body(body), from: WireRESTResources.body(original)))
            return .serviceBody(try await readServiceBody(body.id), wasCreated: false)
        case .deleteServiceBody(let id, let force):
            do {
                try await delete("servicebodies/\(id)", query: force ? [URLQueryItem(name: "force", value: "true")] : [],
                                 what: .serviceBody(id: id))
            } catch .conflict(let message) {
                throw .conflict(message: Self.serviceBodyConflict(id, message))
            }
            return .serviceBodyDeleted(id: id)
        case .serviceBodyEditors(let id):
            let what: BMLTError.Subject = .serviceBodyEditors(id: id)
            // New in 4.2: 4.1.0 answers it with its admin page (HTML, 200), which is `.unsupported`, not a decode error.
            return .serviceBodyEditors(serviceBodyID: id, try WireRESTResources.list(
                try await get("servicebodies/\(id)/editors", what: what, introducedIn: WireRESTEndpoint.editorsVersion),
                what: what, WireRESTResources.editor))

        case .users:
            return .users(try WireRESTResources.list(try await get("users", what: .users), what: .users, WireRESTResources.user))
        case .user(let id):
            return .user(try await readUser(id), wasCreated: false)
        case .createUser(let user, let password):
            let created = try await create("users", WireRESTResources.body(user, password: password.value), what: .newUser)
            return .user(try WireRESTResources.one(created, what: .newUser, WireRESTResources.user), wasCreated: true)
        case .patchUser(let user, let original, let password):
            var body = WireRESTResources.changes(WireRESTResources.body(user, password: nil),
                                                 from: WireRESTResources.body(original, password: nil))
            if let password { body.append(("password", .string(password.value))) }
            try await write("PATCH", "users/\(user.id)", body)
            return .user(try await readUser(user.id), wasCreated: false)
        case .deleteUser(let id):
            try await delete("users/\(id)", what: .user(id: id))
            return .userDeleted(id: id)

        case .settings:
            return .settings(try await readSettings())
        case .patchSettings(let changes):
            let body = changes.sorted { $0.key < $1.key }.map { ($0.key, WireRESTResources.wire($0.value)) }
            do {
                try await write("PATCH", "settings", body)
            } catch .notFound {
                throw Self.settingsUnsupported
            }
            return .settings(try await readSettings())

        case .rootServers:
            return .rootServers(try WireRESTResources.list(try await publicGet("rootservers", what: .rootServers),
                                                           what: .rootServers, WireRESTResources.rootServer))
        case .rootServer(let id):
            let what: BMLTError.Subject = .rootServer(id: id)
            return .rootServer(try WireRESTResources.one(try await publicGet("rootservers/\(id)", what: what), what: what,
                                                         WireRESTResources.rootServer))
        }
    }

    // MARK: - Reads back

    private func readFormat(_ id: Int) async throws(BMLTError) -> BMLTAdminFormat {
        try WireRESTResources.one(try await get("formats/\(id)", what: .format(id: id)), what: .format(id: id), WireRESTResources.format)
    }

    private func readServiceBody(_ id: Int) async throws(BMLTError) -> BMLTAdminServiceBody {
        let what: BMLTError.Subject = .serviceBody(id: id)
        return try WireRESTResources.one(try await get("servicebodies/\(id)", what: what), what: what, WireRESTResources.serviceBody)
    }

    private func readUser(_ id: Int) async throws(BMLTError) -> BMLTAdminUser {
        try WireRESTResources.one(try await get("users/\(id)", what: .user(id: id)), what: .user(id: id), WireRESTResources.user)
    }

    /// 3.x has no settings endpoint (its 404 says nothing): reported as unsupported, not as "not found".
    private static let settingsUnsupported = BMLTError.unsupported(.serverSettings)

    private func readSettings() async throws(BMLTError) -> BMLTServerSettings {
        let value: WireValue
        do {
            value = try await get("settings", what: .serverSettings)
        } catch .notFound {
            throw Self.settingsUnsupported
        }
        guard let settings = WireRESTResources.settings(value) else {
            throw .malformedResponse(what: .serverSettings, detail: .unexpectedShape(expected: "{…}"))
        }
        return settings
    }

    // MARK: - Requests

    /// A JSON read; an endpoint this server version lacks (an HTML page with 200, see `WireRESTEndpoint`) is `.unsupported`.
    private func get(_ path: String, what: BMLTError.Subject, introducedIn: Int? = nil) async throws(BMLTError) -> WireValue {
        try WireRESTEndpoint.json(try await context.get("api/v1/" + path, headers: try await RESTAdmin.authorized(context)),
                                  path: path, what: what, server: context.serverInfo, introducedIn: introducedIn)
    }

    /// A public endpoint (root servers): no token; a 404 with aggregator mode off is "unsupported".
    private func publicGet(_ path: String, what: BMLTError.Subject) async throws(BMLTError) -> WireValue {
        do {
            return try WireRESTEndpoint.json(try await context.get("api/v1/" + path, headers: ["Accept": Self.json]),
                                             path: path, what: what, server: context.serverInfo)
        } catch .notFound(let message) where message?.localizedCaseInsensitiveContains("aggregator") == true {
            throw .unsupported(.notAnAggregator(what, serverMessage: message))
        }
    }

    private func create(_ path: String, _ body: [(String, WireValue)], what: BMLTError.Subject) async throws(BMLTError) -> WireValue {
        let reply = try await context.send("POST", "api/v1/" + path, body: WireJSONWriter.object(body), contentType: Self.json,
                                           headers: try await RESTAdmin.authorized(context))
        let value = try WireReply.json(reply, what: what)
        context.acknowledgeWrite()
        return value
    }

    private func write(_ method: String, _ path: String, _ body: [(String, WireValue)]) async throws(BMLTError) {
        let reply = try await context.send(method, "api/v1/" + path, body: WireJSONWriter.object(body), contentType: Self.json,
                                           headers: try await RESTAdmin.authorized(context))
        try WireReply.checkStatus(reply)
        context.acknowledgeWrite()
    }

    private func delete(_ path: String, query: [URLQueryItem] = [], what: BMLTError.Subject) async throws(BMLTError) {
        let reply = try await context.send("DELETE", "api/v1/" + path, query: query, headers: try await RESTAdmin.authorized(context))
        do {
            try WireReply.checkStatus(reply)
            context.acknowledgeWrite()
        } catch .conflict(let message) {
            throw .conflict(message: "\(what) cannot be deleted: \(message ?? "it is still in use")")
        }
    }

    /// 4.x answers a service-body delete with two different 409s: meetings still assigned (`force` deletes them
    /// too) or child service bodies (`force` does not help). Each gets its own sentence; the server's is kept.
    static func serviceBodyConflict(_ id: Int, _ message: String?) -> String {
        let text = message ?? ""
        if text.contains("meetings are assigned") {
            return "service body \(id) still has meetings; delete them first, or delete with force: true to delete its meetings too (server: \(text))"
        }
        if text.contains("service bodies are assigned") || text.contains("children") {
            return "service body \(id) has child service bodies; move or delete them first, force does not override this (server: \(text))"
        }
        return text
    }
}
