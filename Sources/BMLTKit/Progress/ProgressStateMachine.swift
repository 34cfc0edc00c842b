import Foundation

/// The no-flicker progress state machine: not active → delaying start → active → delaying stop. Internal: apps use
/// `BMLTProgressIndicator` or the progress notifications.
///
/// A pure value: it is told when work begins and ends and when its timer fires, and answers with what to do.
/// Duplicate events are harmless (idempotent). With both delays 0 it goes straight between `notActive` and
/// `active`. Both the connection's progress notifications and `BMLTProgressIndicator` run on it.
struct BMLTProgressStateMachine: Sendable, Hashable {
    /// Where the machine is.
    enum State: Sendable, Hashable {
        /// Nothing in flight, indicator hidden.
        case notActive
        /// Work began; waiting `startDelay` before showing.
        case delayingStart
        /// Indicator shown.
        case active
        /// Work ended; waiting `stopDelay` before hiding, in case more work comes.
        case delayingStop
    }

    /// What the owner must do after an event.
    enum Effect: Sendable, Hashable {
        /// Show the indicator (post `.bmltProgressDidStart`).
        case show
        /// Hide the indicator (post `.bmltProgressDidStop`).
        case hide
        /// Start a timer for this many seconds, then call `timerFired(generation:)` with this generation.
        case startTimer(seconds: TimeInterval, generation: Int)
    }

    /// The current state.
    private(set) var state: State = .notActive
    /// Seconds work must last before the indicator shows.
    let startDelay: TimeInterval
    /// Seconds the indicator lingers after work ends.
    let stopDelay: TimeInterval
    private var isBusy = false
    private var generation = 0

    /// A machine with the given delays (negative delays count as 0).
    init(startDelay: TimeInterval = 0, stopDelay: TimeInterval = 0) {
        self.startDelay = max(0, startDelay)
        self.stopDelay = max(0, stopDelay)
    }

    /// Work is in flight (the count went above 0).
    mutating func busy() -> [Effect] {
        guard !isBusy else { return [] }
        isBusy = true
        switch state {
        case .notActive:
            if startDelay == 0 {
                state = .active
                return [.show]
            }
            state = .delayingStart
            return [newTimer(startDelay)]
        case .delayingStop:
            state = .active
            generation += 1   // the pending stop timer is now stale
            return []
        case .delayingStart, .active:
            return []
        }
    }

    /// No work is in flight (the count returned to 0).
    mutating func idle() -> [Effect] {
        guard isBusy else { return [] }
        isBusy = false
        switch state {
        case .active:
            if stopDelay == 0 {
                state = .notActive
                return [.hide]
            }
            state = .delayingStop
            return [newTimer(stopDelay)]
        case .delayingStart:
            // Finished before the start delay: never show. The pending start timer is stale.
            state = .notActive
            generation += 1
            return []
        case .notActive, .delayingStop:
            return []
        }
    }

    /// A timer started by `.startTimer` fired. Stale timers (an older generation) are ignored.
    mutating func timerFired(generation firedGeneration: Int) -> [Effect] {
        guard firedGeneration == generation else { return [] }
        switch state {
        case .delayingStart:
            state = .active
            return [.show]
        case .delayingStop:
            state = .notActive
            return [.hide]
        case .notActive, .active:
            return []
        }
    }

    private mutating func newTimer(_ seconds: TimeInterval) -> Effect {
        generation += 1
        return .startTimer(seconds: seconds, generation: generation)
    }
}

/// Runs a `BMLTProgressStateMachine` on the main actor with real timers.
@MainActor
final class ProgressDriver {
    private var machine: BMLTProgressStateMachine
    private let onChange: @MainActor (Bool) -> Void

    init(startDelay: TimeInterval, stopDelay: TimeInterval, onChange: @escaping @MainActor (Bool) -> Void) {
        machine = BMLTProgressStateMachine(startDelay: startDelay, stopDelay: stopDelay)
        self.onChange = onChange
    }

    var isVisible: Bool { machine.state == .active || machine.state == .delayingStop }

    func busy() { run(machine.busy()) }
    func idle() { run(machine.idle()) }

    private func run(_ effects: [BMLTProgressStateMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .show: onChange(true)
            case .hide: onChange(false)
            case .startTimer(let seconds, let generation):
                // An infinite delay's timer would never fire: none is started (no task left asleep for decades).
                guard seconds < TimeoutBudget.limit else { continue }
                Task { @MainActor [weak self] in
                    try? await Wait.sleep(seconds: seconds)
                    guard let self else { return }
                    self.run(self.machine.timerFired(generation: generation))
                }
            }
        }
    }
}

/// Drives a spinner from a connection's progress notifications, without flicker: a busy period shorter than
/// `startDelay` never shows it, and back-to-back requests within `stopDelay` don't make it blink.
///
/// Built only on the public `.bmltProgressDidStart`/`.bmltProgressDidStop` notifications (a host app could
/// write it). Keep a reference for as long as it should work.
/// ```swift
/// let indicator = BMLTProgressIndicator(connection: connection, startDelay: 0.5, stopDelay: 0.2) { visible in
///     spinner.isHidden = !visible          // called on the main thread, only on a change
/// }
/// ```
@MainActor
public final class BMLTProgressIndicator {
    /// Whether the indicator is showing now.
    public private(set) var isVisible = false
    private var driver: ProgressDriver!
    private let observations: NotificationObservations

    /// Starts observing `connection`'s progress notifications on `notificationCenter` (default: the one in the
    /// connection's configuration). `onChange` is called on the main thread, only when visibility changes.
    public init(connection: BMLTConnection, startDelay: TimeInterval = 0.5, stopDelay: TimeInterval = 0.2,
                notificationCenter: NotificationCenter? = nil, onChange: @escaping @MainActor (Bool) -> Void) {
        let center = notificationCenter ?? connection.configuration.notificationCenter
        observations = NotificationObservations(center: center)
        driver = ProgressDriver(startDelay: startDelay, stopDelay: stopDelay) { [weak self] visible in
            guard let self, self.isVisible != visible else { return }
            self.isVisible = visible
            onChange(visible)
        }
        observations.observe(.bmltProgressDidStart, object: connection) { [weak self] _ in
            MainActor.assumeIsolatedOrHop { self?.driver.busy() }
        }
        observations.observe(.bmltProgressDidStop, object: connection) { [weak self] _ in
            MainActor.assumeIsolatedOrHop { self?.driver.idle() }
        }
        if connection.isBusy { driver.busy() }
    }

    /// Stops observing.
    public func invalidate() {
        observations.removeAll()
    }
}

/// NotificationCenter block observations that are removed when this object goes away.
final class NotificationObservations: Sendable {
    private let center: NotificationCenter
    private let tokens = Locked<[any NSObjectProtocol]>([])

    init(center: NotificationCenter) { self.center = center }

    func observe(_ name: Notification.Name, object: AnyObject?, _ block: @escaping @Sendable (Notification) -> Void) {
        let token = center.addObserver(forName: name, object: object, queue: nil, using: block)
        tokens.withLock { $0.append(token) }
    }

    func removeAll() {
        let removed = tokens.withLock { tokens in
            defer { tokens.removeAll() }
            return tokens
        }
        for token in removed { center.removeObserver(token) }
    }

    deinit { removeAll() }
}

extension MainActor {
    /// Runs `body` now when already on the main thread, else hops to the main actor (notifications may be
    /// delivered on another queue when the connection is configured so).
    static func assumeIsolatedOrHop(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            Task { @MainActor in body() }
        }
    }
}
