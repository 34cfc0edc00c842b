import Foundation

// Foundation's concurrency-safe typed notifications for every BMLTKit event (SF-0011). Each event is posted
// twice, once each: as a classic `Notification` (NotificationNames.swift) and as the typed message below, in the
// same order, from the same place (`EventPoster`). The typed messages have their own names (the type names), so
// no classic observer receives them and no bridging can deliver an event twice.
//
// Observe on the main actor:
//     let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
//         print(message.meetings.count)
//     }
// or every event, asynchronously, as `BMLTEventMessage`:
//     for await message in NotificationCenter.default.messages(of: connection, for: .bmltEvent) { print(message.event) }

#if compiler(>=6.2)
/// The first request went in flight (the typed `.bmltProgressDidStart`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltProgressDidStart) { message in
///     print("event")
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTProgressDidStartMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTProgressDidStartMessage> {
    /// BMLTProgressDidStartMessage: `addObserver(of: connection, for: .bmltProgressDidStart) { message in … }`.
    public static var bmltProgressDidStart: Self { .init() }
}

/// The last request in flight ended (the typed `.bmltProgressDidStop`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltProgressDidStop) { message in
///     print("event")
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTProgressDidStopMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTProgressDidStopMessage> {
    /// BMLTProgressDidStopMessage: `addObserver(of: connection, for: .bmltProgressDidStop) { message in … }`.
    public static var bmltProgressDidStop: Self { .init() }
}

/// Validation ended (the typed `.bmltServerValidated`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServerValidated) { message in
///     print(message.isValid)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServerValidatedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// Whether the server is a usable root server.
    public let isValid: Bool
    /// What the server said about itself (when valid).
    public let info: BMLTServerInfo?
    /// Why validation failed (when not valid).
    public let error: BMLTError?
    /// The validation request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerValidatedMessage> {
    /// BMLTServerValidatedMessage: `addObserver(of: connection, for: .bmltServerValidated) { message in … }`.
    public static var bmltServerValidated: Self { .init() }
}

/// A meeting search ended (the typed `.bmltMeetingSearchResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
///     print(message.meetings)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingSearchResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The meetings found.
    public let meetings: [BMLTMeeting]
    /// The search request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingSearchResultsMessage> {
    /// BMLTMeetingSearchResultsMessage: `addObserver(of: connection, for: .bmltMeetingSearchResults) { message in … }`.
    public static var bmltMeetingSearchResults: Self { .init() }
}

/// Formats arrived (the typed `.bmltFormatSearchResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFormatSearchResults) { message in
///     print(message.formats)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatSearchResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The formats.
    public let formats: [BMLTFormat]
    /// Whether these are all the formats the server uses.
    public let isAllUsedFormats: Bool
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatSearchResultsMessage> {
    /// BMLTFormatSearchResultsMessage: `addObserver(of: connection, for: .bmltFormatSearchResults) { message in … }`.
    public static var bmltFormatSearchResults: Self { .init() }
}

/// A change query ended (the typed `.bmltChangeListResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltChangeListResults) { message in
///     print(message.changes)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTChangeListResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The changes.
    public let changes: [BMLTChange]
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTChangeListResultsMessage> {
    /// BMLTChangeListResultsMessage: `addObserver(of: connection, for: .bmltChangeListResults) { message in … }`.
    public static var bmltChangeListResults: Self { .init() }
}

/// An edit was saved (the typed `.bmltMeetingSaved`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingSaved) { message in
///     print(message.meeting)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The meeting as the server holds it now.
    public let meeting: BMLTMeeting
    /// What changed (key, before, after).
    public let fieldChanges: [BMLTFieldChange]
    /// The save request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingSavedMessage> {
    /// BMLTMeetingSavedMessage: `addObserver(of: connection, for: .bmltMeetingSaved) { message in … }`.
    public static var bmltMeetingSaved: Self { .init() }
}

/// A meeting was created or restored (the typed `.bmltMeetingAdded`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingAdded) { message in
///     print(message.meeting)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingAddedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The new or restored meeting.
    public let meeting: BMLTMeeting
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingAddedMessage> {
    /// BMLTMeetingAddedMessage: `addObserver(of: connection, for: .bmltMeetingAdded) { message in … }`.
    public static var bmltMeetingAdded: Self { .init() }
}

/// A meeting was deleted (the typed `.bmltMeetingDeleted`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingDeleted) { message in
///     print(message.meetingID)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingDeletedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The deleted meeting's ID.
    public let meetingID: Int
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingDeletedMessage> {
    /// BMLTMeetingDeletedMessage: `addObserver(of: connection, for: .bmltMeetingDeleted) { message in … }`.
    public static var bmltMeetingDeleted: Self { .init() }
}

/// A message to a meeting contact ended (the typed `.bmltMessageSent`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMessageSent) { message in
///     print(message.wasSent)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMessageSentMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// Whether the server accepted the message.
    public let wasSent: Bool
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMessageSentMessage> {
    /// BMLTMessageSentMessage: `addObserver(of: connection, for: .bmltMessageSent) { message in … }`.
    public static var bmltMessageSent: Self { .init() }
}

