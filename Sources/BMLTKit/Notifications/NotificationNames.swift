import Foundation

extension Notification.Name {
    /// Posted when the connection's in-flight count goes from 0 to 1 (after `progressStartDelay`). No payload.
    public static let bmltProgressDidStart = Notification.Name("org.bmlt.kit.progress.didStart")
    /// Posted when the in-flight count returns to 0 (after `progressStopDelay`). No payload.
    public static let bmltProgressDidStop = Notification.Name("org.bmlt.kit.progress.didStop")
    /// Posted when validation ends, valid or not: `bmltIsServerValid`, `bmltServerInfo`, `bmltError` on failure.
    public static let bmltServerValidated = Notification.Name("org.bmlt.kit.server.validated")
    /// Posted when a meeting search ends: `bmltMeetings`, `bmltRequest`.
    public static let bmltMeetingSearchResults = Notification.Name("org.bmlt.kit.search.meetings")
    /// Posted when formats arrive from a search or a format query: `bmltFormats`, `bmltIsAllUsedFormats`.
    public static let bmltFormatSearchResults = Notification.Name("org.bmlt.kit.search.formats")
    /// Posted when a change query ends: `bmltChanges`.
    public static let bmltChangeListResults = Notification.Name("org.bmlt.kit.changes.results")
    /// Posted when an edit is saved (or a meeting rolled back): `bmltMeeting`, `bmltFieldChanges`.
    public static let bmltMeetingSaved = Notification.Name("org.bmlt.kit.meeting.saved")
    /// Posted when a meeting is created or restored: `bmltMeeting`.
    public static let bmltMeetingAdded = Notification.Name("org.bmlt.kit.meeting.added")
    /// Posted when a meeting is deleted: `bmltMeetingID`.
    public static let bmltMeetingDeleted = Notification.Name("org.bmlt.kit.meeting.deleted")
    /// Posted when a message to a meeting contact ends: `bmltMessageSent`.
    public static let bmltMessageSent = Notification.Name("org.bmlt.kit.message.sent")
    /// Posted on login and logout (also when the server ends the login): `bmltIsLoggedIn`.
    public static let bmltAdminLoginChanged = Notification.Name("org.bmlt.kit.admin.loginChanged")
    /// Posted when a request is cancelled (instead of `.bmltError`): `bmltRequest`.
    public static let bmltRequestCancelled = Notification.Name("org.bmlt.kit.request.cancelled")
    /// Posted when any operation fails: `bmltError`, `bmltRequest`.
    public static let bmltError = Notification.Name("org.bmlt.kit.error")

    /// Posted when a service-body query ends: `bmltServiceBodies`.
    public static let bmltServiceBodyResults = Notification.Name("org.bmlt.kit.serviceBodies.results")
    /// Posted when a field-keys query ends: `bmltFieldKeys`.
    public static let bmltFieldKeyResults = Notification.Name("org.bmlt.kit.fieldKeys.results")
    /// Posted when a field-values query ends: `bmltFieldKey`, `bmltFieldValues`.
    public static let bmltFieldValueResults = Notification.Name("org.bmlt.kit.fieldValues.results")
    /// Posted when the coverage-area query ends: `bmltCoverageArea`.
    public static let bmltCoverageAreaResults = Notification.Name("org.bmlt.kit.coverageArea.results")
    /// Posted when a NAWS export ends: `bmltNAWSExport`.
    public static let bmltNAWSExportResults = Notification.Name("org.bmlt.kit.nawsExport.results")

    /// Posted when a server-administration read ends: `bmltServerAdminResult`.
    public static let bmltServerAdminResults = Notification.Name("org.bmlt.kit.serverAdmin.results")
    /// Posted when a format is created or saved: `bmltAdminFormat`, `bmltWasCreated`.
    public static let bmltFormatSaved = Notification.Name("org.bmlt.kit.format.saved")
    /// Posted when a format is deleted: `bmltDeletedID`.
    public static let bmltFormatDeleted = Notification.Name("org.bmlt.kit.format.deleted")
    /// Posted when a service body is created or saved: `bmltAdminServiceBody`, `bmltWasCreated`.
    public static let bmltServiceBodySaved = Notification.Name("org.bmlt.kit.serviceBody.saved")
    /// Posted when a service body is deleted: `bmltDeletedID`.
    public static let bmltServiceBodyDeleted = Notification.Name("org.bmlt.kit.serviceBody.deleted")
    /// Posted when a user is created or saved: `bmltAdminUser`, `bmltWasCreated` (never a password).
    public static let bmltUserSaved = Notification.Name("org.bmlt.kit.user.saved")
    /// Posted when a user is deleted: `bmltDeletedID`.
    public static let bmltUserDeleted = Notification.Name("org.bmlt.kit.user.deleted")
    /// Posted when server settings are changed: `bmltServerSettings`.
    public static let bmltSettingsSaved = Notification.Name("org.bmlt.kit.settings.saved")

    /// Every BMLTKit notification name, for observers that want them all (as the sample CLI does).
    public static let bmltAllNotifications: [Notification.Name] = [
        .bmltProgressDidStart, .bmltProgressDidStop, .bmltServerValidated, .bmltMeetingSearchResults,
        .bmltFormatSearchResults, .bmltChangeListResults, .bmltMeetingSaved, .bmltMeetingAdded,
        .bmltMeetingDeleted, .bmltMessageSent, .bmltAdminLoginChanged, .bmltRequestCancelled, .bmltError,
        .bmltServiceBodyResults, .bmltFieldKeyResults, .bmltFieldValueResults, .bmltCoverageAreaResults,
        .bmltNAWSExportResults, .bmltServerAdminResults, .bmltFormatSaved, .bmltFormatDeleted, .bmltServiceBodySaved,
        .bmltServiceBodyDeleted, .bmltUserSaved, .bmltUserDeleted, .bmltSettingsSaved,
    ]
}
