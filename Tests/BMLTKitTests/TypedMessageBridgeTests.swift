import Foundation
import Testing
@testable import BMLTKit

#if compiler(>=6.2)
/// The conversions Foundation.framework uses to deliver BMLTKit's one classic notification to typed observers on
/// Apple platforms (`makeMessage` / `makeNotification` call them there), checked here on every platform: each
/// message comes only from its own classic name with BMLTKit's payload, and turns back into the same notification.
@Suite("Typed messages: the bridge to the classic notifications")
@MainActor
struct TypedMessageBridgeTests {
    private static let request = BMLTRequest(kind: .meetingSearch)
    private static let meeting = BMLTMeeting(id: 42, serviceBodyID: 7, name: "Hope", weekday: .tuesday)

    /// One event of each kind a connect + search + admin session gives, with the message type that stands for it.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    private static var samples: [(BMLTEvent, any BMLTEventConvertibleMessage.Type)] {
        let format = BMLTAdminFormat(id: 3, translations: [BMLTAdminFormat.Translation(key: "O", name: "Open", language: "en")])
        return [
            (.progressDidStart, BMLTProgressDidStartMessage.self),
            (.progressDidStop, BMLTProgressDidStopMessage.self),
            (.serverValidated(isValid: true, info: BMLTServerInfo(version: "3.1.2", versionInt: 3_001_002), error: nil, request: request), BMLTServerValidatedMessage.self),
            (.meetingSearchResults([meeting], request: request), BMLTMeetingSearchResultsMessage.self),
            (.meetingsArrived([meeting], count: 1, request: request), BMLTMeetingsArrivedMessage.self),
            (.meetingDeleted(id: 42, request: request), BMLTMeetingDeletedMessage.self),
            (.adminLoginChanged(isLoggedIn: false, request: nil), BMLTAdminLoginChangedMessage.self),
            (.requestCancelled(request), BMLTRequestCancelledMessage.self),
            (.error(.timeout, request: request), BMLTErrorMessage.self),
            (.serverAdminSaved(.format(format, wasCreated: true), request: request), BMLTFormatSavedMessage.self),
            (.serverAdminSaved(.formatDeleted(id: 3), request: request), BMLTFormatDeletedMessage.self),
            (.serverAdminSaved(.serviceBodyDeleted(id: 5), request: request), BMLTServiceBodyDeletedMessage.self),
            (.serverAdminSaved(.userDeleted(id: 8), request: request), BMLTUserDeletedMessage.self),
        ]
    }

    @Test("each BMLTKit notification converts to its own message type only, and back to the same name and payload")
    func roundTrip() throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let samples = Self.samples
        for (event, type) in samples {
            let note = Notification(name: event.notificationName, object: nil, userInfo: event.userInfo)
            #expect(type.classicName == event.notificationName)
            for (_, other) in samples {
                let converted = other.message(from: note)
                #expect((converted != nil) == (other == type), "\(other) from \(note.name.rawValue)")
            }
            let converted: (any BMLTEventConvertibleMessage)? = type.message(from: note)
            let message = try #require(converted)
            let back = message.notification
            #expect(back.name == note.name)
            #expect(back.bmltEvent?.notificationName == event.notificationName)
            #expect(back.bmltRequest === event.request)
        }
        let search = try #require(BMLTMeetingSearchResultsMessage.message(from: Notification(
            name: .bmltMeetingSearchResults, object: nil, userInfo: BMLTEvent.meetingSearchResults([Self.meeting], request: Self.request).userInfo)))
        #expect(search.meetings == [Self.meeting] && search.request === Self.request)
    }

    @Test("a notification a host posts with a BMLTKit name and no (or a wrong) payload gives no message and no payload")
    func hostPostedNotifications() {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let bare = Notification(name: .bmltMeetingSearchResults)
        let wrong = Notification(name: .bmltServerValidated, object: nil,
                                 userInfo: ["org.bmlt.kit.event": 42, "org.bmlt.kit.isServerValid": "yes", "org.bmlt.kit.meetings": "none"])
        let other = Notification(name: Notification.Name("org.example.other"), object: nil,
                                 userInfo: BMLTEvent.progressDidStart.userInfo)
        #expect(BMLTMeetingSearchResultsMessage.message(from: bare) == nil)
        #expect(BMLTServerValidatedMessage.message(from: wrong) == nil)
        #expect(BMLTProgressDidStartMessage.message(from: other) == nil, "a BMLTKit payload under another name is not ours")
        for note in [bare, wrong] {
            #expect(note.bmltEvent == nil && note.bmltMeetings == nil && note.bmltIsServerValid == nil)
            #expect(note.bmltRequest == nil && note.bmltIsFromCache == nil && note.bmltError == nil)
        }
    }

    @Test("every server-administration write posts the message of its own classic name to the typedMessageCenter")
    func serverAdminWritesPostTheirOwnMessage() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let typedCenter = NotificationCenter()
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.typedMessageCenter = typedCenter
        let connection = BMLTConnection(rootServerURL: URL(string: "https://example.org/main_server")!, configuration: configuration)
        let poster = EventPoster(configuration: configuration)
        var got: [String] = []
        let tokens = [
            typedCenter.addObserver(of: connection, for: .bmltFormatSaved) { _ in got.append("format saved") },
            typedCenter.addObserver(of: connection, for: .bmltFormatDeleted) { _ in got.append("format deleted") },
            typedCenter.addObserver(of: connection, for: .bmltServiceBodyDeleted) { _ in got.append("service body deleted") },
            typedCenter.addObserver(of: connection, for: .bmltUserDeleted) { message in
                if case .userDeleted(let id) = message.result { got.append("user \(id) deleted") }
            },
        ]
        for (event, _) in Self.samples where event.notificationName.rawValue.hasSuffix(".saved") || event.notificationName.rawValue.hasSuffix(".deleted") {
            if case .serverAdminSaved = event { poster.postMessage(event, from: connection, to: typedCenter) }
        }
        #expect(got == ["format saved", "format deleted", "service body deleted", "user 8 deleted"])
        for token in tokens { typedCenter.removeObserver(token) }
    }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension BMLTEventConvertibleMessage {
    /// The message's classic notification (what `makeNotification` gives on Apple platforms).
    var notification: Notification { Self.notification(for: self) }
}
#endif
