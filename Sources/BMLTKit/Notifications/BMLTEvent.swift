import Foundation

// The table of events, classic side. Adding an event: a case below, its name in `Notification.Name`, its arm in
// `row` (and in `typedMessage`), new payload keys and accessors if it carries new values; then its typed message
// in BMLTMessages.swift. Everything else (posting, `connection.events`, monitors, Apple's typed-observer bridge) is
// derived. The events reach observers in the order the connection emits them (BMLTEventMonitor.swift).

/// Everything a connection announces, as one typed value per notification.
///
/// The connection emits each event once; the notification poster turns it into a `Notification`, and any
/// `BMLTEventMonitor` in the configuration receives the same value (no NotificationCenter needed).
///
/// Frozen until the next major release: a new event (a new case) comes only in 3.0.0, so an exhaustive `switch` over it
/// compiles through every 2.x release.
public enum BMLTEvent: Sendable {
    /// The first request went in flight (`.bmltProgressDidStart`).
    case progressDidStart
    /// The last request in flight ended (`.bmltProgressDidStop`).
    case progressDidStop
    /// Validation ended (`.bmltServerValidated`).
    case serverValidated(isValid: Bool, info: BMLTServerInfo?, error: BMLTError?, request: BMLTRequest)
    /// A meeting search ended (`.bmltMeetingSearchResults`). A list brought up to date from the change log carries
    /// what changed in `request.searchDelta` (`nil` for a list downloaded whole).
    case meetingSearchResults([BMLTMeeting], request: BMLTRequest)
    /// More meetings of a running search arrived (`.bmltMeetingsArrived`): the batch, in the server's order, and how
    /// many meetings the search has delivered so far, this batch included. Between the search's start and its one
    /// `.meetingSearchResults` (which carries the whole list, as always); never after it.
    case meetingsArrived([BMLTMeeting], count: Int, request: BMLTRequest)
    /// Formats arrived (`.bmltFormatSearchResults`).
    case formatSearchResults([BMLTFormat], isAllUsedFormats: Bool, request: BMLTRequest)
    /// A change query ended (`.bmltChangeListResults`).
    case changeListResults([BMLTChange], request: BMLTRequest)
    /// An edit was saved (`.bmltMeetingSaved`).
    case meetingSaved(BMLTMeeting, fieldChanges: [BMLTFieldChange], request: BMLTRequest)
    /// A meeting was created or restored (`.bmltMeetingAdded`).
    case meetingAdded(BMLTMeeting, request: BMLTRequest)
    /// A meeting was deleted (`.bmltMeetingDeleted`).
    case meetingDeleted(id: Int, request: BMLTRequest)
    /// A message to a meeting contact ended (`.bmltMessageSent`).
    case messageSent(Bool, request: BMLTRequest)
    /// The administrator logged in or out (`.bmltAdminLoginChanged`).
    case adminLoginChanged(isLoggedIn: Bool, request: BMLTRequest?)
    /// A request was cancelled (`.bmltRequestCancelled`).
    case requestCancelled(BMLTRequest)
    /// An operation failed (`.bmltError`).
    case error(BMLTError, request: BMLTRequest?)
    /// Service bodies arrived from a service-body query (`.bmltServiceBodyResults`).
    case serviceBodyResults([BMLTServiceBody], request: BMLTRequest)
    /// The server's field keys arrived (`.bmltFieldKeyResults`).
    case fieldKeyResults([BMLTFieldKey], request: BMLTRequest)
    /// The values of one field arrived (`.bmltFieldValueResults`).
    case fieldValueResults(key: String, values: [BMLTFieldValue], request: BMLTRequest)
    /// The coverage area arrived (`.bmltCoverageAreaResults`).
    case coverageAreaResults(BMLTCoverageArea, request: BMLTRequest)
    /// A NAWS export arrived (`.bmltNAWSExportResults`).
    case nawsExportResults(BMLTNAWSExport, request: BMLTRequest)
    /// A server-administration read ended (`.bmltServerAdminResults`).
    case serverAdminResults(BMLTServerAdminResult, request: BMLTRequest)
    /// A server-administration write ended: `.bmltFormatSaved`, `.bmltFormatDeleted`, `.bmltServiceBodySaved`,
    /// `.bmltServiceBodyDeleted`, `.bmltUserSaved`, `.bmltUserDeleted` or `.bmltSettingsSaved`, by what it changed.
    /// A result that only a read gives (a list, editors, root servers) is no save: such an event is posted as
    /// `.bmltServerAdminResults`, as the read itself is.
    case serverAdminSaved(BMLTServerAdminResult, request: BMLTRequest)
}

