import Foundation

// The typed messages of writes, logins, cancellations and errors (see BMLTEvent+Messages.swift for how they are posted).

#if compiler(>=6.2)
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

/// A server-administration write ended, as one message for seven classic names. **No longer posted**: a message
/// type has one notification name, so Foundation could not deliver it as the classic notification on Apple
/// platforms. Observe the message of each write instead (`.bmltFormatSaved`, `.bmltFormatDeleted`,
/// `.bmltServiceBodySaved`, `.bmltServiceBodyDeleted`, `.bmltUserSaved`, `.bmltUserDeleted`, `.bmltSettingsSaved`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltUserSaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, deprecated, message: "No longer posted: observe BMLTFormatSavedMessage, BMLTUserSavedMessage, … (one per classic name)")
public struct BMLTServerAdminSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What changed.
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, deprecated, message: "No longer posted: observe .bmltFormatSaved, .bmltUserSaved, … (one per classic name)")
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerAdminSavedMessage> {
    /// BMLTServerAdminSavedMessage (no longer posted): observe the message of each write.
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFormatSaved) { message in print(message.result) }
    /// ```
    public static var bmltServerAdminSaved: Self { .init() }
}

#endif
