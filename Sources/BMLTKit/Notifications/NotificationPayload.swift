import Foundation

/// The userInfo keys. Private to this file: payloads are read through the typed accessors below.
private enum PayloadKey {
    static let isServerValid = "org.bmlt.kit.isServerValid"
    static let serverInfo = "org.bmlt.kit.serverInfo"
    static let meetings = "org.bmlt.kit.meetings"
    static let formats = "org.bmlt.kit.formats"
    static let isAllUsedFormats = "org.bmlt.kit.isAllUsedFormats"
    static let changes = "org.bmlt.kit.changes"
    static let meeting = "org.bmlt.kit.meeting"
    static let meetingID = "org.bmlt.kit.meetingID"
    static let fieldChanges = "org.bmlt.kit.fieldChanges"
    static let messageSent = "org.bmlt.kit.messageSent"
    static let isLoggedIn = "org.bmlt.kit.isLoggedIn"
    static let error = "org.bmlt.kit.error"
    static let request = "org.bmlt.kit.request"
    static let serviceBodies = "org.bmlt.kit.serviceBodies"
    static let fieldKeys = "org.bmlt.kit.fieldKeys"
    static let fieldKey = "org.bmlt.kit.fieldKey"
    static let fieldValues = "org.bmlt.kit.fieldValues"
    static let coverageArea = "org.bmlt.kit.coverageArea"
    static let nawsExport = "org.bmlt.kit.nawsExport"
    static let event = "org.bmlt.kit.event"
    static let serverAdminResult = "org.bmlt.kit.serverAdminResult"
    static let adminFormat = "org.bmlt.kit.adminFormat"
    static let adminServiceBody = "org.bmlt.kit.adminServiceBody"
    static let adminUser = "org.bmlt.kit.adminUser"
    static let wasCreated = "org.bmlt.kit.wasCreated"
    static let deletedID = "org.bmlt.kit.deletedID"
    static let serverSettings = "org.bmlt.kit.serverSettings"
}

extension BMLTEvent {
    /// The notification name this event is posted under.
    public var notificationName: Notification.Name {
        switch self {
        case .progressDidStart: .bmltProgressDidStart
        case .progressDidStop: .bmltProgressDidStop
        case .serverValidated: .bmltServerValidated
        case .meetingSearchResults: .bmltMeetingSearchResults
        case .formatSearchResults: .bmltFormatSearchResults
        case .changeListResults: .bmltChangeListResults
        case .meetingSaved: .bmltMeetingSaved
        case .meetingAdded: .bmltMeetingAdded
        case .meetingDeleted: .bmltMeetingDeleted
        case .messageSent: .bmltMessageSent
        case .adminLoginChanged: .bmltAdminLoginChanged
        case .requestCancelled: .bmltRequestCancelled
        case .error: .bmltError
        case .serviceBodyResults: .bmltServiceBodyResults
        case .fieldKeyResults: .bmltFieldKeyResults
        case .fieldValueResults: .bmltFieldValueResults
        case .coverageAreaResults: .bmltCoverageAreaResults
        case .nawsExportResults: .bmltNAWSExportResults
        case .serverAdminResults: .bmltServerAdminResults
        case .serverAdminSaved(let result, _):
            switch result {
            case .formatDeleted: .bmltFormatDeleted
            case .serviceBody: .bmltServiceBodySaved
            case .serviceBodyDeleted: .bmltServiceBodyDeleted
            case .user: .bmltUserSaved
            case .userDeleted: .bmltUserDeleted
            case .settings: .bmltSettingsSaved
            default: .bmltFormatSaved
            }
        }
    }

