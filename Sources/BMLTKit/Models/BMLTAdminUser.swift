import Foundation

/// A user account as the REST administration interface (`/api/v1/users`) holds it. The password is never
/// part of it: it goes only into the body of a create or update request.
public struct BMLTAdminUser: Sendable, Hashable, Codable, Identifiable {
    /// The id (0 for a user not created yet).
    public var id: Int
    /// The login name.
    public var username: String
    /// The account type as the server writes it (`"admin"`, `"serviceBodyAdmin"`, `"observer"`, `"deactivated"`).
    public var type: String
    /// The name shown to people.
    public var displayName: String
    /// A description.
    public var description: String
    /// The email address.
    public var email: String
    /// The user who owns (created) this account, if any.
    public var ownerID: Int?
    /// When the user last logged in, as the server wrote it (ISO 8601), if known.
    public var lastLoginAt: String?

    /// A user; leave `id` at 0 to create one.
    public init(id: Int = 0, username: String, type: String = "serviceBodyAdmin", displayName: String,
                description: String = "", email: String = "", ownerID: Int? = nil, lastLoginAt: String? = nil) {
        self.id = id
        self.username = username
        self.type = type
        self.displayName = displayName
        self.description = description
        self.email = email
        self.ownerID = ownerID
        self.lastLoginAt = lastLoginAt
    }

    /// The account type as a role.
    public var role: BMLTUserRole { WireRESTAuth.role(type) }
}
