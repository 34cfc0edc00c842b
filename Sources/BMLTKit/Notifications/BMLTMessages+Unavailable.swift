import Foundation

// Typed messages that are no longer posted. They are unavailable, not deprecated: code that still observes them stops
// compiling, with the message naming what to observe instead, rather than compiling and never firing.

#if compiler(>=6.2)
/// Every event as one typed message. **No longer posted**: a second notification for every event would reach
/// every `forName: nil` observer (crashing it on Linux, and giving it each event twice on Apple platforms).
/// Use `connection.events`, which gives every event, in order, on every platform.
/// ```swift
/// for await event in connection.events {
///     if case .progressDidStop = event { break }
/// }
/// ```
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, unavailable, message: "No longer posted: use connection.events (every event, in order, on every platform)")
public struct BMLTEventMessage: NotificationCenter.AsyncMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The event.
    public let event: BMLTEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, unavailable, message: "No longer posted: use connection.events (every event, in order, on every platform)")
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTEventMessage> {
    /// BMLTEventMessage (no longer posted): use `connection.events`.
    /// ```swift
    /// for await event in connection.events { print(event.notificationName.rawValue) }
    /// ```
    public static var bmltEvent: Self { .init() }
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
@available(*, unavailable, message: "No longer posted: observe BMLTFormatSavedMessage, BMLTUserSavedMessage, … (one per classic name)")
public struct BMLTServerAdminSavedMessage: NotificationCenter.MainActorMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// What changed.
    public let result: BMLTServerAdminResult
    /// The request.
    public let request: BMLTRequest
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, unavailable, message: "No longer posted: observe .bmltFormatSaved, .bmltUserSaved, … (one per classic name)")
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTServerAdminSavedMessage> {
    /// BMLTServerAdminSavedMessage (no longer posted): observe the message of each write.
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: connection, for: .bmltFormatSaved) { message in print(message.result) }
    /// ```
    public static var bmltServerAdminSaved: Self { .init() }
}
#endif