    /// The userInfo dictionary of the notification (keys private; read with the typed accessors).
    var userInfo: [String: any Sendable] {
        var info: [String: any Sendable] = [PayloadKey.event: self]
        if let request { info[PayloadKey.request] = request }
        switch self {
        case .progressDidStart, .progressDidStop, .requestCancelled: break
        case .serverValidated(let isValid, let serverInfo, let error, _):
            info[PayloadKey.isServerValid] = isValid
            if let serverInfo { info[PayloadKey.serverInfo] = serverInfo }
            if let error { info[PayloadKey.error] = error }
        case .meetingSearchResults(let meetings, _): info[PayloadKey.meetings] = meetings
        case .formatSearchResults(let formats, let isAllUsedFormats, _):
            info[PayloadKey.formats] = formats
            info[PayloadKey.isAllUsedFormats] = isAllUsedFormats
        case .changeListResults(let changes, _): info[PayloadKey.changes] = changes
        case .meetingSaved(let meeting, let fieldChanges, _):
            info[PayloadKey.meeting] = meeting
            info[PayloadKey.meetingID] = meeting.id
            info[PayloadKey.fieldChanges] = fieldChanges
        case .meetingAdded(let meeting, _):
            info[PayloadKey.meeting] = meeting
            info[PayloadKey.meetingID] = meeting.id
        case .meetingDeleted(let id, _): info[PayloadKey.meetingID] = id
        case .messageSent(let sent, _): info[PayloadKey.messageSent] = sent
        case .adminLoginChanged(let isLoggedIn, _): info[PayloadKey.isLoggedIn] = isLoggedIn
        case .error(let error, _): info[PayloadKey.error] = error
        case .serviceBodyResults(let bodies, _): info[PayloadKey.serviceBodies] = bodies
        case .fieldKeyResults(let keys, _): info[PayloadKey.fieldKeys] = keys
        case .fieldValueResults(let key, let values, _):
            info[PayloadKey.fieldKey] = key
            info[PayloadKey.fieldValues] = values
        case .coverageAreaResults(let area, _): info[PayloadKey.coverageArea] = area
        case .nawsExportResults(let export, _): info[PayloadKey.nawsExport] = export
        case .serverAdminResults(let result, _), .serverAdminSaved(let result, _):
            info[PayloadKey.serverAdminResult] = result
            switch result {
            case .format(let format, let wasCreated):
                info[PayloadKey.adminFormat] = format
                info[PayloadKey.wasCreated] = wasCreated
            case .serviceBody(let body, let wasCreated):
                info[PayloadKey.adminServiceBody] = body
                info[PayloadKey.wasCreated] = wasCreated
            case .user(let user, let wasCreated):
                info[PayloadKey.adminUser] = user
                info[PayloadKey.wasCreated] = wasCreated
            case .formatDeleted(let id), .serviceBodyDeleted(let id), .userDeleted(let id): info[PayloadKey.deletedID] = id
            case .settings(let settings): info[PayloadKey.serverSettings] = settings
            case .formats, .serviceBodies, .serviceBodyEditors, .users, .rootServers, .rootServer: break
            }
        }
        return info
    }
}

