import Foundation

// The table of events, typed side, continued (see BMLTMessages.swift): the server-administration messages.

#if compiler(>=6.2)
/// A server-administration read ended: `addObserver(of: connection, for: .bmltServerAdminResults) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServerAdminResultsMessage: BMLTEventConvertibleMessage, Sendable {
    /// What was read.
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltServerAdminResults
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerAdminResultsMessage> {
    /// BMLTServerAdminResultsMessage: `addObserver(of: connection, for: .bmltServerAdminResults) { message in … }`.
    public static var bmltServerAdminResults: Self { .init() }
}
/// A format was created or saved (`result` is `.format(format, wasCreated:)`): `addObserver(of: connection, for: .bmltFormatSaved) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatSavedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltFormatSaved
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatSavedMessage> {
    /// BMLTFormatSavedMessage: `addObserver(of: connection, for: .bmltFormatSaved) { message in … }`.
    public static var bmltFormatSaved: Self { .init() }
}
/// A format was deleted (`result` is `.formatDeleted(id)`): `addObserver(of: connection, for: .bmltFormatDeleted) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatDeletedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltFormatDeleted
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatDeletedMessage> {
    /// BMLTFormatDeletedMessage: `addObserver(of: connection, for: .bmltFormatDeleted) { message in … }`.
    public static var bmltFormatDeleted: Self { .init() }
}
/// A service body was created or saved (`result` is `.serviceBody(body, wasCreated:)`): `addObserver(of: connection, for: .bmltServiceBodySaved) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodySavedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltServiceBodySaved
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodySavedMessage> {
    /// BMLTServiceBodySavedMessage: `addObserver(of: connection, for: .bmltServiceBodySaved) { message in … }`.
    public static var bmltServiceBodySaved: Self { .init() }
}
/// A service body was deleted (`result` is `.serviceBodyDeleted(id)`): `addObserver(of: connection, for: .bmltServiceBodyDeleted) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodyDeletedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltServiceBodyDeleted
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodyDeletedMessage> {
    /// BMLTServiceBodyDeletedMessage: `addObserver(of: connection, for: .bmltServiceBodyDeleted) { message in … }`.
    public static var bmltServiceBodyDeleted: Self { .init() }
}
/// A user was created or saved (never with a password) (`result` is `.user(user, wasCreated:)`): `addObserver(of: connection, for: .bmltUserSaved) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTUserSavedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltUserSaved
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTUserSavedMessage> {
    /// BMLTUserSavedMessage: `addObserver(of: connection, for: .bmltUserSaved) { message in … }`.
    public static var bmltUserSaved: Self { .init() }
}
/// A user was deleted (`result` is `.userDeleted(id)`): `addObserver(of: connection, for: .bmltUserDeleted) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTUserDeletedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltUserDeleted
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTUserDeletedMessage> {
    /// BMLTUserDeletedMessage: `addObserver(of: connection, for: .bmltUserDeleted) { message in … }`.
    public static var bmltUserDeleted: Self { .init() }
}
/// Server settings were changed (`result` is `.settings(settings)`): `addObserver(of: connection, for: .bmltSettingsSaved) { message in print(message.result) }`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTSettingsSavedMessage: BMLTEventConvertibleMessage, Sendable {
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
    static let classicName = Notification.Name.bmltSettingsSaved
    let event: BMLTEvent
}
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTSettingsSavedMessage> {
    /// BMLTSettingsSavedMessage: `addObserver(of: connection, for: .bmltSettingsSaved) { message in … }`.
    public static var bmltSettingsSaved: Self { .init() }
}
#endif
