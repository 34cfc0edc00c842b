// A stand-in for Foundation.framework's typed-notification protocols, compiled into a scratch copy of BMLTKit by
// .ci/darwin-shaped (never into the real package). Written for this project from swift-foundation's
// `FOUNDATION_FRAMEWORK` branches, read at swiftlang/swift-foundation 1e46ae02cfa60c9b1c3537db080b6785fdb559ed
// (Sources/FoundationEssentials/NotificationCenter/MainActorMessage.swift: the protocol's three extra requirements
// and their default implementations; AsyncMessage.swift: the same, not main-actor isolated).
// swift-corelibs-foundation's `MainActorMessage` (Linux) has only `Subject`; refining it with exactly the
// Apple-only requirements and defaults puts BMLTKit's messages in the position they have on Apple platforms: each
// requirement has two candidate implementations, Foundation's default and BMLTKit's, and the compiler must pick one.
import Foundation

#if compiler(>=6.2)
/// `NotificationCenter.MainActorMessage` as Foundation.framework declares it (OS 26).
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public protocol DarwinShapedMainActorMessage: NotificationCenter.MainActorMessage {
    /// The name a classic notification of this message carries.
    static var name: Notification.Name { get }
    /// The message for a posted classic notification, or `nil`.
    @MainActor static func makeMessage(_ notification: Notification) -> Self?
    /// The classic notification for a posted message.
    @MainActor static func makeNotification(_ message: Self) -> Notification
}

/// Foundation.framework's defaults: no message from a notification, a bare notification, the type's name.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension DarwinShapedMainActorMessage {
    /// Foundation's default: no message.
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { nil }
    /// Foundation's default: a notification with the message's name and nothing else.
    @MainActor public static func makeNotification(_ message: Self) -> Notification { Notification(name: Self.name) }
    /// Foundation's default: the fully qualified type name.
    public static var name: Notification.Name { Notification.Name(rawValue: _typeName(Self.self)) }
}

/// `NotificationCenter.AsyncMessage` as Foundation.framework declares it (OS 26). No BMLTKit type posts an
/// `AsyncMessage` (the unavailable `BMLTEventMessage` was never posted and takes these defaults on Apple platforms).
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
public protocol DarwinShapedAsyncMessage: NotificationCenter.AsyncMessage {
    /// The name a classic notification of this message carries.
    static var name: Notification.Name { get }
    /// The message for a posted classic notification, or `nil`.
    static func makeMessage(_ notification: Notification) -> Self?
    /// The classic notification for a posted message.
    static func makeNotification(_ message: Self) -> Notification
}

/// Foundation.framework's defaults for `AsyncMessage`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension DarwinShapedAsyncMessage {
    /// Foundation's default: no message.
    public static func makeMessage(_ notification: Notification) -> Self? { nil }
    /// Foundation's default: a notification with the message's name and nothing else.
    public static func makeNotification(_ message: Self) -> Notification { Notification(name: Self.name) }
    /// Foundation's default: the fully qualified type name.
    public static var name: Notification.Name { Notification.Name(rawValue: _typeName(Self.self)) }
}
#endif
