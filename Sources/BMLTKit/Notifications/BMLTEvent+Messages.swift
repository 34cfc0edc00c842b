import Foundation

// Foundation's typed notifications (SF-0011) for BMLTKit's events: one `NotificationCenter.MainActorMessage`
// type per classic notification name (BMLTMessages+Reads.swift, +Writes.swift, +ServerAdmin.swift). Where they
// reach observers depends on the platform's Foundation, because the two do not deliver a message the same way:
//
// - Apple platforms (Foundation.framework, OS 26): a posted message *is* a classic `Notification` named
//   `Message.name`, and typed observers are classic observers of that name. Each message type's `name` is its
//   classic `org.bmlt.kit.…` name (BMLTMessages+Bridge.swift), so BMLTKit posts only the classic notification,
//   once, and Foundation hands it to classic observers as is and to typed observers through `makeMessage`. A
//   `forName: nil` observer sees each event once, with its payload; no second notification exists. Foundation calls
//   typed observers inside the classic post and requires the main actor there, so on these systems
//   `EventPoster` posts notifications on the main actor whatever `deliveryQueue` says.
// - swift-corelibs-foundation (Linux and other non-Apple platforms): messages live in the same registrar as classic
//   observers, keyed by name, and a posted message is handed to every `forName: nil` observer of its subject, which
//   force-casts it to `Notification` and stops the process. Nothing here can tell whether a host has such an
//   observer, so BMLTKit never posts a typed message to `notificationCenter`: only to
//   `BMLTConfiguration.typedMessageCenter`, a center the host names for typed observers alone (default: none).
//
// `connection.events` and event monitors are the typed, ordered way that works the same everywhere.
//
// Observe on the main actor:
//     let token = NotificationCenter.default.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
//         print(message.meetings.count)
//     }

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
@available(*, deprecated, message: "No longer posted: use connection.events (every event, in order, on every platform)")
public struct BMLTEventMessage: NotificationCenter.AsyncMessage, Sendable {
    /// The connection that posts it.
    public typealias Subject = BMLTConnection
    /// The event.
    public let event: BMLTEvent
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@available(*, deprecated, message: "No longer posted: use connection.events (every event, in order, on every platform)")
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<BMLTEventMessage> {
    /// BMLTEventMessage (no longer posted): use `connection.events`.
    /// ```swift
    /// for await event in connection.events { print(event.notificationName.rawValue) }
    /// ```
    public static var bmltEvent: Self { .init() }
}

extension EventPoster {
    /// Posts the event's typed message to `center` (the configuration's `typedMessageCenter`). The switch is
    /// exhaustive: a new `BMLTEvent` case without a message does not compile.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    func postMessage(_ event: BMLTEvent, from connection: BMLTConnection, to center: NotificationCenter) {
        switch event {
        case .progressDidStart: post(BMLTProgressDidStartMessage.self, event, connection, center)
        case .progressDidStop: post(BMLTProgressDidStopMessage.self, event, connection, center)
        case .serverValidated: post(BMLTServerValidatedMessage.self, event, connection, center)
        case .meetingSearchResults: post(BMLTMeetingSearchResultsMessage.self, event, connection, center)
        case .formatSearchResults: post(BMLTFormatSearchResultsMessage.self, event, connection, center)
        case .changeListResults: post(BMLTChangeListResultsMessage.self, event, connection, center)
        case .meetingSaved: post(BMLTMeetingSavedMessage.self, event, connection, center)
        case .meetingAdded: post(BMLTMeetingAddedMessage.self, event, connection, center)
        case .meetingDeleted: post(BMLTMeetingDeletedMessage.self, event, connection, center)
        case .messageSent: post(BMLTMessageSentMessage.self, event, connection, center)
        case .adminLoginChanged: post(BMLTAdminLoginChangedMessage.self, event, connection, center)
        case .requestCancelled: post(BMLTRequestCancelledMessage.self, event, connection, center)
        case .error: post(BMLTErrorMessage.self, event, connection, center)
        case .serviceBodyResults: post(BMLTServiceBodyResultsMessage.self, event, connection, center)
        case .fieldKeyResults: post(BMLTFieldKeyResultsMessage.self, event, connection, center)
        case .fieldValueResults: post(BMLTFieldValueResultsMessage.self, event, connection, center)
        case .coverageAreaResults: post(BMLTCoverageAreaResultsMessage.self, event, connection, center)
        case .nawsExportResults: post(BMLTNAWSExportResultsMessage.self, event, connection, center)
        case .serverAdminResults: post(BMLTServerAdminResultsMessage.self, event, connection, center)
        case .serverAdminSaved:
            switch event.notificationName {
            case .bmltFormatDeleted: post(BMLTFormatDeletedMessage.self, event, connection, center)
            case .bmltServiceBodySaved: post(BMLTServiceBodySavedMessage.self, event, connection, center)
            case .bmltServiceBodyDeleted: post(BMLTServiceBodyDeletedMessage.self, event, connection, center)
            case .bmltUserSaved: post(BMLTUserSavedMessage.self, event, connection, center)
            case .bmltUserDeleted: post(BMLTUserDeletedMessage.self, event, connection, center)
            case .bmltSettingsSaved: post(BMLTSettingsSavedMessage.self, event, connection, center)
            default: post(BMLTFormatSavedMessage.self, event, connection, center)
            }
        }
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    private func post<Message: BMLTEventConvertibleMessage>(_ type: Message.Type, _ event: BMLTEvent,
                                                            _ connection: BMLTConnection, _ center: NotificationCenter) {
        guard let message = Message(event: event) else { return }
        center.post(message, subject: connection)
    }
}
#endif
