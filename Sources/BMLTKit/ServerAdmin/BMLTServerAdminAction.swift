import Foundation

/// One server-administration call over the REST interface `/api/v1` (root server 3.x and 4.x): formats,
/// service bodies, users, settings and (on aggregators) root servers.
///
/// Start one with `BMLTConnection.perform(_:)` (its outcome is announced by notification) or await it with
/// `BMLTConnection.performAndWait(_:)`; the typed methods (`createFormat(_:)` and `createFormatAndWait(_:)`, `users()`, …) do the same. An edit is a
/// PATCH of what differs from the original (`patchFormat`, `patchServiceBody`, `patchUser`); there is no full replace.
/// Frozen until the next major release: a call added in a 2.x release comes as a method of its own beside
/// `perform(_:)`, so an exhaustive `switch` over the actions compiles through every 2.x release.
public enum BMLTServerAdminAction: Sendable, Hashable {
    /// `GET /formats`: every format with all its translations.
    case formats
    /// `GET /formats/{id}`.
    case format(id: Int)
    /// `POST /formats`; the server gives the new id.
    case createFormat(BMLTAdminFormat)
    /// `PATCH /formats/{id}`: sends only what differs between `original` and the edited format.
    case patchFormat(BMLTAdminFormat, original: BMLTAdminFormat)
    /// `DELETE /formats/{id}`; refused with `BMLTError.conflict` while meetings use the format.
    case deleteFormat(id: Int)

    /// `GET /servicebodies` (with the user ids the read interface does not give).
    case serviceBodies
    /// `GET /servicebodies/{id}`.
    case serviceBody(id: Int)
    /// `POST /servicebodies`.
    case createServiceBody(BMLTAdminServiceBody)
    /// `PATCH /servicebodies/{id}`: only what differs from `original`.
    case patchServiceBody(BMLTAdminServiceBody, original: BMLTAdminServiceBody)
    /// `DELETE /servicebodies/{id}`; `force` deletes its meetings too. Refused with `BMLTError.conflict`
    /// while it has children (or meetings, without `force`).
    case deleteServiceBody(id: Int, force: Bool)
    /// `GET /servicebodies/{id}/editors` (4.x): the users who may edit its meetings.
    case serviceBodyEditors(id: Int)

    /// `GET /users`.
    case users
    /// `GET /users/{id}`.
    case user(id: Int)
    /// `POST /users`; the password goes in the request body only.
    case createUser(BMLTAdminUser, password: BMLTPassword)
    /// `PATCH /users/{id}`: only what differs from `original`, plus the password when given.
    case patchUser(BMLTAdminUser, original: BMLTAdminUser, password: BMLTPassword?)
    /// `DELETE /users/{id}`; refused with `BMLTError.conflict` while the user owns other users.
    case deleteUser(id: Int)

    /// `GET /settings` (4.x; a 3.x server has none: `BMLTError.unsupported`).
    case settings
    /// `PATCH /settings` with the settings to change, by the server's names.
    case patchSettings([String: BMLTJSONValue])

    /// `GET /rootservers` (aggregator mode only; otherwise `BMLTError.unsupported`). Needs no login.
    case rootServers
    /// `GET /rootservers/{id}`. Needs no login.
    case rootServer(id: Int)

    /// Whether the call only reads.
    public var isRead: Bool {
        switch self {
        case .formats, .format, .serviceBodies, .serviceBody, .serviceBodyEditors, .users, .user, .settings,
             .rootServers, .rootServer: true
        default: false
        }
    }
}

/// What a server-administration call gave back. Frozen until the next major release, as ``BMLTServerAdminAction`` is.
public enum BMLTServerAdminResult: Sendable, Hashable {
    /// Formats read.
    case formats([BMLTAdminFormat])
    /// One format read, created or saved (as the server holds it afterwards).
    case format(BMLTAdminFormat, wasCreated: Bool)
    /// A format deleted.
    case formatDeleted(id: Int)
    /// Service bodies read.
    case serviceBodies([BMLTAdminServiceBody])
    /// One service body read, created or saved.
    case serviceBody(BMLTAdminServiceBody, wasCreated: Bool)
    /// A service body deleted.
    case serviceBodyDeleted(id: Int)
    /// A service body's editors.
    case serviceBodyEditors(serviceBodyID: Int, [BMLTServiceBodyEditor])
    /// Users read.
    case users([BMLTAdminUser])
    /// One user read, created or saved.
    case user(BMLTAdminUser, wasCreated: Bool)
    /// A user deleted.
    case userDeleted(id: Int)
    /// The server settings (read, or after a change).
    case settings(BMLTServerSettings)
    /// The aggregator's root servers.
    case rootServers([BMLTRootServer])
    /// One root server.
    case rootServer(BMLTRootServer)
}
