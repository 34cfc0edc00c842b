import Foundation

/// An observer of every event a connection emits, beside (or instead of) NotificationCenter.
///
/// Install monitors in `BMLTConfiguration.eventMonitors`; each receives every event, in order, on the
/// configuration's `deliveryQueue` (the main thread by default). A logger or a test recorder is a monitor.
/// ```swift
/// struct Logger: BMLTEventMonitor {
///     func connection(_ connection: BMLTConnection, didEmit event: BMLTEvent) { print(event.notificationName.rawValue) }
/// }
/// ```
public protocol BMLTEventMonitor: Sendable {
    /// Called once for each event, in the order the events happened.
    func connection(_ connection: BMLTConnection, didEmit event: BMLTEvent)
}

/// A monitor made from a closure.
public struct BMLTClosureEventMonitor: BMLTEventMonitor {
    private let handler: @Sendable (BMLTConnection, BMLTEvent) -> Void

    /// A monitor that calls `handler` for each event.
    public init(_ handler: @escaping @Sendable (BMLTConnection, BMLTEvent) -> Void) {
        self.handler = handler
    }

    /// Calls the closure.
    public func connection(_ connection: BMLTConnection, didEmit event: BMLTEvent) {
        handler(connection, event)
    }
}

/// The single component that announces events: it posts each one to the notification center and hands it
/// to the configured monitors, on the delivery queue, in order. Nothing else in BMLTKit posts notifications.
struct EventPoster: Sendable {
    let notificationCenter: NotificationCenter
    /// `nil`: the main thread, delivered at once from the main actor.
    let deliveryQueue: DispatchQueue?
    let monitors: [any BMLTEventMonitor]

    init(configuration: BMLTConfiguration) {
        notificationCenter = configuration.notificationCenter
        // `DispatchQueue.main` is a fresh wrapper object on each access on Linux, so compare by label.
        let queue = configuration.deliveryQueue
        deliveryQueue = queue.label == DispatchQueue.main.label ? nil : queue
        monitors = configuration.eventMonitors
    }

    /// Delivers the event. From the main actor onto the main queue it is delivered at once, so observers see
    /// results before an `await` on the same operation returns; onto any other queue it is queued in order.
    @MainActor
    func emit(_ event: BMLTEvent, from connection: BMLTConnection) {
        if let deliveryQueue {
            deliveryQueue.async { [self] in deliver(event, from: connection) }
        } else {
            deliver(event, from: connection)
        }
    }

    private func deliver(_ event: BMLTEvent, from connection: BMLTConnection) {
        notificationCenter.post(name: event.notificationName, object: connection, userInfo: event.userInfo)
        for monitor in monitors { monitor.connection(connection, didEmit: event) }
    }
}
