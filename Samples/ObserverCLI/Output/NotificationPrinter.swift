import BMLTKit
import Foundation

/// Subscribes to every BMLTKit notification of one connection and prints each as it arrives:
/// `time  name  summary`, or one JSON object per line with `--json` (with the event's records). An error's line
/// names only its kind (`error  meetingSearch: timeout`): the sentence is printed once, on standard error.
@MainActor
final class NotificationPrinter {
    private var tokens: [any NSObjectProtocol] = []
    private let center: NotificationCenter
    private let json: Bool
    private let timeout: Double?
    private let deadline: Double?
    private let connection: BMLTConnection
    private let write: @MainActor (String) -> Void
    private let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter
    }()

    /// Number of notifications printed, by short name.
    private(set) var counts: [String: Int] = [:]

    init(connection: BMLTConnection, json: Bool, timeout: Double? = nil, deadline: Double? = nil,
         write: @escaping @MainActor (String) -> Void = { Swift.print($0) }) {
        center = connection.configuration.notificationCenter
        self.connection = connection
        self.json = json
        self.timeout = timeout
        self.deadline = deadline
        self.write = write
        for name in Notification.Name.bmltAllNotifications {
            let token = center.addObserver(forName: name, object: connection, queue: nil) { [weak self] note in
                guard let event = note.bmltEvent else { return }
                let date = Date()
                MainActor.assumeIsolated { self?.take(event, at: date) }
            }
            tokens.append(token)
        }
    }

    func stop() {
        for token in tokens { center.removeObserver(token) }
        tokens.removeAll()
    }

    /// Held back while a search runs beside the validation (`holdSearchEvents`): the search's events and the end of the
    /// busy period, in order.
    private var held: [(event: BMLTEvent, date: Date)]?

    /// From now on, the meeting search's events (and the end of the busy period) wait for `releaseHeldEvents`: a search
    /// sent beside the validation is shown after the validation's outcome, and not at all from a server that is not valid.
    func holdSearchEvents() {
        if held == nil { held = [] }
    }

    /// Prints what was held, in order (the search's events only when `showingSearch`), and stops holding.
    func releaseHeldEvents(showingSearch: Bool) {
        let events = held ?? []
        held = nil
        for (event, date) in events where showingSearch || event.request?.kind != .meetingSearch {
            show(event, at: date)
        }
    }

    private func take(_ event: BMLTEvent, at date: Date) {
        if held != nil, event.request?.kind == .meetingSearch || event.notificationName == .bmltProgressDidStop {
            held?.append((event, date))
        } else {
            show(event, at: date)
        }
    }

    private func show(_ event: BMLTEvent, at date: Date) {
        let name = EventSummary.shortName(event.notificationName)
        counts[name, default: 0] += 1
        if json {
            write(EventSummary.json(for: event, at: date, connection: connection, timeout: timeout, deadline: deadline))
        } else {
            let origin = event.request?.isFromCache == true ? " (from the cache)" : ""
            write("\(timeFormatter.string(from: date))  \(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(EventSummary.line(for: event))\(origin)")
        }
    }
}
