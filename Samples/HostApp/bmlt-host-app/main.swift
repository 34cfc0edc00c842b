// bmlt-host-app: a complete host program to copy. It observes a connection the three ways (classic
// notifications on `queue: .main`, typed messages, the `connection.events` sequence) plus a wildcard logger of
// every notification in the app, drives a spinner, searches, cancels a search and shows an error, then checks that
// every observer saw every event once.
//
//     swift run bmlt-host-app                                   # the embedded demo server, offline
//     swift run bmlt-host-app https://example.org/main_server   # a real root server (read-only calls)
//     swift run bmlt-host-app https://example.org/main_server --service-body 1002 --weekday 2
//                                                               # one service body's Monday meetings
//
// An `async` main: on Linux its main actor runs on a thread that drains the main queue (not the main thread);
// BMLTKit delivers so that `queue: .main` observers work there too.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BMLTKit
import BMLTDemoServer

@MainActor
final class HostApp {
    let connection: BMLTConnection
    let isDemo: Bool
    let criteria: BMLTSearchCriteria
    private(set) var notifications: [String] = []
    private(set) var typedMessages: [String] = []
    private(set) var events: [String] = []
    /// What the app-wide logger saw of BMLTKit's (name, whether it carried its payload).
    private let logged = LoggedNames()
    /// Typed observers only: on Linux a `forName: nil` observer of a center that carries typed messages crashes.
    let typedCenter = NotificationCenter()
    private var tokens: [any NSObjectProtocol] = []
    private var typedTokens: [Any] = []
    private var indicator: BMLTProgressIndicator?      // kept alive: a local would stop at once
    private var eventsTask: Task<Void, Never>?

    init(rootURL: URL?, criteria: BMLTSearchCriteria) {
        self.criteria = criteria
        var configuration = BMLTConfiguration()
        if rootURL == nil { configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration() }
        configuration.typedMessageCenter = typedCenter
        isDemo = rootURL == nil
        connection = BMLTConnection(rootServerURL: rootURL ?? BMLTDemoServer.rootURL, configuration: configuration)
    }

