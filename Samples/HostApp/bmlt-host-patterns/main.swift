// bmlt-host-patterns: one way a host observes a connection, run as a program of its own (a pattern that crashed
// would take only this process down). It connects, searches, and checks that every observer saw each BMLTKit
// event exactly once, with its payload, and that the progress notifications came in balanced pairs. The truth it
// compares against is an event monitor (`BMLTConfiguration.eventMonitors`), which sees every event once.
//
//     swift run bmlt-host-patterns wildcard-app                                  # the embedded demo server
//     swift run bmlt-host-patterns chain https://example.org/main_server --service-body 1002 --weekday 2
//
// Patterns: named, wildcard-connection, wildcard-app, main-queue, posting-thread, private-queue, remove-self,
// chain, typed, events, drop, host-posted. Exit 0 and a last line "ok: <pattern> …" when every check held.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BMLTKit
import BMLTDemoServer

/// What one observer received, from any thread.
final class Log: @unchecked Sendable {
    struct Entry { let name: String; let eventName: String?; let isFromThisConnection: Bool }
    let label: String
    private let lock = NSLock()
    private var entries: [Entry] = []
    init(_ label: String) { self.label = label }

    func record(_ note: Notification, connection: AnyObject?) {
        let entry = Entry(name: note.name.rawValue, eventName: note.bmltEvent?.notificationName.rawValue,
                          isFromThisConnection: connection != nil && (note.object as AnyObject?) === connection)
        lock.lock(); entries.append(entry); lock.unlock()
    }
    func record(name: String) {
        lock.lock(); entries.append(Entry(name: name, eventName: name, isFromThisConnection: true)); lock.unlock()
    }
    var all: [Entry] { lock.lock(); defer { lock.unlock() }; return entries }
    func reset() { lock.lock(); entries.removeAll(); lock.unlock() }
    /// The BMLTKit notifications (an app-wide observer also sees whatever else the process posts).
    var bmlt: [Entry] { all.filter { $0.name.hasPrefix("org.bmlt.kit.") || $0.isFromThisConnection } }
}

/// Every event, once, as the connection emitted it.
final class Truth: BMLTEventMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [BMLTEvent] = []
    func connection(_ connection: BMLTConnection, didEmit event: BMLTEvent) {
        lock.lock(); events.append(event); lock.unlock()
    }
    var all: [BMLTEvent] { lock.lock(); defer { lock.unlock() }; return events }
    var names: [String] { all.map(\.notificationName.rawValue) }
    /// A busy period ended after the search's outcome.
    var isSettled: Bool {
        names.last == Notification.Name.bmltProgressDidStop.rawValue
            && names.contains(Notification.Name.bmltMeetingSearchResults.rawValue)
    }
}

/// A token holder the observers' blocks can reach (they run on whatever thread NotificationCenter uses).
final class Tokens: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: any NSObjectProtocol] = [:]
    subscript(key: String) -> (any NSObjectProtocol)? {
        get { lock.lock(); defer { lock.unlock() }; return tokens[key] }
        set { lock.lock(); tokens[key] = newValue; lock.unlock() }
    }
    var all: [any NSObjectProtocol] { lock.lock(); defer { lock.unlock() }; return Array(tokens.values) }
}

@MainActor
final class PatternRun {
    let pattern: String
    let rootURL: URL?
    let criteria: BMLTSearchCriteria
    let truth = Truth()
    let typedCenter = NotificationCenter()             // typed observers only: never a `forName: nil` one
    var connection: BMLTConnection?
    let tokens = Tokens()
    /// Observers that must see every event of this connection once, in order (or in any order: `unordered`).
    var logs: [(log: Log, ordered: Bool)] = []
    /// Typed observers: the classic name of each message received, and how many each center must get.
    var typedLogs: [(log: Log, expectsEveryEvent: Bool)] = []
    var problems: [String] = []
    var eventsTask: Task<Void, Never>?
    let center = NotificationCenter.default

    init(pattern: String, rootURL: URL?, criteria: BMLTSearchCriteria) {
        self.pattern = pattern
        self.rootURL = rootURL
        self.criteria = criteria
    }

    func makeConnection() -> BMLTConnection {
        var configuration = BMLTConfiguration(eventMonitors: [truth])
        if rootURL == nil { configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration() }
        if pattern == "typed" || pattern == "host-posted" { configuration.typedMessageCenter = typedCenter }
        return BMLTConnection(rootServerURL: rootURL ?? BMLTDemoServer.rootURL, configuration: configuration)
    }

