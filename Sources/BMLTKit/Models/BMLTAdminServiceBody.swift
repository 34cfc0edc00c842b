import Foundation

/// A service body as the REST administration interface (`/api/v1/servicebodies`) holds it, with the users who
/// administer it. (The read interface's `BMLTServiceBody` has no user ids.)
public struct BMLTAdminServiceBody: Sendable, Hashable, Codable, Identifiable {
    /// The id (0 for a service body not created yet).
    public var id: Int
    /// The parent service body's id; `nil` at the top.
    public var parentID: Int?
    /// The name.
    public var name: String
    /// The description.
    public var description: String
    /// The type code as the server writes it (`"RS"`, `"AS"`, `"ZF"`, …).
    public var type: String
    /// The user who administers it (the "primary administrator").
    public var adminUserID: Int
    /// The other users who may edit its meetings.
    public var assignedUserIDs: [Int]
    /// Its web site, as typed.
    public var url: String
    /// Its helpline.
    public var helpline: String
    /// Its contact email.
    public var email: String
    /// Its NAWS world id.
    public var worldID: String

    /// A service body; leave `id` at 0 to create one.
    public init(id: Int = 0, parentID: Int? = nil, name: String, description: String = "", type: String = "AS",
                adminUserID: Int, assignedUserIDs: [Int] = [], url: String = "", helpline: String = "", email: String = "",
                worldID: String = "") {
        self.id = id
        self.parentID = parentID
        self.name = name
        self.description = description
        self.type = type
        self.adminUserID = adminUserID
        self.assignedUserIDs = assignedUserIDs
        self.url = url
        self.helpline = helpline
        self.email = email
        self.worldID = worldID
    }

    /// The same service body as the read interface describes it (for the `server` store's list and tree).
    public var serviceBody: BMLTServiceBody {
        BMLTServiceBody(id: id, parentID: parentID, name: name, description: description,
                        type: BMLTServiceBodyType(rawValue: type), url: WireURL.parse(url),
                        helpline: helpline.isEmpty ? nil : helpline, worldID: worldID.isEmpty ? nil : worldID,
                        email: email.isEmpty ? nil : email)
    }
}

/// A user allowed to edit a service body's meetings (`/api/v1/servicebodies/{id}/editors`).
public struct BMLTServiceBodyEditor: Sendable, Hashable, Codable, Identifiable {
    /// The user's id.
    public var userID: Int
    /// The user's display name.
    public var displayName: String
    /// Whether the user may only read (an observer).
    public var isReadOnly: Bool
    /// The user's id.
    public var id: Int { userID }

    /// An editor.
    public init(userID: Int, displayName: String, isReadOnly: Bool) {
        self.userID = userID
        self.displayName = displayName
        self.isReadOnly = isReadOnly
    }
}
