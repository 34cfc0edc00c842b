import Foundation

// The typed messages of the read and progress events (see BMLTEvent+Messages.swift for how they are posted).

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

#endif
