import Foundation

// The table of events, typed side (Foundation's typed notifications, SF-0011): one message type per classic name, and
// its `.bmlt…` identifier for `addObserver(of:for:)`. Each type declares only its values, its classic name and the
// event it carries; how it is made, posted and bridged to the classic notification comes from
// `BMLTEventConvertibleMessage` (BMLTMessages+Bridge.swift). The event → message switch is `BMLTEvent.typedMessage`.

#if compiler(>=6.2)
/// The first request went in flight: `addObserver(of: connection, for: .bmltProgressDidStart) { _ in print("busy") }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTProgressDidStartMessage: BMLTEventConvertibleMessage, Sendable {
    static let classicName = Notification.Name.bmltProgressDidStart
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTProgressDidStartMessage> {
    /// BMLTProgressDidStartMessage: `addObserver(of: connection, for: .bmltProgressDidStart) { message in … }`.
    public static var bmltProgressDidStart: Self { .init() }
}
/// The last request in flight ended: `addObserver(of: connection, for: .bmltProgressDidStop) { _ in print("idle") }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTProgressDidStopMessage: BMLTEventConvertibleMessage, Sendable {
    static let classicName = Notification.Name.bmltProgressDidStop
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTProgressDidStopMessage> {
    /// BMLTProgressDidStopMessage: `addObserver(of: connection, for: .bmltProgressDidStop) { message in … }`.
    public static var bmltProgressDidStop: Self { .init() }
}
/// Validation ended: `addObserver(of: connection, for: .bmltServerValidated) { message in print(message.isValid) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServerValidatedMessage: BMLTEventConvertibleMessage, Sendable {
    /// Whether the server is a usable root server.
    public let isValid: Bool
    /// What the server said about itself (when valid).
    public let info: BMLTServerInfo?
    /// Why validation failed (when not valid).
    public let error: BMLTError?
    /// The validation request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltServerValidated
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerValidatedMessage> {
    /// BMLTServerValidatedMessage: `addObserver(of: connection, for: .bmltServerValidated) { message in … }`.
    public static var bmltServerValidated: Self { .init() }
}
/// A meeting search ended: `addObserver(of: connection, for: .bmltMeetingSearchResults) { message in print(message.meetings) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingSearchResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The meetings found: the whole list, also when it was brought up to date from the change log.
    public let meetings: [BMLTMeeting]
    /// What a refresh changed (`meetings(matching:updating:)`, `.cacheThenNetwork`'s network half); `nil` when the
    /// list was downloaded whole.
    /// ```swift
    /// if let delta = message.delta { print(delta.added.count, "added,", delta.changed.count, "changed") }
    /// ```
    public let delta: BMLTSearchDelta?
    /// The search request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMeetingSearchResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingSearchResultsMessage> {
    /// BMLTMeetingSearchResultsMessage: `addObserver(of: connection, for: .bmltMeetingSearchResults) { message in … }`.
    public static var bmltMeetingSearchResults: Self { .init() }
}

/// More meetings of a running search arrived: `addObserver(of: connection, for: .bmltMeetingsArrived) { message in print(message.count) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingsArrivedMessage: BMLTEventConvertibleMessage, Sendable {
    /// The meetings that just arrived, in the server's order.
    public let batch: [BMLTMeeting]
    /// How many meetings the search has delivered so far, this batch included.
    public let count: Int
    /// The search request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMeetingsArrived
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingsArrivedMessage> {
    /// BMLTMeetingsArrivedMessage: `addObserver(of: connection, for: .bmltMeetingsArrived) { message in … }`.
    public static var bmltMeetingsArrived: Self { .init() }
}