extension Notification.Name {
    /// Posted when the connection's in-flight count goes from 0 to 1 (after `progressStartDelay`). No payload.
    public static let bmltProgressDidStart = Notification.Name("org.bmlt.kit.progress.didStart")
    /// Posted when the in-flight count returns to 0 (after `progressStopDelay`). No payload.
    public static let bmltProgressDidStop = Notification.Name("org.bmlt.kit.progress.didStop")
    /// Posted when validation ends, valid or not: `bmltIsServerValid`, `bmltServerInfo`, `bmltError` on failure.
    public static let bmltServerValidated = Notification.Name("org.bmlt.kit.server.validated")
    /// Posted when a meeting search ends: `bmltMeetings`, `bmltRequest`.
    public static let bmltMeetingSearchResults = Notification.Name("org.bmlt.kit.search.meetings")
    /// Posted while a meeting search's reply arrives, for each batch of meetings decoded (see
    /// `meetingBatches(matching:)` for how batches are sized): `bmltMeetingBatch`, `bmltMeetingCount` (the running
    /// count), `bmltRequest`. Between the search's `.bmltProgressDidStart` (once `progressStartDelay` has passed; with the
    /// default 0, always) and its one `.bmltMeetingSearchResults`, which still carries the whole list: a host that
    /// ignores this notification sees what it always saw.
    public static let bmltMeetingsArrived = Notification.Name("org.bmlt.kit.search.meetingsArrived")
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
        .bmltServiceBodyDeleted, .bmltUserSaved, .bmltUserDeleted, .bmltSettingsSaved, .bmltMeetingsArrived,
    ]
}

/// The userInfo keys, `org.bmlt.kit.<case>`. Private: payloads are read through the typed accessors below.
private enum PayloadKey: String {
    case event, request, isServerValid, serverInfo, meetings, formats, isAllUsedFormats, changes, meeting, meetingID
    case fieldChanges, messageSent, isLoggedIn, error, serviceBodies, fieldKeys, fieldKey, fieldValues, coverageArea
    case nawsExport, serverAdminResult, adminFormat, adminServiceBody, adminUser, wasCreated, deletedID, serverSettings
    case meetingBatch, meetingCount, searchDelta

    var key: String { "org.bmlt.kit." + rawValue }
}

/// A notification's payload: a `nil` value leaves its key out.
private typealias Payload = KeyValuePairs<PayloadKey, (any Sendable)?>

extension BMLTEvent {
    /// The single switch of the classic side: each event's notification name, request and payload.
    private var row: (name: Notification.Name, request: BMLTRequest?, payload: Payload) {
        switch self {
        case .progressDidStart: (.bmltProgressDidStart, nil, [:])
        case .progressDidStop: (.bmltProgressDidStop, nil, [:])
        case .serverValidated(let isValid, let info, let error, let request):
            (.bmltServerValidated, request, [.isServerValid: isValid, .serverInfo: info, .error: error])
        case .meetingSearchResults(let meetings, let request):
            (.bmltMeetingSearchResults, request, [.meetings: meetings, .searchDelta: request.searchDelta])
        case .meetingsArrived(let batch, let count, let request):
            (.bmltMeetingsArrived, request, [.meetingBatch: batch, .meetingCount: count])
        case .formatSearchResults(let formats, let isAllUsedFormats, let request):
            (.bmltFormatSearchResults, request, [.formats: formats, .isAllUsedFormats: isAllUsedFormats])
        case .changeListResults(let changes, let request): (.bmltChangeListResults, request, [.changes: changes])
        case .meetingSaved(let meeting, let fieldChanges, let request):
            (.bmltMeetingSaved, request, [.meeting: meeting, .meetingID: meeting.id, .fieldChanges: fieldChanges])
        case .meetingAdded(let meeting, let request): (.bmltMeetingAdded, request, [.meeting: meeting, .meetingID: meeting.id])
        case .meetingDeleted(let id, let request): (.bmltMeetingDeleted, request, [.meetingID: id])
        case .messageSent(let sent, let request): (.bmltMessageSent, request, [.messageSent: sent])
        case .adminLoginChanged(let isLoggedIn, let request): (.bmltAdminLoginChanged, request, [.isLoggedIn: isLoggedIn])
        case .requestCancelled(let request): (.bmltRequestCancelled, request, [:])
        case .error(let error, let request): (.bmltError, request, [.error: error])
        case .serviceBodyResults(let bodies, let request): (.bmltServiceBodyResults, request, [.serviceBodies: bodies])
        case .fieldKeyResults(let keys, let request): (.bmltFieldKeyResults, request, [.fieldKeys: keys])
        case .fieldValueResults(let key, let values, let request):
            (.bmltFieldValueResults, request, [.fieldKey: key, .fieldValues: values])
        case .coverageAreaResults(let area, let request): (.bmltCoverageAreaResults, request, [.coverageArea: area])
        case .nawsExportResults(let export, let request): (.bmltNAWSExportResults, request, [.nawsExport: export])
        case .serverAdminResults(let result, let request): (.bmltServerAdminResults, request, Self.payload(of: result).1)
        case .serverAdminSaved(let result, let request): (Self.payload(of: result).0, request, Self.payload(of: result).1)
        }
    }