/// The administrator logged in or out (the typed `.bmltAdminLoginChanged`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltAdminLoginChanged) { message in
///     print(message.isLoggedIn)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTAdminLoginChangedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// Whether the administrator is logged in now.
    public let isLoggedIn: Bool
    /// The login or logout request (`nil` when the server ended the login).
    public let request: BMLTRequest?
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTAdminLoginChangedMessage> {
    /// BMLTAdminLoginChangedMessage: `addObserver(of: connection, for: .bmltAdminLoginChanged) { message in … }`.
    public static var bmltAdminLoginChanged: Self { .init() }
}

/// A request was cancelled (the typed `.bmltRequestCancelled`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltRequestCancelled) { message in
///     print(message.request)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTRequestCancelledMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The cancelled request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTRequestCancelledMessage> {
    /// BMLTRequestCancelledMessage: `addObserver(of: connection, for: .bmltRequestCancelled) { message in … }`.
    public static var bmltRequestCancelled: Self { .init() }
}

/// An operation failed (the typed `.bmltError`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltError) { message in
///     print(message.error)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTErrorMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What went wrong.
    public let error: BMLTError
    /// The request that failed, if any.
    public let request: BMLTRequest?
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTErrorMessage> {
    /// BMLTErrorMessage: `addObserver(of: connection, for: .bmltError) { message in … }`.
    public static var bmltError: Self { .init() }
}

/// Service bodies arrived (the typed `.bmltServiceBodyResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServiceBodyResults) { message in
///     print(message.serviceBodies)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodyResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The service bodies.
    public let serviceBodies: [BMLTServiceBody]
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodyResultsMessage> {
    /// BMLTServiceBodyResultsMessage: `addObserver(of: connection, for: .bmltServiceBodyResults) { message in … }`.
    public static var bmltServiceBodyResults: Self { .init() }
}

/// The server's field keys arrived (the typed `.bmltFieldKeyResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFieldKeyResults) { message in
///     print(message.fieldKeys)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFieldKeyResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The server's field keys.
    public let fieldKeys: [BMLTFieldKey]
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFieldKeyResultsMessage> {
    /// BMLTFieldKeyResultsMessage: `addObserver(of: connection, for: .bmltFieldKeyResults) { message in … }`.
    public static var bmltFieldKeyResults: Self { .init() }
}

/// The values of one field arrived (the typed `.bmltFieldValueResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFieldValueResults) { message in
///     print(message.key)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFieldValueResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The field key.
    public let key: String
    /// Its values.
    public let values: [BMLTFieldValue]
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFieldValueResultsMessage> {
    /// BMLTFieldValueResultsMessage: `addObserver(of: connection, for: .bmltFieldValueResults) { message in … }`.
    public static var bmltFieldValueResults: Self { .init() }
}

/// The coverage area arrived (the typed `.bmltCoverageAreaResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltCoverageAreaResults) { message in
///     print(message.coverageArea)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTCoverageAreaResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The coverage area.
    public let coverageArea: BMLTCoverageArea
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTCoverageAreaResultsMessage> {
    /// BMLTCoverageAreaResultsMessage: `addObserver(of: connection, for: .bmltCoverageAreaResults) { message in … }`.
    public static var bmltCoverageAreaResults: Self { .init() }
}

/// A NAWS export arrived (the typed `.bmltNAWSExportResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltNAWSExportResults) { message in
///     print(message.export)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTNAWSExportResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The export.
    public let export: BMLTNAWSExport
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTNAWSExportResultsMessage> {
    /// BMLTNAWSExportResultsMessage: `addObserver(of: connection, for: .bmltNAWSExportResults) { message in … }`.
    public static var bmltNAWSExportResults: Self { .init() }
}

/// A server-administration read ended (the typed `.bmltServerAdminResults`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServerAdminResults) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServerAdminResultsMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What was read.
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerAdminResultsMessage> {
    /// BMLTServerAdminResultsMessage: `addObserver(of: connection, for: .bmltServerAdminResults) { message in … }`.
    public static var bmltServerAdminResults: Self { .init() }
}

/// A server-administration write ended: the typed form of `.bmltFormatSaved`, `.bmltFormatDeleted`, `.bmltServiceBodySaved`, `.bmltServiceBodyDeleted`, `.bmltUserSaved`, `.bmltUserDeleted` and `.bmltSettingsSaved` (one message; `result` says which).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServerAdminSaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServerAdminSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What changed (the classic name follows from it: `.bmltFormatSaved`, `.bmltUserDeleted`, …).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerAdminSavedMessage> {
    /// BMLTServerAdminSavedMessage: `addObserver(of: connection, for: .bmltServerAdminSaved) { message in … }`.
    public static var bmltServerAdminSaved: Self { .init() }
}

/// Every event, as one typed message observable off the main actor (`messages(of:for:)`, async observers).
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