    /// Way 1: classic notifications, delivered on the main queue.
    func observeNotifications() {
        for name in Notification.Name.bmltAllNotifications {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: connection, queue: .main) { note in
                let name = note.name.rawValue
                MainActor.assumeIsolated { self.notifications.append(name) }
            })
        }
        tokens.append(NotificationCenter.default.addObserver(forName: .bmltError, object: connection, queue: .main) { note in
            // Error display: one sentence a person can act on.
            print("error:", note.bmltError?.localizedDescription ?? "unknown")
        })
    }

    /// A debugging logger of every notification in the app (`forName: nil, object: nil`): BMLTKit's arrive once
    /// each, with their payload, beside anything else the process posts.
    func logEverything() {
        tokens.append(NotificationCenter.default.addObserver(forName: nil, object: nil, queue: nil) { [logged] note in
            guard note.name.rawValue.hasPrefix("org.bmlt.kit.") else { return }
            print("log:", note.name.rawValue)
            logged.append(note.name.rawValue, hasPayload: note.bmltEvent?.notificationName == note.name)
        })
    }

    /// Way 2: typed messages (Swift 6.2+ toolchains; macOS/iOS 26 on Apple platforms), on the configuration's
    /// `typedMessageCenter` (Apple, OS 26, also delivers them on `NotificationCenter.default`; Linux does not).
    func observeTypedMessages() {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let center = typedCenter
            typedTokens.append(center.addObserver(of: connection, for: .bmltProgressDidStart) { _ in self.typedMessages.append("progressDidStart") })
            typedTokens.append(center.addObserver(of: connection, for: .bmltProgressDidStop) { _ in self.typedMessages.append("progressDidStop") })
            typedTokens.append(center.addObserver(of: connection, for: .bmltServerValidated) { message in
                self.typedMessages.append("serverValidated")
                print("validated:", message.isValid, message.info?.version ?? "-")
            })
            typedTokens.append(center.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
                self.typedMessages.append("meetingSearchResults")
                print("found \(message.meetings.count) meetings")
            })
            typedTokens.append(center.addObserver(of: connection, for: .bmltRequestCancelled) { _ in self.typedMessages.append("requestCancelled") })
            typedTokens.append(center.addObserver(of: connection, for: .bmltError) { message in
                self.typedMessages.append("error")
                _ = message.error
            })
        }
        #endif
    }

    /// Way 3: the events sequence (no NotificationCenter). The sequence subscribes when it is made, so the loop
    /// misses nothing the first call emits, however late its task starts: no handshake.
    func observeEvents() {
        let events = connection.events
        eventsTask = Task { @MainActor in
            for await event in events { self.events.append(event.notificationName.rawValue) }
        }
    }

    /// The spinner: called on the main actor, only on a change.
    func showSpinner() {
        indicator = BMLTProgressIndicator(connection: connection, startDelay: 0, stopDelay: 0) { visible in
            print(visible ? "spinner: on" : "spinner: off")
        }
    }

    func run() async -> Int32 {
        logEverything()
        observeNotifications()
        observeTypedMessages()
        observeEvents()
        showSpinner()
        do {
            let info = try await connection.validate()
            print("server", info.version)
            let results = try await connection.meetings(matching: criteria)
            print("search:", results.meetings.count, "meetings")
        } catch {
            print("failed:", error.localizedDescription)
            return 1
        }
        // Cancel: a search started and cancelled at once posts .bmltRequestCancelled, not .bmltError.
        let request = connection.searchMeetings(criteria)
        request.cancel()
        if isDemo {
            // Error display: a wrong password is refused; the error is a notification, lastError and a throw.
            do { try await connection.login(username: BMLTDemoServer.adminUsername, password: "wrong-password") } catch {
                print("login refused:", error.localizedDescription)
            }
        }
        await settle()
        return report()
    }

    /// Waits (briefly) until the connection is idle and the events loop has caught up.
    private func settle() async {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && (connection.isBusy || events.count < notifications.count || notifications.last != Notification.Name.bmltProgressDidStop.rawValue) {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    private func report() -> Int32 {
        print("notifications: \(notifications.count), events: \(events.count), typed messages: \(typedMessages.count)")
        var ok = !notifications.isEmpty && notifications == events
        let (loggedNames, withPayload) = logged.snapshot
        print("logger: \(loggedNames.count) BMLTKit notifications, \(withPayload) with their payload")
        ok = ok && loggedNames == notifications && withPayload == loggedNames.count
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let typedNames: Set<String> = ["progressDidStart", "progressDidStop", "serverValidated", "meetingSearchResults", "requestCancelled", "error"]
            let expected = notifications.map { name in typedNames.first { Self.suffix[$0] == name } }.compactMap { $0 }
            ok = ok && expected == typedMessages
        }
        #endif
        print(ok ? "every observer saw every event once, in order" : "MISMATCH\n\(notifications)\n\(events)\n\(typedMessages)")
        return ok ? 0 : 1
    }

    private static let suffix: [String: String] = [
        "progressDidStart": Notification.Name.bmltProgressDidStart.rawValue, "progressDidStop": Notification.Name.bmltProgressDidStop.rawValue,
        "serverValidated": Notification.Name.bmltServerValidated.rawValue, "meetingSearchResults": Notification.Name.bmltMeetingSearchResults.rawValue,
        "requestCancelled": Notification.Name.bmltRequestCancelled.rawValue, "error": Notification.Name.bmltError.rawValue,
    ]
}

/// The logger's record, written from whatever thread posts.
final class LoggedNames: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    private var withPayload = 0
    func append(_ name: String, hasPayload: Bool) {
        lock.lock(); names.append(name); if hasPayload { withPayload += 1 }; lock.unlock()
    }
    var snapshot: ([String], Int) { lock.lock(); defer { lock.unlock() }; return (names, withPayload) }
}

/// `[URL] [--service-body ID] [--weekday 1…7]`: the server (default: the demo server) and what to search
/// (default: everything; an aggregator needs a filter).
func parseArguments() -> (URL?, BMLTSearchCriteria) {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var criteria = BMLTSearchCriteria()
    var rootURL: URL?
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--service-body": if let id = arguments.first.flatMap(Int.init) { arguments.removeFirst(); criteria.serviceBodyIDs = [id] }
        case "--weekday": if let day = arguments.first.flatMap(Int.init).flatMap(BMLTWeekday.init(rawValue:)) { arguments.removeFirst(); criteria.weekdays = [day] }
        default: rootURL = URL(string: argument)
        }
    }
    return (rootURL, criteria)
}

let (rootURL, criteria) = parseArguments()
let app = HostApp(rootURL: rootURL, criteria: criteria)
let status = await app.run()
exit(status)