/// Formats arrived: `addObserver(of: connection, for: .bmltFormatSearchResults) { message in print(message.formats) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatSearchResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The formats.
    public let formats: [BMLTFormat]
    /// Whether these are all the formats the server uses.
    public let isAllUsedFormats: Bool
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltFormatSearchResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatSearchResultsMessage> {
    /// BMLTFormatSearchResultsMessage: `addObserver(of: connection, for: .bmltFormatSearchResults) { message in … }`.
    public static var bmltFormatSearchResults: Self { .init() }
}
/// A change query ended: `addObserver(of: connection, for: .bmltChangeListResults) { message in print(message.changes) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTChangeListResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The changes.
    public let changes: [BMLTChange]
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltChangeListResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTChangeListResultsMessage> {
    /// BMLTChangeListResultsMessage: `addObserver(of: connection, for: .bmltChangeListResults) { message in … }`.
    public static var bmltChangeListResults: Self { .init() }
}
/// Service bodies arrived: `addObserver(of: connection, for: .bmltServiceBodyResults) { message in print(message.serviceBodies) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodyResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The service bodies.
    public let serviceBodies: [BMLTServiceBody]
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltServiceBodyResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodyResultsMessage> {
    /// BMLTServiceBodyResultsMessage: `addObserver(of: connection, for: .bmltServiceBodyResults) { message in … }`.
    public static var bmltServiceBodyResults: Self { .init() }
}
/// The server's field keys arrived: `addObserver(of: connection, for: .bmltFieldKeyResults) { message in print(message.fieldKeys) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFieldKeyResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The server's field keys.
    public let fieldKeys: [BMLTFieldKey]
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltFieldKeyResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFieldKeyResultsMessage> {
    /// BMLTFieldKeyResultsMessage: `addObserver(of: connection, for: .bmltFieldKeyResults) { message in … }`.
    public static var bmltFieldKeyResults: Self { .init() }
}
/// The values of one field arrived: `addObserver(of: connection, for: .bmltFieldValueResults) { message in print(message.key) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFieldValueResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The field key.
    public let key: String
    /// Its values.
    public let values: [BMLTFieldValue]
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltFieldValueResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFieldValueResultsMessage> {
    /// BMLTFieldValueResultsMessage: `addObserver(of: connection, for: .bmltFieldValueResults) { message in … }`.
    public static var bmltFieldValueResults: Self { .init() }
}
/// The coverage area arrived: `addObserver(of: connection, for: .bmltCoverageAreaResults) { message in print(message.coverageArea) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTCoverageAreaResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The coverage area.
    public let coverageArea: BMLTCoverageArea
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltCoverageAreaResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTCoverageAreaResultsMessage> {
    /// BMLTCoverageAreaResultsMessage: `addObserver(of: connection, for: .bmltCoverageAreaResults) { message in … }`.
    public static var bmltCoverageAreaResults: Self { .init() }
}
/// A NAWS export arrived: `addObserver(of: connection, for: .bmltNAWSExportResults) { message in print(message.export) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTNAWSExportResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// The export.
    public let export: BMLTNAWSExport
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltNAWSExportResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTNAWSExportResultsMessage> {
    /// BMLTNAWSExportResultsMessage: `addObserver(of: connection, for: .bmltNAWSExportResults) { message in … }`.
    public static var bmltNAWSExportResults: Self { .init() }
}
/// An edit was saved: `addObserver(of: connection, for: .bmltMeetingSaved) { message in print(message.meeting) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingSavedMessage: BMLTEventConvertibleMessage, Sendable {
    /// The meeting as the server holds it now.
    public let meeting: BMLTMeeting
    /// What changed (key, before, after).
    public let fieldChanges: [BMLTFieldChange]
    /// The save request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMeetingSaved
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingSavedMessage> {
    /// BMLTMeetingSavedMessage: `addObserver(of: connection, for: .bmltMeetingSaved) { message in … }`.
    public static var bmltMeetingSaved: Self { .init() }
}
/// A meeting was created or restored: `addObserver(of: connection, for: .bmltMeetingAdded) { message in print(message.meeting) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingAddedMessage: BMLTEventConvertibleMessage, Sendable {
    /// The new or restored meeting.
    public let meeting: BMLTMeeting
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMeetingAdded
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingAddedMessage> {
    /// BMLTMeetingAddedMessage: `addObserver(of: connection, for: .bmltMeetingAdded) { message in … }`.
    public static var bmltMeetingAdded: Self { .init() }
}
/// A meeting was deleted: `addObserver(of: connection, for: .bmltMeetingDeleted) { message in print(message.meetingID) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMeetingDeletedMessage: BMLTEventConvertibleMessage, Sendable {
    /// The deleted meeting's ID.
    public let meetingID: Int
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMeetingDeleted
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMeetingDeletedMessage> {
    /// BMLTMeetingDeletedMessage: `addObserver(of: connection, for: .bmltMeetingDeleted) { message in … }`.
    public static var bmltMeetingDeleted: Self { .init() }
}
/// A message to a meeting contact ended: `addObserver(of: connection, for: .bmltMessageSent) { message in print(message.wasSent) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTMessageSentMessage: BMLTEventConvertibleMessage, Sendable {
    /// Whether the server accepted the message.
    public let wasSent: Bool
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltMessageSent
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTMessageSentMessage> {
    /// BMLTMessageSentMessage: `addObserver(of: connection, for: .bmltMessageSent) { message in … }`.
    public static var bmltMessageSent: Self { .init() }
}
/// The administrator logged in or out: `addObserver(of: connection, for: .bmltAdminLoginChanged) { message in print(message.isLoggedIn) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTAdminLoginChangedMessage: BMLTEventConvertibleMessage, Sendable {
    /// Whether the administrator is logged in now.
    public let isLoggedIn: Bool
    /// The login or logout request (`nil` when the server ended the login).
    public let request: BMLTRequest?
    static let classicName = Notification.Name.bmltAdminLoginChanged
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTAdminLoginChangedMessage> {
    /// BMLTAdminLoginChangedMessage: `addObserver(of: connection, for: .bmltAdminLoginChanged) { message in … }`.
    public static var bmltAdminLoginChanged: Self { .init() }
}
/// A request was cancelled: `addObserver(of: connection, for: .bmltRequestCancelled) { message in print(message.request) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTRequestCancelledMessage: BMLTEventConvertibleMessage, Sendable {
    /// The cancelled request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltRequestCancelled
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTRequestCancelledMessage> {
    /// BMLTRequestCancelledMessage: `addObserver(of: connection, for: .bmltRequestCancelled) { message in … }`.
    public static var bmltRequestCancelled: Self { .init() }
}
/// An operation failed: `addObserver(of: connection, for: .bmltError) { message in print(message.error) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTErrorMessage: BMLTEventConvertibleMessage, Sendable {
    /// What went wrong.
    public let error: BMLTError
    /// The request that failed, if any.
    public let request: BMLTRequest?
    static let classicName = Notification.Name.bmltError
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTErrorMessage> {
    /// BMLTErrorMessage: `addObserver(of: connection, for: .bmltError) { message in … }`.
    public static var bmltError: Self { .init() }
}
#endif
