// The Darwin-shaped check, run on Linux by .ci/darwin-shaped: BMLTKit compiled with its Apple-only bridge switched
// on (BMLTKIT_DARWIN_SHAPED) against FoundationFrameworkStandIn.swift, Swift 6 language mode. It proves, for every
// typed message type, that BMLTKit's `name`, `makeMessage` and `makeNotification` are the witnesses the compiler
// chose for Foundation.framework's requirements (Foundation's defaults would give the type's name, `nil` and a bare
// notification), then re-creates Foundation.framework's delivery of typed messages (swift-foundation
// MainActorMessage.swift, `_addMainActorObserver`, `_messageFromNotification`, `_post`) and checks that classic,
// wildcard and typed observers each see every event once, in order, and that a host's bare post under a BMLTKit
// name reaches classic observers untouched and no typed observer. Exit status 1 and a list of failures otherwise.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import BMLTKit
import BMLTDemoServer

#if compiler(>=6.2)
/// Where Foundation.framework keeps a posted message inside its notification (its private `NotificationMessageKey`).
let messageKey = "DarwinShaped.message"

/// Prints at once (unbuffered): a crash still shows how far the check got.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Failures, and the `makeMessage` returns of `nil` Foundation logs as faults.
@MainActor final class Record {
    var failures: [String] = []
    var faults = 0
    func expect(_ condition: Bool, _ what: @autoclosure () -> String) { if !condition { failures.append(what()) } }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter {
    /// Foundation.framework's `addObserver(of:for:using:)` for a main-actor message: a classic observer of
    /// `Message.name` that hands the observer the posted message, or else `makeMessage(notification)`.
    func darwinAddObserver<Message: DarwinShapedMainActorMessage>(
        of subject: Message.Subject, for messageType: Message.Type, record: Record,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> any NSObjectProtocol where Message.Subject: AnyObject {
        return addObserver(forName: Message.name, object: subject, queue: nil) { notification in
            nonisolated(unsafe) let notification = notification
            MainActor.assumeIsolated {
                if let message = notification.userInfo?[messageKey] as? Message {
                    observer(message)
                } else if let message = Message.makeMessage(notification) {
                    observer(message)
                } else {
                    record.faults += 1
                }
            }
        }
    }

    /// The same with a message identifier (`for: .bmltMeetingSearchResults`).
    func darwinAddObserver<Identifier: NotificationCenter.MessageIdentifier, Message: DarwinShapedMainActorMessage>(
        of subject: Message.Subject, for identifier: Identifier, record: Record,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> any NSObjectProtocol where Identifier.MessageType == Message, Message.Subject: AnyObject {
        darwinAddObserver(of: subject, for: Message.self, record: record, using: observer)
    }

    /// Foundation.framework's `post(_:subject:)`: `makeNotification`, then name, object and the message itself.
    @MainActor func darwinPost<Message: DarwinShapedMainActorMessage>(_ message: Message, subject: Message.Subject)
    where Message.Subject: AnyObject {
        var notification = Message.makeNotification(message)
        notification.name = Message.name
        notification.object = subject
        var userInfo = notification.userInfo ?? [:]
        userInfo[messageKey] = message
        notification.userInfo = userInfo
        post(notification)
    }
}

/// Calls the three members through Foundation.framework's requirements (the witness table), as Foundation does.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@MainActor func checkWitnesses<Message: DarwinShapedMainActorMessage>(_ type: Message.Type, _ event: BMLTEvent, _ record: Record) {
    let type = String(describing: type)
    record.expect(Message.name == event.notificationName,
                  "\(type).name is \(Message.name.rawValue), not \(event.notificationName.rawValue): Foundation's default was chosen")
    let note = Notification(name: event.notificationName, object: nil, userInfo: event.userInfo)
    guard let message = Message.makeMessage(note) else {
        return record.failures.append("\(type).makeMessage gave nil for BMLTKit's own notification: Foundation's default was chosen")
    }
    let back = Message.makeNotification(message)
    record.expect(back.name == event.notificationName && back.bmltEvent?.notificationName == event.notificationName,
                  "\(type).makeNotification gave no BMLTKit payload: Foundation's default was chosen")
}

/// Opens a message to its type: the type is then known only as Foundation.framework's protocol.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@MainActor func checkWitnesses(of message: some BMLTEventConvertibleMessage, _ event: BMLTEvent, _ record: Record) -> ObjectIdentifier {
    checkWitnesses(type(of: message), event, record)
    return ObjectIdentifier(type(of: message))
}

/// A typed observer of every message type, through the simulated Foundation.framework.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@MainActor func observeTyped(_ sample: some BMLTEventConvertibleMessage, on center: NotificationCenter, of connection: BMLTConnection,
                             _ record: Record, _ seen: @escaping @MainActor (BMLTEvent) -> Void) -> any NSObjectProtocol {
    center.darwinAddObserver(of: connection, for: type(of: sample), record: record) { message in seen(message.event) }
}

