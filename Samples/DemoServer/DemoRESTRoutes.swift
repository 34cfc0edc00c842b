import Foundation

/// The REST admin API `<root>/api/v1/...` (3.x): bearer tokens, meetings read/write, formats, service bodies
/// and users read-only.
enum DemoRESTRoutes {
    /// The authenticated caller of a route.
    struct Caller {
        var user: DemoUser
        var token: String
    }

    static func route(_ request: DemoRequest, _ store: DemoStore) -> DemoResponse {
        let path = Array(request.segments.dropFirst(2))
        let method = request.method
        switch (path.first, path.count) {
        case ("auth", 2) where path[1] == "token":
            return method == "POST" ? token(request, store) : notAllowed(method, path, "POST")
        case ("rootservers", 1), ("rootservers", 2):
            return .message("Endpoint is unavailable when aggregator mode is disabled.", status: 404)
        case ("auth", 2) where ["refresh", "logout"].contains(path[1]),
             ("meetings", 1...3), ("formats", 1...2), ("servicebodies", 1...2), ("users", 1...2):
            break
        default:
            return .prettyMessage("", status: 404)
        }
        if path.count == 3 && path[2] != "changes" { return .prettyMessage("", status: 404) }
        guard let token = request.bearer, let userID = store.user(forToken: token), let user = store.snapshot.user(userID),
              user.type != "deactivated" else {
            return .message("Unauthenticated.", status: 401)
        }
        let caller = Caller(user: user, token: token)
        if path[0] == "auth" {
            guard method == "POST" else { return notAllowed(method, path, "POST") }
            if path[1] == "logout" {
                store.revoke(token)
                return .empty(200)
            }
            let (text, issued) = store.issueToken(for: user.id)
            store.expire(token, in: 10)
            return tokenReply(text, issued)
        }
        if method != "GET" && method != "HEAD" && user.type != "admin" && user.type != "serviceBodyAdmin" {
            return .prettyMessage("This action is unauthorized.", status: 403)
        }
        if path[0] == "meetings" { return DemoRESTMeetings.route(request, path, caller, store) }
        guard method == "GET" || method == "HEAD" else { return notAllowed(method, path, "GET, HEAD") }
        return readOnly(path, store.snapshot)
    }

    /// Laravel's 405 for a method the route does not have.
    static func notAllowed(_ method: String, _ path: [String], _ allowed: String) -> DemoResponse {
        .message("The \(method) method is not supported for route api/v1/\(path.joined(separator: "/")). Supported methods: \(allowed).",
                 status: 405)
    }

    /// A Laravel validation failure: `{"message": first (and N more errors), "errors": {...}}`.
    static func invalid(_ errors: [(String, [String])]) -> DemoResponse {
        let total = errors.reduce(0) { $0 + $1.1.count }
        var message = errors.first?.1.first ?? "The given data was invalid."
        if total > 1 { message += " (and \(total - 1) more error\(total > 2 ? "s" : ""))" }
        return .json(.object([("message", .string(message)),
                              ("errors", .object(errors.map { ($0.0, .array($0.1.map(DemoJSON.string))) }))]), status: 422)
    }

    /// The request body as a JSON object (JSON, or a form body), or nil.
    static func bodyObject(_ request: DemoRequest) -> DemoJSON? {
        if let json = DemoJSON.parse(request.body), case .object = json { return json }
        guard let text = String(data: request.body, encoding: .utf8), text.contains("=") else { return nil }
        let form = DemoQuery(text)
        return .object(["username", "password"].compactMap { key in form.string(key).map { (key, DemoJSON.string($0)) } })
    }

    // MARK: Auth

    private static func token(_ request: DemoRequest, _ store: DemoStore) -> DemoResponse {
        let body = bodyObject(request) ?? .object([])
        var errors: [(String, [String])] = []
        for key in ["username", "password"] where (body[key]?.stringValue ?? "").isEmpty {
            errors.append((key, ["The \(key) field is required."]))
        }
        if !errors.isEmpty { return invalid(errors) }
        let username = body["username"]?.stringValue, password = body["password"]?.stringValue
        guard let user = store.snapshot.users.first(where: { $0.username == username }), let expected = user.password,
              expected == password else {
            return .message("The provided credentials are incorrect.", status: 401)
        }
        if user.type == "deactivated" { return .message("User is deactivated.", status: 403) }
        let (text, issued) = store.issueToken(for: user.id)
        return tokenReply(text, issued)
    }

    private static func tokenReply(_ text: String, _ token: DemoToken) -> DemoResponse {
        .json(.object([("access_token", .string(text)), ("expires_at", .int(Int(token.expires.timeIntervalSince1970))),
                       ("token_type", .string("bearer")), ("user_id", .int(token.userID))]))
    }

    // MARK: Formats, service bodies, users

    private static func readOnly(_ path: [String], _ set: DemoDataSet) -> DemoResponse {
        let id = path.count == 2 ? Int(path[1]) : nil
        if path.count == 2 && id == nil { return .prettyMessage("Not Found", status: 404) }
        let items: [(Int, DemoJSON)]
        switch path[0] {
        case "formats": items = set.formats.map { ($0.id, format($0)) }
        case "servicebodies": items = set.serviceBodies.map { ($0.id, serviceBody($0)) }
        default: items = set.users.map { ($0.id, user($0)) }
        }
        guard let id else { return .json(.array(items.map(\.1))) }
        guard let found = items.first(where: { $0.0 == id }) else { return .prettyMessage("Not Found", status: 404) }
        return .json(found.1)
    }

    static func nullable(_ text: String) -> DemoJSON { text.isEmpty ? .null : .string(text) }

    static func format(_ f: DemoFormat) -> DemoJSON {
        let translations = ["en", "es"].compactMap { lang in
            f.translations[lang].map { t in
                DemoJSON.object([("key", .string(t.key)), ("name", .string(t.name)), ("description", .string(t.description)),
                                 ("language", .string(lang))])
            }
        }
        return .object([("id", .int(f.id)), ("worldId", nullable(f.worldID)), ("type", f.restType.map(DemoJSON.string) ?? .null),
                        ("translations", .array(translations))])
    }

    static func serviceBody(_ b: DemoServiceBody) -> DemoJSON {
        .object([("id", .int(b.id)), ("parentId", b.parentID == 0 ? .null : .int(b.parentID)), ("name", .string(b.name)),
                 ("description", .string(b.description)), ("type", .string(b.type)), ("adminUserId", .int(b.adminUserID)),
                 ("assignedUserIds", .array(b.assignedUserIDs.map(DemoJSON.int))), ("url", .string(b.url)),
                 ("helpline", .string(b.helpline)), ("email", .string("")), ("worldId", .string(b.worldID))])
    }

    static func user(_ u: DemoUser) -> DemoJSON {
        .object([("id", .int(u.id)), ("username", .string(u.username)), ("type", .string(u.type)),
                 ("displayName", .string(u.displayName)), ("description", .string(u.description)), ("email", .string(u.email)),
                 ("ownerId", u.ownerID.map(DemoJSON.int) ?? .null)])
    }
}
