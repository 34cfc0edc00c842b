import Foundation

/// Server administration over REST (`/api/v1`, root server 3.x and 4.x): formats, service bodies, users,
/// settings and an aggregator's root servers. Every call needs a login (but the root-server reads), and a
/// server with only the legacy `json.php` interface answers `BMLTError.unsupported`.
///
/// Each call has two forms: `perform(_:)` starts it and announces the outcome by notification
/// (`.bmltServerAdminResults` for reads; `.bmltFormatSaved`, `.bmltFormatDeleted`, `.bmltServiceBodySaved`,
/// `.bmltServiceBodyDeleted`, `.bmltUserSaved`, `.bmltUserDeleted`, `.bmltSettingsSaved` for changes; `.bmltError`
/// on failure), and `performAndWait(_:)` (with its typed shortcuts) returns the value. Both update `admin` (and, for service bodies, the
/// `server` store's list and tree). Refusals are typed: `.forbidden` (403), `.validationFailed` with the field
/// errors (422), `.conflict` naming what is still in use (409), `.notFound` (404).
extension BMLTConnection {
    /// Starts a server-administration call; its outcome is announced by notification.
    /// ```swift
    /// connection.perform(.deleteFormat(id: 56))     // → .bmltFormatDeleted, or .bmltError
    /// ```
    @discardableResult
    public func perform(_ action: BMLTServerAdminAction) -> BMLTRequest {
        start(Self.serverAdminOperation(action))
    }

    /// Runs a server-administration call and returns what it gave back (also announced, as `perform(_:)` does):
    /// the `async` form of `perform(_:)` (the fire-and-forget name + `AndWait`). The typed methods below
    /// (`createFormat(_:)`, `users()`, …) are shortcuts for it.
    /// ```swift
    /// if case .users(let users) = try await connection.performAndWait(.users) { print(users.count) }
    /// ```
    public func performAndWait(_ action: BMLTServerAdminAction) async throws -> BMLTServerAdminResult {
        try await run(Self.serverAdminOperation(action))
    }

    // MARK: Formats

    /// Every format with all its translations.
    public func adminFormats() async throws -> [BMLTAdminFormat] {
        guard case .formats(let formats) = try await performAndWait(.formats) else { throw Self.unexpected }
        return formats
    }

    /// One format.
    public func adminFormat(id: Int) async throws -> BMLTAdminFormat { try await format(.format(id: id)) }

    /// Creates a format and returns it with its new id.
    public func createFormat(_ format: BMLTAdminFormat) async throws -> BMLTAdminFormat { try await self.format(.createFormat(format)) }

    /// Replaces a format (PUT) and returns it as the server holds it.
    public func updateFormat(_ format: BMLTAdminFormat) async throws -> BMLTAdminFormat { try await self.format(.updateFormat(format)) }

    /// Sends only what changed between `original` and `format` (PATCH) and returns the format as saved.
    public func patchFormat(_ format: BMLTAdminFormat, from original: BMLTAdminFormat) async throws -> BMLTAdminFormat {
        try await self.format(.patchFormat(format, original: original))
    }

    /// Deletes a format. A format still used by meetings is refused with `BMLTError.conflict`.
    public func deleteFormat(id: Int) async throws { _ = try await performAndWait(.deleteFormat(id: id)) }

    // MARK: Service bodies

    /// Every service body, with its administrator and assigned users.
    public func adminServiceBodies() async throws -> [BMLTAdminServiceBody] {
        guard case .serviceBodies(let bodies) = try await performAndWait(.serviceBodies) else { throw Self.unexpected }
        return bodies
    }

    /// One service body.
    public func adminServiceBody(id: Int) async throws -> BMLTAdminServiceBody { try await serviceBody(.serviceBody(id: id)) }

    /// Creates a service body and returns it with its new id.
    public func createServiceBody(_ body: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await serviceBody(.createServiceBody(body))
    }

    /// Replaces a service body (PUT).
    public func updateServiceBody(_ body: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await serviceBody(.updateServiceBody(body))
    }

    /// Sends only what changed between `original` and `body` (PATCH).
    public func patchServiceBody(_ body: BMLTAdminServiceBody, from original: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await serviceBody(.patchServiceBody(body, original: original))
    }

    /// Deletes a service body; `force` deletes its meetings too. One with children (or, without `force`,
    /// meetings) is refused with `BMLTError.conflict`.
    public func deleteServiceBody(id: Int, force: Bool = false) async throws {
        _ = try await performAndWait(.deleteServiceBody(id: id, force: force))
    }