extension Notification {
    private func payload<Value>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        userInfo?[key] as? Value
    }

    /// Whether a result notification's answer came from the response cache (`true`) or the server (`false`);
    /// `nil` on notifications that carry no request (progress).
    /// ```swift
    /// if notification.bmltIsFromCache == true { showOfflineBanner() }
    /// ```
    public var bmltIsFromCache: Bool? { bmltRequest?.isFromCache }

    /// The whole event behind a BMLTKit notification.
    public var bmltEvent: BMLTEvent? { payload(PayloadKey.event) }
    /// `.bmltServerValidated`: whether the server is a usable root server.
    public var bmltIsServerValid: Bool? { payload(PayloadKey.isServerValid) }
    /// `.bmltServerValidated`: what the server said about itself (on success).
    public var bmltServerInfo: BMLTServerInfo? { payload(PayloadKey.serverInfo) }
    /// `.bmltMeetingSearchResults`: the meetings found.
    public var bmltMeetings: [BMLTMeeting]? { payload(PayloadKey.meetings) }
    /// `.bmltFormatSearchResults`: the formats.
    public var bmltFormats: [BMLTFormat]? { payload(PayloadKey.formats) }
    /// `.bmltFormatSearchResults`: whether these are all the formats used by the server's meetings.
    public var bmltIsAllUsedFormats: Bool? { payload(PayloadKey.isAllUsedFormats) }
    /// `.bmltChangeListResults`: the changes, newest first.
    public var bmltChanges: [BMLTChange]? { payload(PayloadKey.changes) }
    /// `.bmltMeetingSaved`, `.bmltMeetingAdded`: the meeting as the server now holds it.
    public var bmltMeeting: BMLTMeeting? { payload(PayloadKey.meeting) }
    /// `.bmltMeetingDeleted` (and saved/added): the meeting's id.
    public var bmltMeetingID: Int? { payload(PayloadKey.meetingID) }
    /// `.bmltMeetingSaved`: the fields changed, as the server confirmed them.
    public var bmltFieldChanges: [BMLTFieldChange]? { payload(PayloadKey.fieldChanges) }
    /// `.bmltMessageSent`: whether the server accepted the message.
    public var bmltMessageSent: Bool? { payload(PayloadKey.messageSent) }
    /// `.bmltAdminLoginChanged`: whether an administrator is now logged in.
    public var bmltIsLoggedIn: Bool? { payload(PayloadKey.isLoggedIn) }
    /// `.bmltError` (and a failed `.bmltServerValidated`): what went wrong.
    public var bmltError: BMLTError? { payload(PayloadKey.error) }
    /// The request the notification concerns (every outcome notification has one).
    public var bmltRequest: BMLTRequest? { payload(PayloadKey.request) }
    /// `.bmltServiceBodyResults`: the service bodies.
    public var bmltServiceBodies: [BMLTServiceBody]? { payload(PayloadKey.serviceBodies) }
    /// `.bmltFieldKeyResults`: the field keys.
    public var bmltFieldKeys: [BMLTFieldKey]? { payload(PayloadKey.fieldKeys) }
    /// `.bmltFieldValueResults`: the field the values belong to.
    public var bmltFieldKey: String? { payload(PayloadKey.fieldKey) }
    /// `.bmltFieldValueResults`: the distinct values and their meetings.
    public var bmltFieldValues: [BMLTFieldValue]? { payload(PayloadKey.fieldValues) }
    /// `.bmltCoverageAreaResults`: the box holding all meetings.
    public var bmltCoverageArea: BMLTCoverageArea? { payload(PayloadKey.coverageArea) }
    /// `.bmltNAWSExportResults`: the export.
    public var bmltNAWSExport: BMLTNAWSExport? { payload(PayloadKey.nawsExport) }
    /// `.bmltServerAdminResults` and the server-administration saves and deletions: what the call gave back.
    public var bmltServerAdminResult: BMLTServerAdminResult? { payload(PayloadKey.serverAdminResult) }
    /// `.bmltFormatSaved` (and a format read): the format as the server holds it.
    public var bmltAdminFormat: BMLTAdminFormat? { payload(PayloadKey.adminFormat) }
    /// `.bmltServiceBodySaved` (and a service body read): the service body as the server holds it.
    public var bmltAdminServiceBody: BMLTAdminServiceBody? { payload(PayloadKey.adminServiceBody) }
    /// `.bmltUserSaved` (and a user read): the user as the server holds it.
    public var bmltAdminUser: BMLTAdminUser? { payload(PayloadKey.adminUser) }
    /// `.bmltFormatSaved`, `.bmltServiceBodySaved`, `.bmltUserSaved`: whether the call created it.
    public var bmltWasCreated: Bool? { payload(PayloadKey.wasCreated) }
    /// `.bmltFormatDeleted`, `.bmltServiceBodyDeleted`, `.bmltUserDeleted`: the id deleted.
    public var bmltDeletedID: Int? { payload(PayloadKey.deletedID) }
    /// `.bmltSettingsSaved` (and a settings read): the settings.
    public var bmltServerSettings: BMLTServerSettings? { payload(PayloadKey.serverSettings) }
}
