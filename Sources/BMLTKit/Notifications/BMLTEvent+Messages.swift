import Foundation

// Foundation's concurrency-safe typed notifications for every BMLTKit event (SF-0011). Each event is posted
// twice, once each: as a classic `Notification` (NotificationNames.swift) and as its typed message
// (BMLTMessages+Reads.swift, BMLTMessages+Writes.swift), in the same order, from the same place (`EventPoster`,
// below). The typed messages have their own names (the type names), so no classic observer receives them and no
// bridging can deliver an event twice.
//
// Observe on the main actor:
//     let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
//         print(message.meetings.count)
//     }
// or every event, asynchronously, as `BMLTEventMessage`:
//     for await message in NotificationCenter.default.messages(of: connection, for: .bmltEvent) { print(message.event) }

#if compiler(>=6.2)
/// Every event, as one typed message observable off the main actor (`messages(of:for:)`, async observers).
/// `messages(of:for:)` gives the events in the order they were posted. An async observer closure
/// (`addObserver(of:for:using:)`) gets each one once but in no set order: Foundation calls it in a task of its own
/// for each message.
/// ```swift
/// for await message in NotificationCenter.default.messages(of: connection, for: .bmltEvent) {
///     if case .progressDidStop = message.event { break }
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTEventMessage: NotificationCenter.AsyncMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The event.
    public let event: BMLTEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTEventMessage> {
    /// BMLTEventMessage: `messages(of: connection, for: .bmltEvent)`.
    public static var bmltEvent: Self { .init() }
}

extension EventPoster {
    /// Posts the event's typed message and its `BMLTEventMessage`. The switch is exhaustive: a new
    /// `BMLTEvent` case without a message does not compile.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    func postMessages(_ event: BMLTEvent, from connection: BMLTConnection) {
        let center = notificationCenter
        switch event {
        case .progressDidStart: center.post(BMLTProgressDidStartMessage(), subject: connection)
        case .progressDidStop: center.post(BMLTProgressDidStopMessage(), subject: connection)
        case .serverValidated(let isValid, let info, let error, let request): center.post(BMLTServerValidatedMessage(isValid: isValid, info: info, error: error, request: request), subject: connection)
        case .meetingSearchResults(let meetings, let request): center.post(BMLTMeetingSearchResultsMessage(meetings: meetings, request: request), subject: connection)
        case .formatSearchResults(let formats, let isAllUsedFormats, let request): center.post(BMLTFormatSearchResultsMessage(formats: formats, isAllUsedFormats: isAllUsedFormats, request: request), subject: connection)
        case .changeListResults(let changes, let request): center.post(BMLTChangeListResultsMessage(changes: changes, request: request), subject: connection)
        case .meetingSaved(let meeting, let fieldChanges, let request): center.post(BMLTMeetingSavedMessage(meeting: meeting, fieldChanges: fieldChanges, request: request), subject: connection)
        case .meetingAdded(let meeting, let request): center.post(BMLTMeetingAddedMessage(meeting: meeting, request: request), subject: connection)
        case .meetingDeleted(let meetingID, let request): center.post(BMLTMeetingDeletedMessage(meetingID: meetingID, request: request), subject: connection)
        case .messageSent(let wasSent, let request): center.post(BMLTMessageSentMessage(wasSent: wasSent, request: request), subject: connection)
        case .adminLoginChanged(let isLoggedIn, let request): center.post(BMLTAdminLoginChangedMessage(isLoggedIn: isLoggedIn, request: request), subject: connection)
        case .requestCancelled(let request): center.post(BMLTRequestCancelledMessage(request: request), subject: connection)
        case .error(let error, let request): center.post(BMLTErrorMessage(error: error, request: request), subject: connection)
        case .serviceBodyResults(let serviceBodies, let request): center.post(BMLTServiceBodyResultsMessage(serviceBodies: serviceBodies, request: request), subject: connection)
        case .fieldKeyResults(let fieldKeys, let request): center.post(BMLTFieldKeyResultsMessage(fieldKeys: fieldKeys, request: request), subject: connection)
        case .fieldValueResults(let key, let values, let request): center.post(BMLTFieldValueResultsMessage(key: key, values: values, request: request), subject: connection)
        case .coverageAreaResults(let coverageArea, let request): center.post(BMLTCoverageAreaResultsMessage(coverageArea: coverageArea, request: request), subject: connection)
        case .nawsExportResults(let export, let request): center.post(BMLTNAWSExportResultsMessage(export: export, request: request), subject: connection)
        case .serverAdminResults(let result, let request): center.post(BMLTServerAdminResultsMessage(result: result, request: request), subject: connection)
        case .serverAdminSaved(let result, let request): center.post(BMLTServerAdminSavedMessage(result: result, request: request), subject: connection)
        }
        center.post(BMLTEventMessage(event: event), subject: connection)
    }
}
#endif
