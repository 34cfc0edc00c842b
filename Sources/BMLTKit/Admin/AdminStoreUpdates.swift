import Foundation

/// How administration outcomes reach the stores (on the main actor): the admin store follows the session,
/// and `search` and `changes` reflect saved, deleted and restored meetings without a new search.
extension BMLTConnection {
    /// Stores a validation's results in `server` (from `connect()`/`validate()`, or done on the way to an admin
    /// call, which posts its own outcome instead of `.bmltServerValidated`).
    func store(_ validation: ServerValidation?) {
        guard let validation else { return }
        server.info = validation.info
        server.serviceBodies = validation.serviceBodies
        server.formats = validation.formats
        server.languages = validation.languages
        server.capabilities = validation.capabilities
        server.rootServers = validation.rootServers
        server.isValid = true
        server.lastError = nil
    }

    /// Forgets the user and the permissions.
    func clearLogin() {
        admin.isLoggedIn = false
        admin.user = nil
        admin.permissions = []
        admin.users = []        // only a login may see the accounts and the settings
        admin.settings = nil
        admin.editableMeeting = nil     // the administration read holds hidden fields: a login's only
        admin.lastSave = nil            // so does a save's answer (the meeting as the administration read gives it)
    }

    /// An admin operation failed: `admin.lastError` is set, and when the failure ended the login (a 401, or a
    /// failed login), the store follows and `.bmltAdminLoginChanged(false)` is announced before the error.
    func adminFailed(_ error: BMLTError, _ request: BMLTRequest) -> [BMLTEvent] {
        admin.lastError = error
        guard admin.isLoggedIn, !adminSession.isLoggedIn else { return [] }
        clearLogin()
        return [.adminLoginChanged(isLoggedIn: false, request: request)]
    }

    /// A meeting was saved or rolled back: the copy in the last search is replaced. A field searches hide (contacts,
    /// `email_contact`, `admin_notes`: `EditConflictCheck.hiddenFromSearches`) that the search's copy showed empty stays
    /// empty: the search store is what a search shows, and outlives the login; one it showed (2.x with the
    /// administrator's cookie) takes the saved value.
    func meetingChanged(_ meeting: BMLTMeeting) {
        if let index = search.meetings.firstIndex(where: { $0.id == meeting.id }) {
            var shown = meeting
            for key in EditConflictCheck.hiddenFromSearches where WireMeetingFieldTable.value(key, of: search.meetings[index]) == nil {
                WireMeetingFieldTable.set(key, nil, in: &shown)
            }
            search.meetings[index] = shown
        }
    }

    /// A meeting was deleted: it leaves the last search, and the change list knows it no longer exists.
    func meetingDeleted(_ id: Int) {
        search.meetings.removeAll { $0.id == id }
        setExists(false, meetingID: id)
    }

    /// A deleted meeting came back (under its old id on 2.x, a new one over REST).
    func meetingRestored(_ meeting: BMLTMeeting, from deletion: BMLTChange) {
        if let old = deletion.meetingID, old == meeting.id { setExists(true, meetingID: old) }
        meetingChanged(meeting)
    }

    private func setExists(_ exists: Bool, meetingID: Int) {
        guard changes.changes.contains(where: { $0.meetingID == meetingID && $0.meetingExists != exists }) else { return }
        changes.changes = changes.changes.map { change in
            var change = change
            if change.meetingID == meetingID { change.meetingExists = exists }
            return change
        }
    }
}