    /// A server-administration result's payload, and the name its save is posted under (a result only a read gives
    /// is posted under the read's name, `.bmltServerAdminResults`: never under another event's).
    private static func payload(of result: BMLTServerAdminResult) -> (Notification.Name, Payload) {
        switch result {
        case .format(let format, let wasCreated):
            (.bmltFormatSaved, [.serverAdminResult: result, .adminFormat: format, .wasCreated: wasCreated])
        case .serviceBody(let body, let wasCreated):
            (.bmltServiceBodySaved, [.serverAdminResult: result, .adminServiceBody: body, .wasCreated: wasCreated])
        case .user(let user, let wasCreated):
            (.bmltUserSaved, [.serverAdminResult: result, .adminUser: user, .wasCreated: wasCreated])
        case .formatDeleted(let id): (.bmltFormatDeleted, [.serverAdminResult: result, .deletedID: id])
        case .serviceBodyDeleted(let id): (.bmltServiceBodyDeleted, [.serverAdminResult: result, .deletedID: id])
        case .userDeleted(let id): (.bmltUserDeleted, [.serverAdminResult: result, .deletedID: id])
        case .settings(let settings): (.bmltSettingsSaved, [.serverAdminResult: result, .serverSettings: settings])
        case .formats, .serviceBodies, .serviceBodyEditors, .users, .rootServers, .rootServer:
            (.bmltServerAdminResults, [.serverAdminResult: result])
        }
    }

    /// The notification name this event is posted under.
    /// ```swift
    /// print(BMLTEvent.progressDidStart.notificationName == .bmltProgressDidStart)   // true
    /// ```
    public var notificationName: Notification.Name { row.name }

    /// The request this event concerns, if any.
    /// ```swift
    /// if let request = event.request { print(request.kind) }
    /// ```
    public var request: BMLTRequest? { row.request }

    /// The userInfo dictionary of the notification (keys private; read with the typed accessors).
    var userInfo: [String: any Sendable] {
        let row = row
        var info: [String: any Sendable] = [PayloadKey.event.key: self]
        if let request = row.request { info[PayloadKey.request.key] = request }
        for case let (key, value?) in row.payload { info[key.key] = value }
        return info
    }
}

extension Notification {
    private func payload<Value>(_ key: PayloadKey, as type: Value.Type = Value.self) -> Value? {
        userInfo?[key.key] as? Value
    }

    /// Whether a result notification's answer came from the response cache (`true`) or the server (`false`);
    /// `nil` on notifications that carry no request (progress).
    /// ```swift
    /// if notification.bmltIsFromCache == true { showOfflineBanner() }
    /// ```
    public var bmltIsFromCache: Bool? { bmltRequest?.isFromCache }