/// One event of every kind (one per classic name).
func sampleEvents() -> [BMLTEvent] {
    let request = BMLTRequest(kind: .meetingSearch)
    let meeting = BMLTMeeting(id: 42, serviceBodyID: 7, name: "Hope", weekday: .tuesday)
    let format = BMLTAdminFormat(id: 3, translations: [BMLTAdminFormat.Translation(key: "O", name: "Open", language: "en")])
    let body = BMLTAdminServiceBody(id: 1002, parentID: 1, name: "Area", type: "AS", adminUserID: 3, assignedUserIDs: [57])
    let user = BMLTAdminUser(id: 57, username: "observer", type: "observer", displayName: "Observer", ownerID: 1)
    let area = BMLTCoverageArea(northWest: .init(latitude: 45, longitude: -80), southEast: .init(latitude: 40, longitude: -72))
    return [
        .progressDidStart, .progressDidStop,
        .serverValidated(isValid: true, info: BMLTServerInfo(version: "3.1.2", versionInt: 3_001_002), error: nil, request: request),
        .meetingsArrived([meeting], count: 1, request: request),
        .meetingSearchResults([meeting], request: request), .formatSearchResults([], isAllUsedFormats: true, request: request),
        .changeListResults([], request: request), .meetingSaved(meeting, fieldChanges: [], request: request),
        .meetingAdded(meeting, request: request), .meetingDeleted(id: 42, request: request), .messageSent(true, request: request),
        .adminLoginChanged(isLoggedIn: false, request: nil), .requestCancelled(request), .error(.timeout, request: request),
        .serviceBodyResults([], request: request), .fieldKeyResults([], request: request),
        .fieldValueResults(key: "location_municipality", values: [], request: request), .coverageAreaResults(area, request: request),
        .nawsExportResults(BMLTNAWSExport(columns: [], rows: []), request: request),
        .serverAdminResults(.formats([format]), request: request),
        .serverAdminSaved(.format(format, wasCreated: true), request: request), .serverAdminSaved(.formatDeleted(id: 3), request: request),
        .serverAdminSaved(.serviceBody(body, wasCreated: false), request: request),
        .serverAdminSaved(.serviceBodyDeleted(id: 1002), request: request), .serverAdminSaved(.user(user, wasCreated: true), request: request),
        .serverAdminSaved(.userDeleted(id: 57), request: request), .serverAdminSaved(.settings(BMLTServerSettings(values: [:])), request: request),
    ]
}

/// The names `connection.events` gave.
@MainActor final class Emitted { var names: [String] = [] }

