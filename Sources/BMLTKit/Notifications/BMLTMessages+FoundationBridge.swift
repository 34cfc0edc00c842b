import Foundation

// Foundation.framework's interoperability members for every typed message (Apple platforms, OS 26): `name` (the
// classic `org.bmlt.kit.…` name), `makeMessage(_:)` and `makeNotification(_:)`. With them Foundation hands BMLTKit's
// one classic notification per event to classic observers as it is and to typed observers converted. They are
// protocol requirements only in Foundation.framework; swift-corelibs-foundation (Linux) has none of them and never
// bridges, so they are compiled on Darwin only. Each type spells its own members (no shared default), so the
// witness Foundation picks is never in doubt. The conversions they call are in BMLTMessages+Bridge.swift.

#if compiler(>=6.2) && canImport(Darwin)

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTProgressDidStartMessage {
    /// The classic name, `.bmltProgressDidStart`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTProgressDidStartMessage.name == .bmltProgressDidStart)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTProgressDidStartMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTProgressDidStartMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTProgressDidStopMessage {
    /// The classic name, `.bmltProgressDidStop`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTProgressDidStopMessage.name == .bmltProgressDidStop)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTProgressDidStopMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTProgressDidStopMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServerValidatedMessage {
    /// The classic name, `.bmltServerValidated`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTServerValidatedMessage.name == .bmltServerValidated)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTServerValidatedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTServerValidatedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingSearchResultsMessage {
    /// The classic name, `.bmltMeetingSearchResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
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

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatSearchResultsMessage {
    /// The classic name, `.bmltFormatSearchResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTFormatSearchResultsMessage.name == .bmltFormatSearchResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTFormatSearchResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTFormatSearchResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTChangeListResultsMessage {
    /// The classic name, `.bmltChangeListResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTChangeListResultsMessage.name == .bmltChangeListResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTChangeListResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTChangeListResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingSavedMessage {
    /// The classic name, `.bmltMeetingSaved`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTMeetingSavedMessage.name == .bmltMeetingSaved)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTMeetingSavedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTMeetingSavedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingAddedMessage {
    /// The classic name, `.bmltMeetingAdded`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTMeetingAddedMessage.name == .bmltMeetingAdded)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTMeetingAddedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTMeetingAddedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingDeletedMessage {
    /// The classic name, `.bmltMeetingDeleted`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTMeetingDeletedMessage.name == .bmltMeetingDeleted)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTMeetingDeletedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTMeetingDeletedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMessageSentMessage {
    /// The classic name, `.bmltMessageSent`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTMessageSentMessage.name == .bmltMessageSent)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTMessageSentMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTMessageSentMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTAdminLoginChangedMessage {
    /// The classic name, `.bmltAdminLoginChanged`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTAdminLoginChangedMessage.name == .bmltAdminLoginChanged)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTAdminLoginChangedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTAdminLoginChangedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTRequestCancelledMessage {
    /// The classic name, `.bmltRequestCancelled`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTRequestCancelledMessage.name == .bmltRequestCancelled)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTRequestCancelledMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTRequestCancelledMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTErrorMessage {
    /// The classic name, `.bmltError`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTErrorMessage.name == .bmltError)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTErrorMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTErrorMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodyResultsMessage {
    /// The classic name, `.bmltServiceBodyResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTServiceBodyResultsMessage.name == .bmltServiceBodyResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTServiceBodyResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTServiceBodyResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFieldKeyResultsMessage {
    /// The classic name, `.bmltFieldKeyResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTFieldKeyResultsMessage.name == .bmltFieldKeyResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTFieldKeyResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTFieldKeyResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFieldValueResultsMessage {
    /// The classic name, `.bmltFieldValueResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTFieldValueResultsMessage.name == .bmltFieldValueResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTFieldValueResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTFieldValueResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTCoverageAreaResultsMessage {
    /// The classic name, `.bmltCoverageAreaResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTCoverageAreaResultsMessage.name == .bmltCoverageAreaResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTCoverageAreaResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTCoverageAreaResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTNAWSExportResultsMessage {
    /// The classic name, `.bmltNAWSExportResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTNAWSExportResultsMessage.name == .bmltNAWSExportResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTNAWSExportResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTNAWSExportResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServerAdminResultsMessage {
    /// The classic name, `.bmltServerAdminResults`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTServerAdminResultsMessage.name == .bmltServerAdminResults)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTServerAdminResultsMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTServerAdminResultsMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatSavedMessage {
    /// The classic name, `.bmltFormatSaved`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTFormatSavedMessage.name == .bmltFormatSaved)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTFormatSavedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTFormatSavedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatDeletedMessage {
    /// The classic name, `.bmltFormatDeleted`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTFormatDeletedMessage.name == .bmltFormatDeleted)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTFormatDeletedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTFormatDeletedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodySavedMessage {
    /// The classic name, `.bmltServiceBodySaved`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTServiceBodySavedMessage.name == .bmltServiceBodySaved)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTServiceBodySavedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTServiceBodySavedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodyDeletedMessage {
    /// The classic name, `.bmltServiceBodyDeleted`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTServiceBodyDeletedMessage.name == .bmltServiceBodyDeleted)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTServiceBodyDeletedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTServiceBodyDeletedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTUserSavedMessage {
    /// The classic name, `.bmltUserSaved`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTUserSavedMessage.name == .bmltUserSaved)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTUserSavedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTUserSavedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTUserDeletedMessage {
    /// The classic name, `.bmltUserDeleted`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTUserDeletedMessage.name == .bmltUserDeleted)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTUserDeletedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTUserDeletedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTSettingsSavedMessage {
    /// The classic name, `.bmltSettingsSaved`: Foundation delivers
    /// BMLTKit's one classic notification to typed observers too.
    /// ```swift
    /// print(BMLTSettingsSavedMessage.name == .bmltSettingsSaved)   // true
    /// ```
    public static var name: Notification.Name { classicName }

    /// The message in a BMLTKit notification of this name; `nil` (nothing delivered) for a notification without
    /// BMLTKit's payload.
    /// ```swift
    /// let message = BMLTSettingsSavedMessage.makeMessage(notification)
    /// ```
    @MainActor public static func makeMessage(_ notification: Notification) -> Self? { message(from: notification) }

    /// The classic notification for a message, with BMLTKit's payload (`notification.bmltEvent`).
    /// ```swift
    /// let notification = BMLTSettingsSavedMessage.makeNotification(message)
    /// ```
    @MainActor public static func makeNotification(_ message: Self) -> Notification { notification(for: message) }
}
#endif