    /// The whole event behind a BMLTKit notification.
    public var bmltEvent: BMLTEvent? { payload(.event) }
    /// `.bmltServerValidated`: whether the server is a usable root server.
    public var bmltIsServerValid: Bool? { payload(.isServerValid) }
    /// `.bmltServerValidated`: what the server said about itself (on success).
    public var bmltServerInfo: BMLTServerInfo? { payload(.serverInfo) }
    /// `.bmltMeetingSearchResults`: the meetings found.
    public var bmltMeetings: [BMLTMeeting]? { payload(.meetings) }
    /// `.bmltMeetingSearchResults`: what a refresh changed when the list was brought up to date from the server's
    /// change log (`meetings(matching:updating:)`, `.cacheThenNetwork`'s network half); `nil` when it was downloaded
    /// whole. `bmltMeetings` is the whole list either way.
    /// ```swift
    /// if let delta = note.bmltSearchDelta { print(delta.added.count, "added,", delta.removed.count, "removed") }
    /// ```
    public var bmltSearchDelta: BMLTSearchDelta? { payload(.searchDelta) }
    /// `.bmltMeetingsArrived`: the meetings that just arrived, in the server's order.
    /// ```swift
    /// if let batch = note.bmltMeetingBatch { rows.append(contentsOf: batch) }
    /// ```
    public var bmltMeetingBatch: [BMLTMeeting]? { payload(.meetingBatch) }
    /// `.bmltMeetingsArrived`: how many meetings the search has delivered so far, this batch included.
    /// ```swift
    /// statusLabel.text = "\(note.bmltMeetingCount ?? 0) meetings so far"
    /// ```
    public var bmltMeetingCount: Int? { payload(.meetingCount) }
    /// `.bmltFormatSearchResults`: the formats.
    public var bmltFormats: [BMLTFormat]? { payload(.formats) }
    /// `.bmltFormatSearchResults`: whether these are all the formats used by the server's meetings.
    public var bmltIsAllUsedFormats: Bool? { payload(.isAllUsedFormats) }
    /// `.bmltChangeListResults`: the changes, newest first.
    public var bmltChanges: [BMLTChange]? { payload(.changes) }
    /// `.bmltMeetingSaved`, `.bmltMeetingAdded`: the meeting as the server now holds it.
    public var bmltMeeting: BMLTMeeting? { payload(.meeting) }
    /// `.bmltMeetingDeleted` (and saved/added): the meeting's id.
    public var bmltMeetingID: Int? { payload(.meetingID) }
    /// `.bmltMeetingSaved`: the fields changed, as the server confirmed them.
    public var bmltFieldChanges: [BMLTFieldChange]? { payload(.fieldChanges) }
    /// `.bmltMessageSent`: whether the server accepted the message.
    public var bmltMessageSent: Bool? { payload(.messageSent) }
    /// `.bmltAdminLoginChanged`: whether an administrator is now logged in.
    public var bmltIsLoggedIn: Bool? { payload(.isLoggedIn) }
    /// `.bmltError` (and a failed `.bmltServerValidated`): what went wrong.
    public var bmltError: BMLTError? { payload(.error) }
    /// The request the notification concerns (every outcome notification has one).
    public var bmltRequest: BMLTRequest? { payload(.request) }
    /// `.bmltServiceBodyResults`: the service bodies.
    public var bmltServiceBodies: [BMLTServiceBody]? { payload(.serviceBodies) }
    /// `.bmltFieldKeyResults`: the field keys.
    public var bmltFieldKeys: [BMLTFieldKey]? { payload(.fieldKeys) }
    /// `.bmltFieldValueResults`: the field the values belong to.
    public var bmltFieldKey: String? { payload(.fieldKey) }
    /// `.bmltFieldValueResults`: the distinct values and their meetings.
    public var bmltFieldValues: [BMLTFieldValue]? { payload(.fieldValues) }
    /// `.bmltCoverageAreaResults`: the box holding all meetings.
    public var bmltCoverageArea: BMLTCoverageArea? { payload(.coverageArea) }
    /// `.bmltNAWSExportResults`: the export.
    public var bmltNAWSExport: BMLTNAWSExport? { payload(.nawsExport) }
    /// `.bmltServerAdminResults` and the server-administration saves and deletions: what the call gave back.
    public var bmltServerAdminResult: BMLTServerAdminResult? { payload(.serverAdminResult) }
    /// `.bmltFormatSaved` (and a format read): the format as the server holds it.
    public var bmltAdminFormat: BMLTAdminFormat? { payload(.adminFormat) }
    /// `.bmltServiceBodySaved` (and a service body read): the service body as the server holds it.
    public var bmltAdminServiceBody: BMLTAdminServiceBody? { payload(.adminServiceBody) }
    /// `.bmltUserSaved` (and a user read): the user as the server holds it.
    public var bmltAdminUser: BMLTAdminUser? { payload(.adminUser) }
    /// `.bmltFormatSaved`, `.bmltServiceBodySaved`, `.bmltUserSaved`: whether the call created it.
    public var bmltWasCreated: Bool? { payload(.wasCreated) }
    /// `.bmltFormatDeleted`, `.bmltServiceBodyDeleted`, `.bmltUserDeleted`: the id deleted.
    public var bmltDeletedID: Int? { payload(.deletedID) }
    /// `.bmltSettingsSaved` (and a settings read): the settings.
    public var bmltServerSettings: BMLTServerSettings? { payload(.serverSettings) }
}

