import Foundation

/// An observer of every event a connection emits, beside (or instead of) NotificationCenter.
///
/// Install monitors in `BMLTConfiguration.eventMonitors`; each receives every event, in order, on the
/// configuration's `deliveryQueue` (the main actor by default). A logger or a test recorder is a monitor.
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

/// The single component that announces events: it posts each one to the notification center as a classic
/// `Notification` (on Apple platforms from OS 26, Foundation also hands that one post to typed observers), to the
/// configured `typedMessageCenter` as a typed message, hands it to the configured monitors and to every
/// `connection.events` iterator, in order. Nothing else in BMLTKit posts notifications (BMLTMessages+Bridge.swift
/// says why typed messages never go to `notificationCenter` on Linux).
///
/// Delivery goes through one FIFO on the main actor. On the main thread, with nothing queued, an event is
/// delivered at once. Otherwise (in an `async` main on Linux the main actor runs on a worker thread that drains
/// the main queue) it is delivered inside one `OperationQueue.main` operation: there `OperationQueue.current`
/// is the main queue, so NotificationCenter calls `queue: .main` observers inline instead of enqueueing them and
/// waiting for the very queue that is posting (the deadlock this design removes). Nothing ever waits for the
/// main queue; `delivered()` suspends instead.
@MainActor
final class EventPoster {
    let notificationCenter: NotificationCenter
    /// Where typed messages are posted besides Foundation's own bridge (`BMLTConfiguration.typedMessageCenter`).
    let typedMessageCenter: NotificationCenter?
    /// `nil`: the main actor's FIFO. Otherwise classic notifications and monitors go to this queue, in order.
    let deliveryQueue: DispatchQueue?
    let monitors: [any BMLTEventMonitor]
    /// The `connection.events` iterators.
    let broadcaster = EventBroadcaster()
    /// Events waiting for their main-queue operation, oldest first.
    private var queued: [(BMLTEvent, BMLTConnection)] = []
    /// Tasks waiting in `delivered()` for the FIFO to empty.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Whether a main-queue operation that will deliver the queued events has been added and has not run yet.
    private var drainScheduled = false

    init(configuration: BMLTConfiguration) {
        notificationCenter = configuration.notificationCenter
        typedMessageCenter = configuration.typedMessageCenter
        // `DispatchQueue.main` is a fresh wrapper object on each access on Linux, so compare by label.
        let queue = configuration.deliveryQueue
        deliveryQueue = queue.label == DispatchQueue.main.label ? nil : queue
        monitors = configuration.eventMonitors
    }

    /// Announces the event: at once on the main thread with nothing queued, else after what is queued.
    func emit(_ event: BMLTEvent, from connection: BMLTConnection) {
        if queued.isEmpty && Thread.isMainThread {
            deliver(event, from: connection)
            return
        }
        queued.append((event, connection))
        guard !drainScheduled else { return }
        drainScheduled = true
        OperationQueue.main.addOperation { [self] in
            // Main-queue operations run on the main actor's executor (the main thread, or on Linux the thread
            // draining the main queue), one at a time, in the order they were added. One operation delivers every
            // event queued by then (and any an observer emits meanwhile), in order: a burst costs one hop.
            MainActor.assumeIsolated { drain() }
        }
    }

    /// Whether every event emitted so far has been delivered.
    var isIdle: Bool { queued.isEmpty }

    /// Returns once every event emitted so far has been delivered (at once when nothing is queued).
    func delivered() async {
        guard !queued.isEmpty else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func drain() {
        var next = 0
        while next < queued.count {
            let (event, connection) = queued[next]
            next += 1
            deliver(event, from: connection)
        }
        queued.removeAll(keepingCapacity: queued.count <= 64)
        drainScheduled = false
        let ready = waiters
        waiters.removeAll()
        for waiter in ready { waiter.resume() }
    }

    private func deliver(_ event: BMLTEvent, from connection: BMLTConnection) {
        let center = notificationCenter, monitors = monitors
        if let deliveryQueue {
            if Self.typedObserversShareClassicPosts {
                // Apple, OS 26: the classic post also calls typed observers, which Foundation runs only on the
                // main actor (off it, `MainActor.assumeIsolated` stops the process). Notifications stay here.
                center.post(name: event.notificationName, object: connection, userInfo: event.userInfo)
                deliveryQueue.async { Self.tell(monitors, event, from: connection) }
            } else {
                deliveryQueue.async {
                    center.post(name: event.notificationName, object: connection, userInfo: event.userInfo)
                    Self.tell(monitors, event, from: connection)
                }
            }
        } else {
            center.post(name: event.notificationName, object: connection, userInfo: event.userInfo)
            Self.tell(monitors, event, from: connection)
        }
        postTypedMessage(event, from: connection)
        broadcaster.yield(event)
    }

    private nonisolated static func tell(_ monitors: [any BMLTEventMonitor], _ event: BMLTEvent, from connection: BMLTConnection) {
        for monitor in monitors { monitor.connection(connection, didEmit: event) }
    }

    /// Whether Foundation delivers a classic notification to the typed observers of its name (Foundation.framework
    /// from OS 26, whose message types here name their classic notification): then BMLTKit's one classic post is
    /// also how typed observers of `notificationCenter` get each event. Never on swift-corelibs-foundation.
    nonisolated static var typedObserversShareClassicPosts: Bool {
        #if compiler(>=6.2) && (canImport(Darwin) || BMLTKIT_DARWIN_SHAPED)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        #endif
        return false
    }

    /// Posts the event's typed message to the configured `typedMessageCenter`, if any (on Apple, OS 26, not when it
    /// is `notificationCenter` itself: Foundation has delivered the classic post to its typed observers already).
    private func postTypedMessage(_ event: BMLTEvent, from connection: BMLTConnection) {
        #if compiler(>=6.2)
        guard let typedMessageCenter else { return }
        if Self.typedObserversShareClassicPosts && typedMessageCenter === notificationCenter { return }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            postMessage(event, from: connection, to: typedMessageCenter)
        }
        #endif
    }
}