    /// A classic observer recording into a new log.
    @discardableResult
    func observe(_ label: String, name: Notification.Name?, object: BMLTConnection?, queue: OperationQueue?,
                 ordered: Bool = true) -> Log {
        let log = Log(label)
        let connection = self.connection
        tokens[label] = center.addObserver(forName: name, object: object, queue: queue) { [weak connection] note in
            log.record(note, connection: connection)
        }
        logs.append((log, ordered))
        return log
    }

    /// One observer per BMLTKit name, all recording into one log.
    func observeEachName(_ label: String, queue: OperationQueue?, ordered: Bool = true) {
        let log = Log(label)
        let connection = self.connection
        for name in Notification.Name.bmltAllNotifications {
            tokens["\(label) \(name.rawValue)"] = center.addObserver(forName: name, object: connection, queue: queue) { [weak connection] note in
                log.record(note, connection: connection)
            }
        }
        logs.append((log, ordered))
    }

    func run() async -> Int32 {
        if pattern == "drop" { return await runDrop() }
        let connection = makeConnection()
        self.connection = connection
        let privateQueue = OperationQueue()            // a host's own queue: concurrent, so no order is promised
        switch pattern {
        case "named":
            observeEachName("named on .main", queue: .main)
        case "wildcard-connection":
            observe("forName: nil, object: connection", name: nil, object: connection, queue: nil)
        case "wildcard-app":
            observe("forName: nil, object: nil", name: nil, object: nil, queue: nil)
        case "main-queue":
            observe("forName: nil on .main", name: nil, object: connection, queue: .main)
            observe("app-wide on .main", name: nil, object: nil, queue: .main)
            observeEachName("named on .main", queue: .main)
        case "posting-thread":
            observe("forName: nil on nil", name: nil, object: connection, queue: nil)
            observe("app-wide on nil", name: nil, object: nil, queue: nil)
            observeEachName("named on nil", queue: nil)
        case "private-queue":
            observe("forName: nil on a private queue", name: nil, object: connection, queue: privateQueue, ordered: false)
            observe("app-wide on a private queue", name: nil, object: nil, queue: privateQueue, ordered: false)
            observeEachName("named on a private queue", queue: privateQueue, ordered: false)
        case "remove-self": observeRemovingInsideBlocks(connection)
        case "chain": return await runChain(connection)
        case "typed":
            observe("app-wide logger", name: nil, object: nil, queue: nil)
            observe("forName: nil, object: connection", name: nil, object: connection, queue: .main)
            observeTyped(connection)
            observeEvents(connection)
        case "events":
            observe("app-wide logger", name: nil, object: nil, queue: nil)
            observe("forName: nil, object: connection", name: nil, object: connection, queue: nil)
            observeEvents(connection)
        case "host-posted": await postLikeAHost(connection)
        default:
            print("unknown pattern \(pattern)")
            return 2
        }
        do {
            let info = try await connection.validate()
            print("server", info.version)
            let results = try await connection.meetings(matching: criteria)
            print("search:", results.meetings.count, "meetings")
        } catch {
            print("failed:", error.localizedDescription)
            return 1
        }
        return await finish()
    }

    /// An observer that removes itself in its first call (twice: the second removal must be harmless), and one
    /// that removes another observer from inside its block.
    func observeRemovingInsideBlocks(_ connection: BMLTConnection) {
        observe("forName: nil beside them", name: nil, object: connection, queue: nil)
        let once = Log("removes itself")
        let tokens = self.tokens, center = self.center
        tokens["removes itself"] = center.addObserver(forName: nil, object: connection, queue: nil) { [weak connection] note in
            once.record(note, connection: connection)
            if let token = tokens["removes itself"] {
                center.removeObserver(token)
                center.removeObserver(token)
            }
        }
        let victim = Log("removed by another")
        tokens["removed by another"] = center.addObserver(forName: .bmltServerValidated, object: connection, queue: .main) { [weak connection] note in
            victim.record(note, connection: connection)
        }
        tokens["remover"] = center.addObserver(forName: .bmltServerValidated, object: connection, queue: .main) { _ in
            if let token = tokens["removed by another"] { center.removeObserver(token) }
        }
        extraChecks.append {
            let first = once.all
            var problems: [String] = []
            if first.count != 1 || first.first?.eventName == nil { problems.append("removes itself: \(first.count) calls, expected 1 with a payload") }
            if victim.all.count > 1 { problems.append("removed by another: \(victim.all.count) calls after removal") }
            return problems
        }
    }
    var extraChecks: [() -> [String]] = []

