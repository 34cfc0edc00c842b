import Foundation

/// The fire-and-forget forms of server administration (see "One vocabulary"): each starts its call and returns its
/// `BMLTRequest`; the outcome arrives by notification (`.bmltServerAdminResults` for reads; `.bmltFormatSaved`, …
/// for changes; `.bmltError`) and in the `admin` store. Each is `perform(_:)` with the matching `BMLTServerAdminAction`.
///
/// A bare verb is the fire-and-forget form everywhere, in `async` code too (`connection.deleteFormat(id: 56)` returns
/// its `BMLTRequest` without `await`); the `AndWait` form waits for the outcome. Edits send only what changed (PATCH,
/// `patchFormat(_:from:)`): a field another administrator changed meanwhile is left as they saved it.
extension BMLTConnection {
    /// Creates a format; announced by `.bmltFormatSaved` (or `.bmltError`). The fire-and-forget form of `createFormatAndWait(_:)`.
    /// ```swift
    /// connection.createFormat(format)
    /// ```
    @discardableResult
    public func createFormat(_ format: BMLTAdminFormat) -> BMLTRequest {
        perform(.createFormat(format))
    }

    /// Sends only what changed in a format (PATCH); announced by `.bmltFormatSaved` (or `.bmltError`). The fire-and-forget form of `patchFormatAndWait(_:from:)`.
    /// ```swift
    /// connection.patchFormat(edited, from: original)
    /// ```
    @discardableResult
    public func patchFormat(_ format: BMLTAdminFormat, from original: BMLTAdminFormat) -> BMLTRequest {
        perform(.patchFormat(format, original: original))
    }

    /// Deletes a format (one still used by meetings is refused with `BMLTError.conflict`); announced by `.bmltFormatDeleted` (or `.bmltError`). The fire-and-forget form of `deleteFormatAndWait(id:)`.
    /// ```swift
    /// connection.deleteFormat(id: 56)
    /// ```
    @discardableResult
    public func deleteFormat(id: Int) -> BMLTRequest {
        perform(.deleteFormat(id: id))
    }

    /// Creates a service body; announced by `.bmltServiceBodySaved` (or `.bmltError`). The fire-and-forget form of `createServiceBodyAndWait(_:)`.
    /// ```swift
    /// connection.createServiceBody(body)
    /// ```
    @discardableResult
    public func createServiceBody(_ body: BMLTAdminServiceBody) -> BMLTRequest {
        perform(.createServiceBody(body))
    }

    /// Sends only what changed in a service body (PATCH); announced by `.bmltServiceBodySaved` (or `.bmltError`). The fire-and-forget form of `patchServiceBodyAndWait(_:from:)`.
    /// ```swift
    /// connection.patchServiceBody(edited, from: original)
    /// ```
    @discardableResult
    public func patchServiceBody(_ body: BMLTAdminServiceBody, from original: BMLTAdminServiceBody) -> BMLTRequest {
        perform(.patchServiceBody(body, original: original))
    }

    /// Deletes a service body; `force` deletes its meetings too; announced by `.bmltServiceBodyDeleted` (or `.bmltError`). The fire-and-forget form of `deleteServiceBodyAndWait(id:force:)`.
    /// ```swift
    /// connection.deleteServiceBody(id: 1009, force: true)
    /// ```
    @discardableResult
    public func deleteServiceBody(id: Int, force: Bool = false) -> BMLTRequest {
        perform(.deleteServiceBody(id: id, force: force))
    }

    /// Creates a user (the password goes in the request body only); announced by `.bmltUserSaved` (or `.bmltError`). The fire-and-forget form of `createUserAndWait(_:password:)`.
    /// ```swift
    /// connection.createUser(user, password: "S3cret-pw!")
    /// ```
    @discardableResult
    public func createUser(_ user: BMLTAdminUser, password: BMLTPassword) -> BMLTRequest {
        perform(.createUser(user, password: password))
    }

