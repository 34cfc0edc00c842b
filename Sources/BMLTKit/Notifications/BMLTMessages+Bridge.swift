import Foundation

// How the typed messages (BMLTMessages.swift) are made, posted and bridged, once for all of them. Where they reach
// observers depends on the platform's Foundation:
//
// - Apple platforms (Foundation.framework, OS 26): a posted message *is* a classic `Notification` named
//   `Message.name`, and typed observers are classic observers of that name. Each message type's `name` is its classic
//   `org.bmlt.kit.…` name, so BMLTKit posts only the classic notification, once, and Foundation hands it to classic
//   observers as is and to typed observers through `makeMessage`; a `forName: nil` observer sees each event once.
//   Foundation calls typed observers inside the classic post, on the main actor, so there `EventPoster` posts
//   notifications on the main actor whatever `deliveryQueue` says. `name`, `makeMessage` and `makeNotification` are
//   Foundation.framework's protocol requirements; BMLTKit's implementations are the defaults below, which Swift
//   prefers to Foundation's own (ours extend a protocol that refines `MainActorMessage`). `.ci/darwin-shaped` proves
//   on Linux, for every message type, that these are the witnesses chosen (Tests/DarwinShaped).
// - swift-corelibs-foundation (Linux): messages live in the same registrar as classic observers, and a posted message
//   reaches every `forName: nil` observer of its subject, which force-casts it to `Notification` and stops the
//   process. So BMLTKit never posts a typed message to `notificationCenter` there: only to
//   `BMLTConfiguration.typedMessageCenter`, a center the host names for typed observers alone (default: none).
//
// `connection.events` and event monitors are the typed, ordered way that works the same everywhere.

#if compiler(>=6.2)
#if BMLTKIT_DARWIN_SHAPED
/// The Darwin-shaped check's stand-in for Foundation.framework's `MainActorMessage` (Tests/DarwinShaped).
typealias FoundationMainActorMessage = DarwinShapedMainActorMessage
#else
/// Foundation's `MainActorMessage` (with Foundation.framework's bridging requirements on Apple platforms).
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
typealias FoundationMainActorMessage = NotificationCenter.MainActorMessage
#endif

/// A typed message made from one `BMLTEvent` (`BMLTEvent.typedMessage`) and named after its classic notification.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
protocol BMLTEventConvertibleMessage: FoundationMainActorMessage, Sendable where Subject == BMLTConnection {
    /// The classic notification name this message stands for.
    static var classicName: Notification.Name { get }
    /// The event this message carries.
    var event: BMLTEvent { get }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTEventConvertibleMessage {
    /// The message carried by a BMLTKit notification of this message's name; `nil` for any other notification
    /// (another name, or a host-posted one without BMLTKit's payload).
    static func message(from notification: Notification) -> Self? {
        guard notification.name == classicName else { return nil }
        return notification.bmltEvent?.typedMessage as? Self
    }

    /// The classic notification for this message (no object: Foundation sets the subject).
    static func notification(for message: Self) -> Notification {
        Notification(name: classicName, object: nil, userInfo: message.event.userInfo)
    }
}

#if canImport(Darwin) || BMLTKIT_DARWIN_SHAPED
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTEventConvertibleMessage {
    /// The classic name (for example `.bmltMeetingSearchResults`): Foundation delivers BMLTKit's one classic
    /// notification to typed observers too.
    /// ```swift
    /// print(BMLTMeetingSearchResultsMessage.name == .bmltMeetingSearchResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTMeetingSearchResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTMeetingSearchResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}
#endif

extension EventPoster {
    /// Posts the event's typed message (`BMLTEvent.typedMessage`) to `center`, the configuration's `typedMessageCenter`.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    func postMessage(_ event: BMLTEvent, from connection: BMLTConnection, to center: NotificationCenter) {
        post(event.typedMessage, from: connection, to: center)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    private func post<Message: BMLTEventConvertibleMessage>(_ message: Message, from connection: BMLTConnection,
                                                            to center: NotificationCenter) {
        center.post(message, subject: connection)
    }
}
#endif