    /// An observer starting the next request inside its block: the search once the server is validated.
    func runChain(_ connection: BMLTConnection) async -> Int32 {
        observe("forName: nil beside it", name: nil, object: connection, queue: nil)
        observeEachName("named on .main", queue: .main)
        let criteria = self.criteria
        tokens["chain"] = center.addObserver(forName: .bmltServerValidated, object: connection, queue: .main) { [weak connection] note in
            guard note.bmltIsServerValid == true else { print("not valid:", note.bmltError?.localizedDescription ?? "-"); exit(1) }
            MainActor.assumeIsolated { _ = connection?.searchMeetings(criteria) }
        }
        connection.connect()
        return await finish()
    }

    /// The host lets go of its connection while requests are in flight (the connection lives until they end).
    func runDrop() async -> Int32 {
        weak var released: BMLTConnection?
        do {
            let connection = makeConnection()
            self.connection = connection
            observe("forName: nil, object: connection", name: nil, object: connection, queue: nil)
            observe("app-wide on .main", name: nil, object: nil, queue: .main)
            observeEachName("named on .main", queue: .main)
            released = connection
            connection.connect()
            connection.searchMeetings(criteria)
            self.connection = nil
        }
        let deadline = Date().addingTimeInterval(60)
        while released != nil && Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        if released != nil { problems.append("the dropped connection was not released after its requests ended") }
        return await finish()
    }