    /// Sends only what changed in a user, and the password when given (PATCH); announced by `.bmltUserSaved` (or `.bmltError`). The fire-and-forget form of `patchUserAndWait(_:from:password:)`.
    /// ```swift
    /// connection.patchUser(edited, from: original)
    /// ```
    @discardableResult
    public func patchUser(_ user: BMLTAdminUser, from original: BMLTAdminUser, password: BMLTPassword? = nil) -> BMLTRequest {
        perform(.patchUser(user, original: original, password: password))
    }

    /// Deletes a user (one who owns other users is refused with `BMLTError.conflict`); announced by `.bmltUserDeleted` (or `.bmltError`). The fire-and-forget form of `deleteUserAndWait(id:)`.
    /// ```swift
    /// connection.deleteUser(id: 57)
    /// ```
    @discardableResult
    public func deleteUser(id: Int) -> BMLTRequest {
        perform(.deleteUser(id: id))
    }

    /// Changes the named server settings (4.x); announced by `.bmltSettingsSaved` (or `.bmltError`). The fire-and-forget form of `patchServerSettingsAndWait(_:)`.
    /// ```swift
    /// connection.patchServerSettings(["language": .string("en")])
    /// ```
    @discardableResult
    public func patchServerSettings(_ changes: [String: BMLTJSONValue]) -> BMLTRequest {
        perform(.patchSettings(changes))
    }

    /// Every format with all its translations, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `adminFormats()`.
    /// ```swift
    /// connection.fetchAdminFormats()
    /// ```
    @discardableResult
    public func fetchAdminFormats() -> BMLTRequest {
        perform(.formats)
    }

    /// One format, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `adminFormat(id:)`.
    /// ```swift
    /// connection.fetchAdminFormat(id: 2)
    /// ```
    @discardableResult
    public func fetchAdminFormat(id: Int) -> BMLTRequest {
        perform(.format(id: id))
    }

    /// Every service body, with its administrator and assigned users, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `adminServiceBodies()`.
    /// ```swift
    /// connection.fetchAdminServiceBodies()
    /// ```
    @discardableResult
    public func fetchAdminServiceBodies() -> BMLTRequest {
        perform(.serviceBodies)
    }

    /// One service body, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `adminServiceBody(id:)`.
    /// ```swift
    /// connection.fetchAdminServiceBody(id: 2)
    /// ```
    @discardableResult
    public func fetchAdminServiceBody(id: Int) -> BMLTRequest {
        perform(.serviceBody(id: id))
    }

    /// The users who may edit a service body's meetings (4.x), announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `serviceBodyEditors(id:)`.
    /// ```swift
    /// connection.fetchServiceBodyEditors(id: 2)
    /// ```
    @discardableResult
    public func fetchServiceBodyEditors(id: Int) -> BMLTRequest {
        perform(.serviceBodyEditors(id: id))
    }

    /// Every user account the login may see, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `users()`.
    /// ```swift
    /// connection.fetchUsers()
    /// ```
    @discardableResult
    public func fetchUsers() -> BMLTRequest {
        perform(.users)
    }

    /// One user, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `user(id:)`.
    /// ```swift
    /// connection.fetchUser(id: 2)
    /// ```
    @discardableResult
    public func fetchUser(id: Int) -> BMLTRequest {
        perform(.user(id: id))
    }

    /// The server settings (4.x), announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `serverSettings()`.
    /// ```swift
    /// connection.fetchServerSettings()
    /// ```
    @discardableResult
    public func fetchServerSettings() -> BMLTRequest {
        perform(.settings)
    }

    /// One of an aggregator's root servers, announced by `.bmltServerAdminResults` (or `.bmltError`): the fire-and-forget form of `rootServer(id:)`.
    /// ```swift
    /// connection.fetchRootServer(id: 2)
    /// ```
    @discardableResult
    public func fetchRootServer(id: Int) -> BMLTRequest {
        perform(.rootServer(id: id))
    }
}
