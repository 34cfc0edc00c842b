import Foundation

// The typed messages of server-administration writes: one type per classic name, so that Foundation can bridge
// each to its classic notification on Apple platforms (a message type has one `name`).

#if compiler(>=6.2)
/// A format was created or saved (the typed `.bmltFormatSaved`; `result` is `.format(format, wasCreated:)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFormatSaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatSavedMessage> {
    /// BMLTFormatSavedMessage: `addObserver(of: connection, for: .bmltFormatSaved) { message in … }`.
    public static var bmltFormatSaved: Self { .init() }
}

/// A format was deleted (the typed `.bmltFormatDeleted`; `result` is `.formatDeleted(id)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFormatDeleted) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTFormatDeletedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTFormatDeletedMessage> {
    /// BMLTFormatDeletedMessage: `addObserver(of: connection, for: .bmltFormatDeleted) { message in … }`.
    public static var bmltFormatDeleted: Self { .init() }
}

/// A service body was created or saved (the typed `.bmltServiceBodySaved`; `result` is `.serviceBody(body, wasCreated:)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServiceBodySaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodySavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodySavedMessage> {
    /// BMLTServiceBodySavedMessage: `addObserver(of: connection, for: .bmltServiceBodySaved) { message in … }`.
    public static var bmltServiceBodySaved: Self { .init() }
}

/// A service body was deleted (the typed `.bmltServiceBodyDeleted`; `result` is `.serviceBodyDeleted(id)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltServiceBodyDeleted) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTServiceBodyDeletedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServiceBodyDeletedMessage> {
    /// BMLTServiceBodyDeletedMessage: `addObserver(of: connection, for: .bmltServiceBodyDeleted) { message in … }`.
    public static var bmltServiceBodyDeleted: Self { .init() }
}

/// A user was created or saved (never with a password) (the typed `.bmltUserSaved`; `result` is `.user(user, wasCreated:)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltUserSaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTUserSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTUserSavedMessage> {
    /// BMLTUserSavedMessage: `addObserver(of: connection, for: .bmltUserSaved) { message in … }`.
    public static var bmltUserSaved: Self { .init() }
}

/// A user was deleted (the typed `.bmltUserDeleted`; `result` is `.userDeleted(id)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltUserDeleted) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTUserDeletedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTUserDeletedMessage> {
    /// BMLTUserDeletedMessage: `addObserver(of: connection, for: .bmltUserDeleted) { message in … }`.
    public static var bmltUserDeleted: Self { .init() }
}

/// Server settings were changed (the typed `.bmltSettingsSaved`; `result` is `.settings(settings)`).
/// ```swift
/// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltSettingsSaved) { message in
///     print(message.result)
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public struct BMLTSettingsSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What the server holds now (or the id deleted).
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTSettingsSavedMessage> {
    /// BMLTSettingsSavedMessage: `addObserver(of: connection, for: .bmltSettingsSaved) { message in … }`.
    public static var bmltSettingsSaved: Self { .init() }
}
#endif
