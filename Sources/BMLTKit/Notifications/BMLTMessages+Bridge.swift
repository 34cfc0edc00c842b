import Foundation

// How each typed message maps to its event and to its classic notification, one extension per message type.
// Everywhere: `init?(event:)` and `event`, used to post a message to `BMLTConfiguration.typedMessageCenter`.
// On Apple platforms (Foundation.framework, OS 26), also the members by which Foundation bridges a message type to
// a classic notification: `name` (the classic `org.bmlt.kit.…` name), `makeMessage(_:)` and `makeNotification(_:)`,
// in BMLTMessages+FoundationBridge.swift.
// There BMLTKit posts only the classic notification, and Foundation hands it once to classic observers and once,
// converted by `makeMessage`, to typed observers of that name. swift-corelibs-foundation (Linux) has none of these
// requirements and never bridges (see BMLTEvent+Messages.swift).

#if compiler(>=6.2)
/// A typed message made from, and turned back into, one `BMLTEvent`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
protocol BMLTEventConvertibleMessage: NotificationCenter.MainActorMessage, Sendable where Subject == BMLTConnection {
    /// The classic notification name this message stands for.
    static var classicName: Notification.Name { get }
    /// The message for `event`; `nil` when the event is of another kind.
    init?(event: BMLTEvent)
    /// The event this message carries.
    var event: BMLTEvent { get }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTEventConvertibleMessage {
    /// The message carried by a BMLTKit notification of this message's name; `nil` for any other notification
    /// (another name, or a host-posted one without BMLTKit's payload).
    static func message(from notification: Notification) -> Self? {
        guard notification.name == classicName, let event = notification.bmltEvent else { return nil }
        return Self(event: event)
    }

    /// The classic notification for this message (no object: Foundation sets the subject).
    static func notification(for message: Self) -> Notification {
        Notification(name: classicName, object: nil, userInfo: message.event.userInfo)
    }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTProgressDidStartMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltProgressDidStart }
    init?(event: BMLTEvent) {
        guard case .progressDidStart = event else { return nil }
        self.init()
    }
    var event: BMLTEvent { .progressDidStart }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTProgressDidStopMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltProgressDidStop }
    init?(event: BMLTEvent) {
        guard case .progressDidStop = event else { return nil }
        self.init()
    }
    var event: BMLTEvent { .progressDidStop }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServerValidatedMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltServerValidated }
    init?(event: BMLTEvent) {
        guard case .serverValidated(let isValid, let info, let error, let request) = event else { return nil }
        self.init(isValid: isValid, info: info, error: error, request: request)
    }
    var event: BMLTEvent { .serverValidated(isValid: isValid, info: info, error: error, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingSearchResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltMeetingSearchResults }
    init?(event: BMLTEvent) {
        guard case .meetingSearchResults(let meetings, let request) = event else { return nil }
        self.init(meetings: meetings, request: request)
    }
    var event: BMLTEvent { .meetingSearchResults(meetings, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatSearchResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltFormatSearchResults }
    init?(event: BMLTEvent) {
        guard case .formatSearchResults(let formats, let isAllUsedFormats, let request) = event else { return nil }
        self.init(formats: formats, isAllUsedFormats: isAllUsedFormats, request: request)
    }
    var event: BMLTEvent { .formatSearchResults(formats, isAllUsedFormats: isAllUsedFormats, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTChangeListResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltChangeListResults }
    init?(event: BMLTEvent) {
        guard case .changeListResults(let changes, let request) = event else { return nil }
        self.init(changes: changes, request: request)
    }
    var event: BMLTEvent { .changeListResults(changes, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingSavedMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltMeetingSaved }
    init?(event: BMLTEvent) {
        guard case .meetingSaved(let meeting, let fieldChanges, let request) = event else { return nil }
        self.init(meeting: meeting, fieldChanges: fieldChanges, request: request)
    }
    var event: BMLTEvent { .meetingSaved(meeting, fieldChanges: fieldChanges, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingAddedMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltMeetingAdded }
    init?(event: BMLTEvent) {
        guard case .meetingAdded(let meeting, let request) = event else { return nil }
        self.init(meeting: meeting, request: request)
    }
    var event: BMLTEvent { .meetingAdded(meeting, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMeetingDeletedMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltMeetingDeleted }
    init?(event: BMLTEvent) {
        guard case .meetingDeleted(let meetingID, let request) = event else { return nil }
        self.init(meetingID: meetingID, request: request)
    }
    var event: BMLTEvent { .meetingDeleted(id: meetingID, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTMessageSentMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltMessageSent }
    init?(event: BMLTEvent) {
        guard case .messageSent(let wasSent, let request) = event else { return nil }
        self.init(wasSent: wasSent, request: request)
    }
    var event: BMLTEvent { .messageSent(wasSent, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTAdminLoginChangedMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltAdminLoginChanged }
    init?(event: BMLTEvent) {
        guard case .adminLoginChanged(let isLoggedIn, let request) = event else { return nil }
        self.init(isLoggedIn: isLoggedIn, request: request)
    }
    var event: BMLTEvent { .adminLoginChanged(isLoggedIn: isLoggedIn, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTRequestCancelledMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltRequestCancelled }
    init?(event: BMLTEvent) {
        guard case .requestCancelled(let request) = event else { return nil }
        self.init(request: request)
    }
    var event: BMLTEvent { .requestCancelled(request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTErrorMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltError }
    init?(event: BMLTEvent) {
        guard case .error(let error, let request) = event else { return nil }
        self.init(error: error, request: request)
    }
    var event: BMLTEvent { .error(error, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodyResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltServiceBodyResults }
    init?(event: BMLTEvent) {
        guard case .serviceBodyResults(let serviceBodies, let request) = event else { return nil }
        self.init(serviceBodies: serviceBodies, request: request)
    }
    var event: BMLTEvent { .serviceBodyResults(serviceBodies, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFieldKeyResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltFieldKeyResults }
    init?(event: BMLTEvent) {
        guard case .fieldKeyResults(let fieldKeys, let request) = event else { return nil }
        self.init(fieldKeys: fieldKeys, request: request)
    }
    var event: BMLTEvent { .fieldKeyResults(fieldKeys, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFieldValueResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltFieldValueResults }
    init?(event: BMLTEvent) {
        guard case .fieldValueResults(let key, let values, let request) = event else { return nil }
        self.init(key: key, values: values, request: request)
    }
    var event: BMLTEvent { .fieldValueResults(key: key, values: values, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTCoverageAreaResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltCoverageAreaResults }
    init?(event: BMLTEvent) {
        guard case .coverageAreaResults(let coverageArea, let request) = event else { return nil }
        self.init(coverageArea: coverageArea, request: request)
    }
    var event: BMLTEvent { .coverageAreaResults(coverageArea, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTNAWSExportResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltNAWSExportResults }
    init?(event: BMLTEvent) {
        guard case .nawsExportResults(let export, let request) = event else { return nil }
        self.init(export: export, request: request)
    }
    var event: BMLTEvent { .nawsExportResults(export, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServerAdminResultsMessage: BMLTEventConvertibleMessage {
    static var classicName: Notification.Name { .bmltServerAdminResults }
    init?(event: BMLTEvent) {
        guard case .serverAdminResults(let result, let request) = event else { return nil }
        self.init(result: result, request: request)
    }
    var event: BMLTEvent { .serverAdminResults(result, request: request) }
}

/// A server-administration write's message: one type per classic name (a message type has one name), all made from
/// `.serverAdminSaved` events of that name.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
protocol BMLTServerAdminWriteMessage: BMLTEventConvertibleMessage {
    init(result: BMLTServerAdminResult, request: BMLTRequest)
    var result: BMLTServerAdminResult { get }
    var request: BMLTRequest { get }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServerAdminWriteMessage {
    init?(event: BMLTEvent) {
        guard case .serverAdminSaved(let result, let request) = event, event.notificationName == Self.classicName else { return nil }
        self.init(result: result, request: request)
    }
    var event: BMLTEvent { .serverAdminSaved(result, request: request) }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatSavedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltFormatSaved } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTFormatDeletedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltFormatDeleted } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodySavedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltServiceBodySaved } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTServiceBodyDeletedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltServiceBodyDeleted } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTUserSavedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltUserSaved } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTUserDeletedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltUserDeleted } }
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTSettingsSavedMessage: BMLTServerAdminWriteMessage { static var classicName: Notification.Name { .bmltSettingsSaved } }

#endif
