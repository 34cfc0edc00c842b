/// Everything a connection announces, as one typed value per notification.
///
/// The connection emits each event once; the notification poster turns it into a `Notification`, and any
/// `BMLTEventMonitor` in the configuration receives the same value (no NotificationCenter needed).
public enum BMLTEvent: Sendable {
    /// The first request went in flight (`.bmltProgressDidStart`).
    case progressDidStart
    /// The last request in flight ended (`.bmltProgressDidStop`).
    case progressDidStop
    /// Validation ended (`.bmltServerValidated`).
    case serverValidated(isValid: Bool, info: BMLTServerInfo?, error: BMLTError?, request: BMLTRequest)
    /// A meeting search ended (`.bmltMeetingSearchResults`).
    case meetingSearchResults([BMLTMeeting], request: BMLTRequest)
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
    case serverAdminSaved(BMLTServerAdminResult, request: BMLTRequest)

    /// The request this event concerns, if any.
    public var request: BMLTRequest? {
        switch self {
        case .progressDidStart, .progressDidStop: nil
        case .serverValidated(_, _, _, let request), .meetingSearchResults(_, let request),
             .formatSearchResults(_, _, let request), .changeListResults(_, let request),
             .meetingSaved(_, _, let request), .meetingAdded(_, let request), .meetingDeleted(_, let request),
             .messageSent(_, let request), .serviceBodyResults(_, let request), .fieldKeyResults(_, let request),
             .fieldValueResults(_, _, let request), .coverageAreaResults(_, let request), .nawsExportResults(_, let request),
             .serverAdminResults(_, let request), .serverAdminSaved(_, let request):
            request
        case .adminLoginChanged(_, let request), .error(_, let request): request
        case .requestCancelled(let request): request
        }
    }
}