/// Every observer of one connection on one center: per-name classic, `forName: nil`, typed (simulated Foundation).
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@MainActor final class Observers {
    var classic: [String] = [], wildcard: [String] = [], typed: [String] = [], bare: [String] = []
    private var tokens: [any NSObjectProtocol] = []
    let center: NotificationCenter

    init(center: NotificationCenter, connection: BMLTConnection, record: Record) {
        self.center = center
        for name in Notification.Name.bmltAllNotifications {
            tokens.append(center.addObserver(forName: name, object: connection, queue: nil) { note in
                let name = note.name.rawValue, carried = note.bmltEvent != nil
                MainActor.assumeIsolated { carried ? self.classic.append(name) : self.bare.append(name) }
            })
        }
        tokens.append(center.addObserver(forName: nil, object: nil, queue: nil) { note in
            guard note.object as AnyObject? === connection else { return }
            let name = note.name.rawValue, carried = note.bmltEvent != nil
            MainActor.assumeIsolated { self.wildcard.append(carried ? name : "bare " + name) }
        })
        for event in sampleEvents() {
            tokens.append(observeTyped(event.typedMessage, on: center, of: connection, record) { self.typed.append($0.notificationName.rawValue) })
        }
    }

    func removeAll() { for token in tokens { center.removeObserver(token) } }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
@MainActor func run(_ record: Record) async {
    // 1. The witnesses, for every message type.
    let events = sampleEvents()
    var types = Set<ObjectIdentifier>()
    for event in events { types.insert(checkWitnesses(of: event.typedMessage, event, record)) }
    record.expect(types.count == Notification.Name.bmltAllNotifications.count,
                  "\(types.count) message types for \(Notification.Name.bmltAllNotifications.count) classic names")
    record.expect(Set(events.map(\.notificationName)) == Set(Notification.Name.bmltAllNotifications), "the samples miss a classic name")
    record.expect(EventPoster.typedObserversShareClassicPosts, "the Darwin branch of EventPoster is not switched on")
    say("darwin-shaped: witnesses checked for \(types.count) message types")

    // 2. Delivery: a real connection on the demo server, then every kind of event through the real poster, for the
    //    default configuration, typedMessageCenter === notificationCenter, and a private delivery queue.
    let configurations: [(String, (inout BMLTConfiguration, NotificationCenter) -> Void)] = [
        ("default", { _, _ in }),
        ("typedMessageCenter === notificationCenter", { configuration, center in configuration.typedMessageCenter = center }),
        ("private deliveryQueue", { configuration, _ in configuration.deliveryQueue = DispatchQueue(label: "darwin-shaped.delivery") }),
    ]
    for (label, configure) in configurations {
        let center = NotificationCenter()
        var configuration = BMLTConfiguration(notificationCenter: center)
        configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration()
        configuration.progressStartDelay = 0
        configuration.progressStopDelay = 0
        configure(&configuration, center)
        let connection = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL, configuration: configuration)
        let observers = Observers(center: center, connection: connection, record: record)
        let emitted = Emitted()
        let eventsTask = Task { @MainActor in
            for await event in connection.events { emitted.names.append(event.notificationName.rawValue) }
        }
        await Task.yield()
        record.faults = 0
        _ = try? await connection.validate()
        _ = try? await connection.meetings(matching: BMLTSearchCriteria())
        connection.searchMeetings(BMLTSearchCriteria()).cancel()
        for _ in 0..<3_000 where connection.isBusy { try? await Task.sleep(nanoseconds: 10_000_000) }
        for event in events { connection.emit(event) }
        // The connection's own events are over once every sample has come out of `connection.events`.
        for _ in 0..<3_000 where emitted.names.suffix(events.count) != events.map(\.notificationName.rawValue)[...] {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        // A message a host posts itself (Foundation.framework: one classic notification carrying it).
        let request = BMLTRequest(kind: .meetingSearch)
        center.darwinPost(BMLTMeetingDeletedMessage(meetingID: 9, request: request, event: .meetingDeleted(id: 9, request: request)),
                          subject: connection)
        // Bad input: a host's own post under a BMLTKit name, without BMLTKit's payload.
        center.post(name: .bmltMeetingSearchResults, object: connection, userInfo: nil)

        let hostMessage = Notification.Name.bmltMeetingDeleted.rawValue, bare = Notification.Name.bmltMeetingSearchResults.rawValue
        let seen = emitted.names
        record.expect(seen.count > events.count && seen.first == Notification.Name.bmltProgressDidStart.rawValue,
                      "\(label): connection.events gave \(seen)")
        record.expect(observers.classic == seen + [hostMessage], "\(label): classic observers saw \(observers.classic), connection.events \(seen)")
        record.expect(observers.typed == seen + [hostMessage], "\(label): typed observers saw \(observers.typed), connection.events \(seen)")
        record.expect(observers.wildcard == seen + [hostMessage, "bare " + bare], "\(label): the forName: nil observer saw \(observers.wildcard)")
        record.expect(observers.bare == [bare], "\(label): the host's bare post reached per-name classic observers as \(observers.bare)")
        record.expect(record.faults == 1, "\(label): \(record.faults) typed observers were offered the bare post and given nothing (expected 1)")
        say("darwin-shaped: \(label): connection.events \(seen.count); classic \(observers.classic.count - 1), forName: nil "
              + "\(observers.wildcard.count - 2), typed \(observers.typed.count - 1), each once in order; a host's typed post: 1 classic "
              + "(with payload), 1 typed; a host's bare post: 1 classic (untouched), 0 typed")
        eventsTask.cancel()
        observers.removeAll()
    }
}

let record = await MainActor.run { Record() }
if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { await run(record) }
let failures = await MainActor.run { record.failures }
if failures.isEmpty {
    say("darwin-shaped: ALL OK")
} else {
    for failure in failures { say("darwin-shaped: FAIL: " + failure) }
    exit(1)
}
#endif