    /// Typed observers: on `typedCenter` (named in the configuration: every platform) and on `.default` (Apple,
    /// OS 26: Foundation hands BMLTKit's classic post to them; elsewhere nothing is posted there).
    func observeTyped(_ connection: BMLTConnection) {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            #if canImport(Darwin)
            let defaultGetsMessages = true
            #else
            let defaultGetsMessages = false
            #endif
            for (typedCenter, everyEvent) in [(self.typedCenter, true), (center, defaultGetsMessages)] {
                let log = Log("typed on \(typedCenter === center ? ".default" : "typedMessageCenter")")
                typedLogs.append((log, everyEvent))
                let truth = self.truth
                var typedTokens: [NotificationCenter.ObservationToken] = []
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltProgressDidStart) { _ in log.record(name: Notification.Name.bmltProgressDidStart.rawValue) })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltProgressDidStop) { _ in log.record(name: Notification.Name.bmltProgressDidStop.rawValue) })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltServerValidated) { message in
                    log.record(name: message.isValid && message.info != nil ? Notification.Name.bmltServerValidated.rawValue : "invalid")
                })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltMeetingSearchResults) { message in
                    let expected = truth.all.last { if case .meetingSearchResults = $0 { true } else { false } }
                    let matches = if case .meetingSearchResults(let meetings, _) = expected { meetings.count == message.meetings.count } else { false }
                    log.record(name: matches ? Notification.Name.bmltMeetingSearchResults.rawValue : "meetings differ")
                })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltFormatSearchResults) { _ in log.record(name: Notification.Name.bmltFormatSearchResults.rawValue) })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltServiceBodyResults) { _ in log.record(name: Notification.Name.bmltServiceBodyResults.rawValue) })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltError) { _ in log.record(name: Notification.Name.bmltError.rawValue) })
                typedTokens.append(typedCenter.addObserver(of: connection, for: .bmltRequestCancelled) { _ in log.record(name: Notification.Name.bmltRequestCancelled.rawValue) })
                keptTyped.append(typedTokens)
            }
        }
        #endif
    }
    var keptTyped: [Any] = []

    /// `connection.events` beside the notification observers: subscribed when the sequence is made, so the loop
    /// misses nothing of the run, however late its task starts.
    func observeEvents(_ connection: BMLTConnection) {
        let log = Log("connection.events")
        logs.append((log, true))
        let events = connection.events
        eventsTask = Task { @MainActor in
            for await event in events { log.record(name: event.notificationName.rawValue) }
        }
    }

    /// Bad input: the host posts notifications with BMLTKit's names and no (or a wrong) payload. The typed
    /// accessors give `nil` and typed observers get nothing; then the run itself must still be exact.
    func postLikeAHost(_ connection: BMLTConnection) async {
        let wildcard = observe("forName: nil, object: connection", name: nil, object: connection, queue: nil)
        observe("app-wide logger", name: nil, object: nil, queue: nil)
        observeTyped(connection)
        center.post(name: .bmltMeetingSearchResults, object: connection)
        center.post(name: .bmltServerValidated, object: connection, userInfo: ["org.bmlt.kit.isServerValid": "yes", "org.bmlt.kit.event": 42])
        let note = Notification(name: .bmltMeetingSearchResults, object: connection, userInfo: ["org.bmlt.kit.meetings": "none"])
        if note.bmltMeetings != nil || note.bmltEvent != nil || note.bmltRequest != nil || note.bmltIsFromCache != nil {
            problems.append("a host-posted notification gave a payload")
        }
        let seen = wildcard.all
        if seen.count != 2 || seen.contains(where: { $0.eventName != nil }) { problems.append("host posts seen as \(seen.map(\.name))") }
        if typedLogs.contains(where: { !$0.log.all.isEmpty }) { problems.append("a typed observer got a host post without payload") }
        for (log, _) in logs { log.reset() }
    }

    /// Waits until every event was delivered everywhere (with a huge margin), then checks.
    func finish() async -> Int32 {
        let deadline = Date().addingTimeInterval(60)
        func caughtUp() -> Bool {
            let count = truth.all.count
            return truth.isSettled && logs.allSatisfy { $0.log.bmlt.count >= count }
        }
        while !caughtUp() && Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        try? await Task.sleep(nanoseconds: 200_000_000)   // anything delivered twice would arrive by now
        return report()
    }

    func report() -> Int32 {
        let expected = truth.names
        var problems = self.problems
        // Balanced progress pairs, around the outcomes.
        let progress = expected.filter { $0.hasPrefix("org.bmlt.kit.progress.") }
        let pairs = stride(from: 0, to: progress.count, by: 2).allSatisfy { index in
            progress[index] == Notification.Name.bmltProgressDidStart.rawValue && index + 1 < progress.count
                && progress[index + 1] == Notification.Name.bmltProgressDidStop.rawValue
        }
        if progress.isEmpty || !pairs || expected.first != progress.first || expected.last != progress.last {
            problems.append("progress not in balanced pairs: \(expected)")
        }
        if !truth.isSettled { problems.append("the run did not end with a search and a stop: \(expected)") }
        let found = truth.all.compactMap { if case .meetingSearchResults(let meetings, _) = $0 { meetings.count } else { nil } }
        if found.isEmpty || found.contains(0) { problems.append("a search found no meetings: \(found)") }
        for (log, ordered) in logs {
            let got = log.bmlt
            if got.contains(where: { !$0.name.hasPrefix("org.bmlt.kit.") }) {
                problems.append("\(log.label): a notification that is not BMLTKit's: \(got.map(\.name))")
            }
            if got.contains(where: { $0.eventName != $0.name }) {
                problems.append("\(log.label): a notification without its payload (bmltEvent): \(got.filter { $0.eventName != $0.name }.map(\.name))")
            }
            let names = got.map(\.name)
            if ordered ? names != expected : names.sorted() != expected.sorted() {
                problems.append("\(log.label): \(names.count) notifications, expected each of \(expected.count) once\n  got      \(names)\n  expected \(expected)")
            }
            print("\(log.label): \(names.count) of \(expected.count)")
        }
        for (log, everyEvent) in typedLogs {
            let observed: Set<String> = [Notification.Name.bmltProgressDidStart, .bmltProgressDidStop, .bmltServerValidated, .bmltMeetingSearchResults,
                                         .bmltFormatSearchResults, .bmltServiceBodyResults, .bmltError, .bmltRequestCancelled].reduce(into: []) { $0.insert($1.rawValue) }
            let wanted = everyEvent ? expected.filter { observed.contains($0) } : []
            let got = log.all.map(\.name)
            if got != wanted { problems.append("\(log.label): got \(got), expected \(wanted)") }
            print("\(log.label): \(got.count) of \(wanted.count)")
        }
        for check in extraChecks { problems += check() }
        for token in tokens.all { center.removeObserver(token); center.removeObserver(token) }   // twice: harmless
        eventsTask?.cancel()
        if problems.isEmpty {
            print("ok: \(pattern): \(expected.count) events (\(found.map(String.init).joined(separator: ", ")) meetings found), each seen once with its payload by \(logs.count + typedLogs.count) observers; progress in \(progress.count / 2) balanced pair(s)")
            return 0
        }
        print("MISMATCH (\(pattern)):\n" + problems.joined(separator: "\n"))
        return 1
    }
}

/// `PATTERN [URL] [--service-body ID] [--weekday 1…7]`.
var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    print("usage: bmlt-host-patterns PATTERN [URL] [--service-body ID] [--weekday 1…7]")
    exit(2)
}
let pattern = arguments.removeFirst()
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
let status = await PatternRun(pattern: pattern, rootURL: rootURL, criteria: criteria).run()
exit(status)