#if compiler(>=6.2)
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTEvent {
    /// The single switch of the typed side: each event's message (the types are in BMLTMessages.swift).
    var typedMessage: any BMLTEventConvertibleMessage {
        switch self {
        case .progressDidStart: BMLTProgressDidStartMessage(event: self)
        case .progressDidStop: BMLTProgressDidStopMessage(event: self)
        case .serverValidated(let isValid, let info, let error, let request):
            BMLTServerValidatedMessage(isValid: isValid, info: info, error: error, request: request, event: self)
        case .meetingSearchResults(let meetings, let request):
            BMLTMeetingSearchResultsMessage(meetings: meetings, delta: request.searchDelta, request: request, event: self)
        case .meetingsArrived(let batch, let count, let request):
            BMLTMeetingsArrivedMessage(batch: batch, count: count, request: request, event: self)
        case .formatSearchResults(let formats, let isAllUsedFormats, let request):
            BMLTFormatSearchResultsMessage(formats: formats, isAllUsedFormats: isAllUsedFormats, request: request, event: self)
        case .changeListResults(let changes, let request): BMLTChangeListResultsMessage(changes: changes, request: request, event: self)
        case .meetingSaved(let meeting, let fieldChanges, let request):
            BMLTMeetingSavedMessage(meeting: meeting, fieldChanges: fieldChanges, request: request, event: self)
        case .meetingAdded(let meeting, let request): BMLTMeetingAddedMessage(meeting: meeting, request: request, event: self)
        case .meetingDeleted(let id, let request): BMLTMeetingDeletedMessage(meetingID: id, request: request, event: self)
        case .messageSent(let sent, let request): BMLTMessageSentMessage(wasSent: sent, request: request, event: self)
        case .adminLoginChanged(let isLoggedIn, let request): BMLTAdminLoginChangedMessage(isLoggedIn: isLoggedIn, request: request, event: self)
        case .requestCancelled(let request): BMLTRequestCancelledMessage(request: request, event: self)
        case .error(let error, let request): BMLTErrorMessage(error: error, request: request, event: self)
        case .serviceBodyResults(let bodies, let request): BMLTServiceBodyResultsMessage(serviceBodies: bodies, request: request, event: self)
        case .fieldKeyResults(let keys, let request): BMLTFieldKeyResultsMessage(fieldKeys: keys, request: request, event: self)
        case .fieldValueResults(let key, let values, let request):
            BMLTFieldValueResultsMessage(key: key, values: values, request: request, event: self)
        case .coverageAreaResults(let area, let request): BMLTCoverageAreaResultsMessage(coverageArea: area, request: request, event: self)
        case .nawsExportResults(let export, let request): BMLTNAWSExportResultsMessage(export: export, request: request, event: self)
        case .serverAdminResults(let result, let request): BMLTServerAdminResultsMessage(result: result, request: request, event: self)
        case .serverAdminSaved(let result, let request):
            switch notificationName {
            case .bmltFormatDeleted: BMLTFormatDeletedMessage(result: result, request: request, event: self)
            case .bmltServiceBodySaved: BMLTServiceBodySavedMessage(result: result, request: request, event: self)
            case .bmltServiceBodyDeleted: BMLTServiceBodyDeletedMessage(result: result, request: request, event: self)
            case .bmltUserSaved: BMLTUserSavedMessage(result: result, request: request, event: self)
            case .bmltUserDeleted: BMLTUserDeletedMessage(result: result, request: request, event: self)
            case .bmltSettingsSaved: BMLTSettingsSavedMessage(result: result, request: request, event: self)
            case .bmltServerAdminResults: BMLTServerAdminResultsMessage(result: result, request: request, event: self)
            default: BMLTFormatSavedMessage(result: result, request: request, event: self)
            }
        }
    }
}
#endif