    /// The users who may edit a service body's meetings (4.x).
    public func serviceBodyEditors(id: Int) async throws -> [BMLTServiceBodyEditor] {
        guard case .serviceBodyEditors(_, let editors) = try await performAndWait(.serviceBodyEditors(id: id)) else { throw Self.unexpected }
        return editors
    }

    // MARK: Users

    /// Every user account the login may see.
    public func users() async throws -> [BMLTAdminUser] {
        guard case .users(let users) = try await performAndWait(.users) else { throw Self.unexpected }
        return users
    }

    /// One user.
    public func user(id: Int) async throws -> BMLTAdminUser { try await user(.user(id: id)) }

    /// Creates a user; the password goes in the request body only.
    public func createUser(_ user: BMLTAdminUser, password: BMLTPassword) async throws -> BMLTAdminUser {
        try await self.user(.createUser(user, password: password))
    }

    /// Replaces a user (PUT); `password` `nil` keeps the current one.
    public func updateUser(_ user: BMLTAdminUser, password: BMLTPassword? = nil) async throws -> BMLTAdminUser {
        try await self.user(.updateUser(user, password: password))
    }

    /// Sends only what changed between `original` and `user`, and the password when given (PATCH).
    public func patchUser(_ user: BMLTAdminUser, from original: BMLTAdminUser, password: BMLTPassword? = nil) async throws -> BMLTAdminUser {
        try await self.user(.patchUser(user, original: original, password: password))
    }

    /// Deletes a user. A user who owns other users is refused with `BMLTError.conflict`.
    public func deleteUser(id: Int) async throws { _ = try await performAndWait(.deleteUser(id: id)) }

    // MARK: Settings and root servers

    /// The server settings (4.x; `BMLTError.unsupported` on 3.x, which has none).
    public func serverSettings() async throws -> BMLTServerSettings { try await settings(.settings) }

    /// Changes the named settings and returns all settings as the server now holds them.
    public func patchServerSettings(_ changes: [String: BMLTJSONValue]) async throws -> BMLTServerSettings {
        try await settings(.patchSettings(changes))
    }

    /// An aggregator's root servers (`BMLTError.unsupported` when aggregator mode is off).
    public func rootServers() async throws -> [BMLTRootServer] {
        guard case .rootServers(let servers) = try await performAndWait(.rootServers) else { throw Self.unexpected }
        return servers
    }

    /// One of an aggregator's root servers.
    public func rootServer(id: Int) async throws -> BMLTRootServer {
        guard case .rootServer(let server) = try await performAndWait(.rootServer(id: id)) else { throw Self.unexpected }
        return server
    }

    // MARK: - Helpers

    private static let unexpected = BMLTError.malformedResponse(what: .serverAdministration, detail: .unexpectedResult)

    private func format(_ action: BMLTServerAdminAction) async throws -> BMLTAdminFormat {
        guard case .format(let format, _) = try await performAndWait(action) else { throw Self.unexpected }
        return format
    }

    private func serviceBody(_ action: BMLTServerAdminAction) async throws -> BMLTAdminServiceBody {
        guard case .serviceBody(let body, _) = try await performAndWait(action) else { throw Self.unexpected }
        return body
    }

    private func user(_ action: BMLTServerAdminAction) async throws -> BMLTAdminUser {
        guard case .user(let user, _) = try await performAndWait(action) else { throw Self.unexpected }
        return user
    }

    private func settings(_ action: BMLTServerAdminAction) async throws -> BMLTServerSettings {
        guard case .settings(let settings) = try await performAndWait(action) else { throw Self.unexpected }
        return settings
    }

    static func serverAdminOperation(_ action: BMLTServerAdminAction) -> Operation<BMLTServerAdminResult> {
        Operation(
            kind: .serverAdministration,
            work: { context throws(BMLTError) in
                if case .rootServers = action { return try await RESTServerAdmin(context: context).run(action) }
                if case .rootServer = action { return try await RESTServerAdmin(context: context).run(action) }
                if !action.isRead { try AggregatorRefusal.writes(context.serverInfo, .serverAdministrationChanges) }
                let (route, generation) = try await AdminGateway.loggedIn(context, for: .serverAdministrationAccess)
                guard route.kind == .rest else {
                    throw .unsupported(.serverAdministration)
                }
                return try await AdminGateway.guarded(context, generation: generation) { () async throws(BMLTError) in
                    try await RESTServerAdmin(context: context).run(action)
                }
            },
            succeed: { connection, result, request in
                connection.admin.lastError = nil
                connection.store(result)
                return [action.isRead ? .serverAdminResults(result, request: request) : .serverAdminSaved(result, request: request)]
            },
            fail: { connection, error, request in connection.adminFailed(error, request) }
        )
    }
}
