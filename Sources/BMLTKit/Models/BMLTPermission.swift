/// What the logged-in administrator may do in one service body.
///
/// `connection.admin.permissions` holds one for each service body the login can see; a login that can edit
/// nothing has an empty list (or only `.observer` entries) and is still logged in.
public struct BMLTPermission: Sendable, Hashable, Codable, Identifiable {
    /// The service body's id.
    public var serviceBodyID: Int
    /// The service body's name, when the server said.
    public var serviceBodyName: String?
    /// What the login may do there.
    public var level: BMLTPermissionLevel

    /// The service body's id.
    public var id: Int { serviceBodyID }

    /// Whether this permission allows editing, creating and deleting the service body's meetings.
    public var canEditMeetings: Bool { level >= .meetingListEditor }

    /// A permission value.
    public init(serviceBodyID: Int, serviceBodyName: String? = nil, level: BMLTPermissionLevel) {
        self.serviceBodyID = serviceBodyID
        self.serviceBodyName = serviceBodyName
        self.level = level
    }
}

/// How much a login may do in a service body, from least to most (the legacy interface's numbers).
public enum BMLTPermissionLevel: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// May see the service body's meetings, including hidden fields, but change nothing (1).
    case observer = 1
    /// May edit, create and delete the service body's meetings (2).
    case meetingListEditor = 2
    /// May also change the service body itself (3).
    case serviceBodyAdministrator = 3

    /// Orders from `observer` to `serviceBodyAdministrator`.
    public static func < (lhs: BMLTPermissionLevel, rhs: BMLTPermissionLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
