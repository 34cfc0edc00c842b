import Observation

/// The administrator's session, kept up to date on the main actor.
@MainActor
@Observable
public final class BMLTAdminStore {
    /// Whether an administrator is logged in.
    public internal(set) var isLoggedIn = false
    /// The logged-in user, when the server said who it is.
    public internal(set) var user: BMLTUser?
    /// What the login may do, per service body. Empty for a login that can edit nothing (still logged in).
    public internal(set) var permissions: [BMLTPermission] = []
    /// The formats with all translations, from the last server-administration read or change.
    public internal(set) var formats: [BMLTAdminFormat] = []
    /// The service bodies with their users, from the last server-administration read or change.
    public internal(set) var serviceBodies: [BMLTAdminServiceBody] = []
    /// The user accounts, from the last server-administration read or change.
    public internal(set) var users: [BMLTAdminUser] = []
    /// The server settings (4.x), from the last read or change.
    public internal(set) var settings: BMLTServerSettings?
    /// The aggregator's root servers, from the last read.
    public internal(set) var rootServers: [BMLTRootServer] = []
    /// The last meeting deletion that succeeded, and whether the meeting was already gone (with who deleted it and
    /// when, where the change log says): a deletion of a meeting already deleted succeeds.
    public internal(set) var lastDeletion: BMLTMeetingDeletion?
    /// The last meeting save that succeeded (the fire-and-forget form's result, with `changedMeanwhile`: what changed on
    /// the server between the edit-conflict check and the read-back other than by this save).
    public internal(set) var lastSave: BMLTSaveResult?
    /// The draft the last `fetchEditableMeeting(id:)` or `editableMeeting(id:)` made: the meeting as the administration
    /// interface reads it (hidden fields included), ready to edit; `nil` before one and after a logout.
    /// ```swift
    /// connection.fetchEditableMeeting(id: 2339)
    /// if var draft = connection.admin.editableMeeting { draft.comments = "Side door"; connection.save(draft) }
    /// ```
    public internal(set) var editableMeeting: BMLTMeetingDraft?
    /// The last error of an administration operation.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}

    /// Whether the login may edit, delete or roll back `meeting` (a server administrator may edit every meeting;
    /// others need a meeting-list-editor or service-body-administrator permission for its service body).
    public func canEdit(_ meeting: BMLTMeeting) -> Bool {
        canEditMeetings(inServiceBody: meeting.serviceBodyID)
    }

    /// Whether the login may edit and create meetings in the service body with this id.
    public func canEditMeetings(inServiceBody serviceBodyID: Int) -> Bool {
        guard isLoggedIn else { return false }
        if user?.role == .serverAdministrator { return true }
        return permissions.contains { $0.serviceBodyID == serviceBodyID && $0.canEditMeetings }
    }

    /// The permission for one service body, if the login has one.
    public func permission(forServiceBody serviceBodyID: Int) -> BMLTPermission? {
        permissions.first { $0.serviceBodyID == serviceBodyID }
    }
}
