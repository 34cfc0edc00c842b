import Foundation

/// The `async` server-administration names used before they followed "One vocabulary": each was an action's bare
/// verb but `async`, the shape the rule gives the fire-and-forget form. Each forwards to its `AndWait` name and does
/// exactly what it does (Xcode offers the fix-it). In `async` code Swift still picks these for a bare verb; they go in
/// the next major version, leaving the bare verbs to the fire-and-forget forms.
extension BMLTConnection {
    /// Renamed `createFormatAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.createFormatAndWait(format)
    /// ```
    @available(*, deprecated, renamed: "createFormatAndWait(_:)")
    public func createFormat(_ format: BMLTAdminFormat) async throws -> BMLTAdminFormat {
        try await createFormatAndWait(format)
    }

    /// Renamed `updateFormatAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.updateFormatAndWait(format)
    /// ```
    @available(*, deprecated, renamed: "updateFormatAndWait(_:)")
    public func updateFormat(_ format: BMLTAdminFormat) async throws -> BMLTAdminFormat {
        try await updateFormatAndWait(format)
    }

    /// Renamed `patchFormatAndWait(_:from:)`.
    /// ```swift
    /// let result = try await connection.patchFormatAndWait(edited, from: original)
    /// ```
    @available(*, deprecated, renamed: "patchFormatAndWait(_:from:)")
    public func patchFormat(_ format: BMLTAdminFormat, from original: BMLTAdminFormat) async throws -> BMLTAdminFormat {
        try await patchFormatAndWait(format, from: original)
    }

    /// Renamed `deleteFormatAndWait(id:)`.
    /// ```swift
    /// try await connection.deleteFormatAndWait(id: 56)
    /// ```
    @available(*, deprecated, renamed: "deleteFormatAndWait(id:)")
    public func deleteFormat(id: Int) async throws {
        try await deleteFormatAndWait(id: id)
    }

    /// Renamed `createServiceBodyAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.createServiceBodyAndWait(body)
    /// ```
    @available(*, deprecated, renamed: "createServiceBodyAndWait(_:)")
    public func createServiceBody(_ body: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await createServiceBodyAndWait(body)
    }

    /// Renamed `updateServiceBodyAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.updateServiceBodyAndWait(body)
    /// ```
    @available(*, deprecated, renamed: "updateServiceBodyAndWait(_:)")
    public func updateServiceBody(_ body: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await updateServiceBodyAndWait(body)
    }

    /// Renamed `patchServiceBodyAndWait(_:from:)`.
    /// ```swift
    /// let result = try await connection.patchServiceBodyAndWait(edited, from: original)
    /// ```
    @available(*, deprecated, renamed: "patchServiceBodyAndWait(_:from:)")
    public func patchServiceBody(_ body: BMLTAdminServiceBody, from original: BMLTAdminServiceBody) async throws -> BMLTAdminServiceBody {
        try await patchServiceBodyAndWait(body, from: original)
    }

    /// Renamed `deleteServiceBodyAndWait(id:force:)`.
    /// ```swift
    /// try await connection.deleteServiceBodyAndWait(id: 1009, force: true)
    /// ```
    @available(*, deprecated, renamed: "deleteServiceBodyAndWait(id:force:)")
    public func deleteServiceBody(id: Int, force: Bool = false) async throws {
        try await deleteServiceBodyAndWait(id: id, force: force)
    }

    /// Renamed `createUserAndWait(_:password:)`.
    /// ```swift
    /// let result = try await connection.createUserAndWait(user, password: "S3cret-pw!")
    /// ```
    @available(*, deprecated, renamed: "createUserAndWait(_:password:)")
    public func createUser(_ user: BMLTAdminUser, password: BMLTPassword) async throws -> BMLTAdminUser {
        try await createUserAndWait(user, password: password)
    }

    /// Renamed `updateUserAndWait(_:password:)`.
    /// ```swift
    /// let result = try await connection.updateUserAndWait(user)
    /// ```
    @available(*, deprecated, renamed: "updateUserAndWait(_:password:)")
    public func updateUser(_ user: BMLTAdminUser, password: BMLTPassword? = nil) async throws -> BMLTAdminUser {
        try await updateUserAndWait(user, password: password)
    }

    /// Renamed `patchUserAndWait(_:from:password:)`.
    /// ```swift
    /// let result = try await connection.patchUserAndWait(edited, from: original)
    /// ```
    @available(*, deprecated, renamed: "patchUserAndWait(_:from:password:)")
    public func patchUser(_ user: BMLTAdminUser, from original: BMLTAdminUser, password: BMLTPassword? = nil) async throws -> BMLTAdminUser {
        try await patchUserAndWait(user, from: original, password: password)
    }

    /// Renamed `deleteUserAndWait(id:)`.
    /// ```swift
    /// try await connection.deleteUserAndWait(id: 57)
    /// ```
    @available(*, deprecated, renamed: "deleteUserAndWait(id:)")
    public func deleteUser(id: Int) async throws {
        try await deleteUserAndWait(id: id)
    }

    /// Renamed `patchServerSettingsAndWait(_:)`.
    /// ```swift
    /// let result = try await connection.patchServerSettingsAndWait(["language": .string("en")])
    /// ```
    @available(*, deprecated, renamed: "patchServerSettingsAndWait(_:)")
    public func patchServerSettings(_ changes: [String: BMLTJSONValue]) async throws -> BMLTServerSettings {
        try await patchServerSettingsAndWait(changes)
    }
}
