/// The user an administrator logged in as.
///
/// Holds no secret: the password is never kept, and the login token lives only inside the connection.
public struct BMLTUser: Sendable, Hashable, Codable, Identifiable {
    /// The user's id on the root server.
    public var id: Int
    /// The login name, when the server said (REST only).
    public var username: String?
    /// The name shown to people, e.g. "Nassau Area Administrator".
    public var displayName: String?
    /// What kind of account it is.
    public var role: BMLTUserRole

    /// A user value.
    public init(id: Int, username: String? = nil, displayName: String? = nil, role: BMLTUserRole) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.role = role
    }
}

/// The kind of a root server account.
public enum BMLTUserRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The server administrator: may do everything (refused by the legacy 2.x interface).
    case serverAdministrator
    /// A service body administrator: edits the meetings of the service bodies assigned to them.
    case serviceBodyAdministrator
    /// An observer: sees hidden fields, changes nothing.
    case observer
    /// A deactivated account.
    case deactivated
    /// A kind this version of BMLTKit does not know.
    case unknown
}
