import Foundation
import Testing
@testable import BMLTKit

/// The three ways a host observes a connection — `connection.events`, typed messages, classic notifications on
/// `queue: .main` — each see every event once, in the same order, and the async forms return after delivery.
/// (Every other way a host observes, `forName: nil` included, runs as a process of its own: HostPatternProcessTests.)
@Suite("Host observation: events sequence, typed messages, queue: .main")
@MainActor
struct HostObservationTests {
    @Test("two events iterators each get every event, in the monitor's order; the sequence ends with the connection")
    func eventsSequence() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        var connection: BMLTConnection? = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let events = connection!.events
        let readers = [await Self.reader(events), await Self.reader(events)]
        _ = try await connection!.validate()
        connection!.connect().cancel()
        await waitUntil("the connection is idle") { !connection!.isBusy }
        let expected = recorder.all.map(\.notificationName.rawValue)
        #expect(expected.count == 6)
        connection = nil                      // ends both sequences
        for reader in readers {
            let names = await reader.value
            #expect(names == expected)
        }
    }

    /// A loop over `events`, returned once its iterator exists; its value is every event name it received.
    static func reader(_ events: BMLTEventSequence) async -> Task<[String], Never> {
        var task: Task<[String], Never>?
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            task = Task { @MainActor in
                var iterator = events.makeAsyncIterator()
                started.resume()
                var names: [String] = []
                while let event = await iterator.next() { names.append(event.notificationName.rawValue) }
                return names
            }
        }
        return task!
    }

    @Test("an events loop started just before validate(), as a host writes it, sees the call's first event: 100 runs of 100")
    func eventsFromTheMomentYouAsk() async throws {
        let stub = StubServer(SampleReplies.healthy())
        var whole = 0
        var misses: [[String]] = []
        for _ in 1...100 {
            let recorder = EventRecorder()
            let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
            let events = connection.events
            let loop = Task { @MainActor in
                var names: [String] = []
                for await event in events {
                    names.append(event.notificationName.rawValue)
                    if case .progressDidStop = event { break }
                }
                return names
            }
            _ = try await connection.validate()
            let names = await loop.value
            let emitted = recorder.all.map(\.notificationName.rawValue)
            if names == emitted, names.first == Notification.Name.bmltProgressDidStart.rawValue, names.count >= 3 {
                whole += 1
            } else {
                misses.append(names)
            }
        }
        #expect(whole == 100, "runs that missed events: \(misses)")
    }

    @Test("a sequence obtained before a call, iterated only after the call has emitted, still begins with that call's first event")
    func subscribedWhenMade() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let events = connection.events
        let request = connection.connect()
        await waitUntil("the connection is idle") { !connection.isBusy }                  // every event of the call has been emitted
        connection.connect().cancel()                           // a last event, so that a loop that missed the call ends
        var names: [Notification.Name] = []
        for await event in events {
            names.append(event.notificationName)
            if case .requestCancelled = event { break }
        }
        #expect(request.isFinished && names.first == .bmltProgressDidStart, "\(names)")
        #expect(names.firstIndex(of: .bmltServerValidated).map { $0 < names.count - 2 } == true, "the call's events: \(names)")
    }

    @Test("bounded: a sequence nobody reads keeps the newest 256 events; one dropped unread unsubscribes at once")
    func eventsAreBounded() async throws {
        let connection = BMLTConnection(rootServerURL: URL(string: "https://example.org/main_server")!)
        let unread = connection.events
        #expect(connection.eventBroadcaster.subscriberCount == 1, "subscribed when the sequence is made")
        do { _ = connection.events }
        #expect(connection.eventBroadcaster.subscriberCount == 1, "a sequence dropped without an iterator unsubscribes")
        // (`witness` below is the second subscription.)
        let witness = connection.events
        for _ in 1...1_000 { connection.emit(.progressDidStart) }
        connection.emit(.progressDidStop)
        for await event in witness { if case .progressDidStop = event { break } }     // every event has been delivered
        var iterator = unread.makeAsyncIterator()
        var kept = 0
        while let event = await iterator.next() {
            kept += 1
            if case .progressDidStop = event { break }
        }
        #expect(kept == BMLTEventSequence.bufferLimit && kept == 256, "\(kept)")
        // A second iterator of the same sequence value starts from the moment it is made.
        var later = unread.makeAsyncIterator()
        connection.emit(.progressDidStop)
        let next = await later.next()
        #expect(next?.notificationName == .bmltProgressDidStop)
    }

    @Test("an iterator made after an event does not get it")
    func fromTheMomentOfIteration() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        var iterator = connection.events.makeAsyncIterator()
        connection.connect().cancel()
        let first = await iterator.next()
        #expect(first?.notificationName == .bmltProgressDidStart)
        let second = await iterator.next()
        #expect(second?.notificationName == .bmltRequestCancelled)
    }

    #if compiler(>=6.2)
    @Test("typed messages on the configured typedMessageCenter: each event once, same order as the classic notifications, typed payloads")
    func typedMessages() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let center = NotificationCenter(), typedCenter = NotificationCenter()
        let stub = StubServer(SampleReplies.healthy())
        var configuration = stub.configuration(center: center)
        configuration.typedMessageCenter = typedCenter
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        let classic = Locked<[String]>([])
        let classicTokens = Notification.Name.bmltAllNotifications.map { name in
            center.addObserver(forName: name, object: connection, queue: .main) { note in
                classic.withLock { $0.append(note.name.rawValue) }
            }
        }
        var typed: [String] = []
        var validatedInfo: BMLTServerInfo?
        let tokens = [
            typedCenter.addObserver(of: connection, for: .bmltProgressDidStart) { _ in typed.append(Notification.Name.bmltProgressDidStart.rawValue) },
            typedCenter.addObserver(of: connection, for: .bmltProgressDidStop) { _ in typed.append(Notification.Name.bmltProgressDidStop.rawValue) },
            typedCenter.addObserver(of: connection, for: .bmltServerValidated) { message in
                #expect(message.isValid && message.error == nil)
                validatedInfo = message.info
                typed.append(Notification.Name.bmltServerValidated.rawValue)
            },
            typedCenter.addObserver(of: connection, for: .bmltRequestCancelled) { _ in typed.append(Notification.Name.bmltRequestCancelled.rawValue) },
        ]
        let info = try await connection.validate()
        #expect(validatedInfo == info)               // delivered before validate() returned
        connection.connect().cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }
        await waitUntil("the six classic notifications are delivered") { classic.withLock { $0.count } == 6 }
        #expect(typed == classic.withLock { $0 })
        #expect(typed.count == 6)
        for token in tokens { typedCenter.removeObserver(token) }
        for token in classicTokens { center.removeObserver(token) }
    }

    @Test("without a typedMessageCenter no typed message is posted to notificationCenter (Linux: a forName: nil observer would crash)")
    func noMessagesOnTheClassicCenter() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let center = NotificationCenter()
        let stub = StubServer(SampleReplies.healthy())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(center: center))
        var typed = 0
        let token = center.addObserver(of: connection, for: .bmltServerValidated) { _ in typed += 1 }
        _ = try await connection.validate()
        #expect(typed == (EventPoster.typedObserversShareClassicPosts ? 1 : 0))
        center.removeObserver(token)
    }
    #endif
}
