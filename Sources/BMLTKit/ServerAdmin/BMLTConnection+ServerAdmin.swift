import Foundation

/// Server administration over REST (`/api/v1`, root server 3.x and 4.x): formats, service bodies, users,
/// settings and an aggregator's root servers. Every call needs a login (but the root-server reads), and a
/// server with only the legacy `json.php` interface answers `BMLTError.unsupported`.
///
/// Each call has two forms: `perform(_:)` starts it and announces the outcome by notification
/// (`.bmltServerAdminResults` for reads; `.bmltFormatSaved`, `.bmltFormatDeleted`, `.bmltServiceBodySaved`,
/// `.bmltServiceBodyDeleted`, `.bmltUserSaved`, `.bmltUserDeleted`, `.bmltSettingsSaved` for changes; `.bmltError`
/// on failure), and `performAndWait(_:)` returns the value. The typed methods follow "One vocabulary": an action's
/// bare verb starts it (`deleteFormat(id:)` returns a `BMLTRequest`), its `AndWait` form returns the outcome
/// (`deleteFormatAndWait(id:)`); a read's noun returns it (`users()`), `fetch` + the noun starts it (`fetchUsers()`). Both update `admin` (and, for service bodies, the
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

    /// Creates a format and returns it with its new id. The `async` form of `createFormat` (the action's name + `AndWait`).
    /// ```swift
    /// let created = try await connection.createFormatAndWait(format)
    /// ```
    public func createFormatAndWait(_ format: BMLTAdminFormat) async throws -> BMLTAdminFormat { try await self.format(.createFormat(format)) }

    /// Sends only what changed between `original` and `format` (PATCH) and returns the format as saved. The `async` form of `patchFormat` (the action's name + `AndWait`).
    /// ```swift
    /// let saved = try await connection.patchFormatAndWait(edited, from: original)
    /// ```
    public func patchFormatAndWait(_ format: BMLTAdminFormat, from original: BMLTAdminFormat) async throws -> BMLTAdminFormat {
        try await self.format(.patchFormat(format, original: original))
    }

    /// Deletes a format. A format still used by meetings is refused with `BMLTError.conflict`. The `async` form of `deleteFormat` (the action's name + `AndWait`).
    /// ```swift
    /// try await connection.deleteFormatAndWait(id: 56)
    /// ```
    public func deleteFormatAndWait(id: Int) async throws { _ = try await performAndWait(.deleteFormat(id: id)) }

    // MARK: Service bodies

    /// Every service body, with its administrator and assigned users.
    public func adminServiceBodies() async throws -> [BMLTAdminServiceBody] {
        guard case .serviceBodies(let bodies) = try await performAndWait(.serviceBodies) else { throw Self.unexpected }
        return bodies
    }

    /// One service body.
    public func adminServiceBody(id: Int) async throws -> BMLTAdminServiceBody { try await serviceBody(.serviceBody(id: id)) }

    /// Creates a service body and returns it with its new id. The `async` form of `createServiceBody` (the action's name + `AndWait`).
    /// ```swift
    /// let created = try await connection.createServiceBodyAndWait(body)
    /// ```
    public func createServiceBodyAndWait(_ body: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await serviceBody(.createServiceBody(body))
    }

    /// Sends only what changed between `original` and `body` (PATCH). The `async` form of `patchServiceBody` (the action's name + `AndWait`).
    /// ```swift
    /// let saved = try await connection.patchServiceBodyAndWait(edited, from: original)
    /// ```
    public func patchServiceBodyAndWait(_ body: BMLTAdminServiceBody, from original: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await serviceBody(.patchServiceBody(body, original: original))
    }

    /// Deletes a service body; `force` deletes its meetings too. One with children (or, without `force`,
    /// meetings) is refused with `BMLTError.conflict`. The `async` form of `deleteServiceBody` (the action's name + `AndWait`).
    /// ```swift
    /// try await connection.deleteServiceBodyAndWait(id: 1009, force: true)
    /// ```
    public func deleteServiceBodyAndWait(id: Int, force: Bool = false) async throws {
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

    /// Creates a user; the password goes in the request body only. The `async` form of `createUser` (the action's name + `AndWait`).
    /// ```swift
    /// let created = try await connection.createUserAndWait(user, password: "S3cret-pw!")
    /// ```
    public func createUserAndWait(_ user: BMLTAdminUser, password: BMLTPassword) async throws -> BMLTAdminUser {
        try await self.user(.createUser(user, password: password))
    }

    /// Sends only what changed between `original` and `user`, and the password when given (PATCH). The `async` form of `patchUser` (the action's name + `AndWait`).
    /// ```swift
    /// let saved = try await connection.patchUserAndWait(edited, from: original, password: "N3w-pw!")
    /// ```
    public func patchUserAndWait(_ user: BMLTAdminUser, from original: BMLTAdminUser, password: BMLTPassword? = nil) async throws -> BMLTAdminUser {
        try await self.user(.patchUser(user, original: original, password: password))
    }

    /// Deletes a user. A user who owns other users is refused with `BMLTError.conflict`. The `async` form of `deleteUser` (the action's name + `AndWait`).
    /// ```swift
    /// try await connection.deleteUserAndWait(id: 57)
    /// ```
    public func deleteUserAndWait(id: Int) async throws { _ = try await performAndWait(.deleteUser(id: id)) }

    // MARK: Settings and root servers

    /// The server settings (4.x; `BMLTError.unsupported` on 3.x, which has none).
    public func serverSettings() async throws -> BMLTServerSettings { try await settings(.settings) }

    /// Changes the named settings and returns all settings as the server now holds them. The `async` form of `patchServerSettings` (the action's name + `AndWait`).
    /// ```swift
    /// let settings = try await connection.patchServerSettingsAndWait(["language": .string("en")])
    /// ```
    public func patchServerSettingsAndWait(_ changes: [String: BMLTJSONValue]) async throws -> BMLTServerSettings {
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
        var operation = Operation(
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
                    try await RESTServerAdmin(context: context).settled(action, generation: generation)
                }
            },
            succeed: { connection, result, request in
                connection.admin.lastError = nil
                connection.store(result)
                return [action.isRead ? .serverAdminResults(result, request: request) : .serverAdminSaved(result, request: request)]
            },
            fail: { connection, error, request in connection.adminFailed(error, request) }
        )
        operation.outcomeSurvivesCancel = !action.isRead     // cancelled after sending: what the server holds is reported
        return operation
    }
}
