import Foundation

/// Asks the system for the time to finish the writes in flight when the app is sent to the background (issue 41): on
/// iOS, iPadOS, tvOS, watchOS and visionOS, `ProcessInfo.performExpiringActivity(withReason:using:)` keeps the app
/// running until the writes and their look-ups have ended, or until the system says the time is up. A write whose
/// answer is then lost (the app was suspended anyway) is looked up like any other lost answer when the app runs again.
/// Elsewhere (macOS, Linux) apps are not suspended this way, and nothing is asked.
///
/// One activity serves every write in flight (D10), so a bulk editor saving 100 meetings at once blocks one worker
/// thread, not 100: see `SharedBackgroundActivity`.
enum WriteBackgroundTime {
    /// The activity every write shares, asked of the system.
    static let shared = SharedBackgroundActivity(start: { reason, expired in systemActivity(reason, expired: expired) })

    /// How many writes hold the shared activity (for tests).
    static var holders: Int { shared.holders }

    /// Begins holding the shared activity; call the returned function (once) when the write has ended.
    static func begin(_ reason: String) -> @Sendable () -> Void { shared.begin(reason) }

    /// Runs `body` with the time to finish asked for.
    static func run<Value>(_ reason: String, _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        let end = begin(reason)
        defer { end() }
        return try await body()
    }

    /// Starts the system's activity: `expired` is called when the system takes the time back; the returned function
    /// ends the activity.
    static func systemActivity(_ reason: String, expired: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let finished = DispatchSemaphore(value: 0)
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { isExpired in
            // The activity lasts while this block runs: it waits for the last write's end. Called again with
            // `isExpired` when the time is up (or at once, when the app is already being suspended): the first call is
            // released, and the shared activity is marked gone so that the next write asks again.
            if isExpired {
                expired()
                finished.signal()
            } else {
                finished.wait()
            }
        }
        return { finished.signal() }
        #else
        return {}
        #endif
    }
}

/// One background activity shared by every holder: it starts when a holder arrives and none is running, and ends when
/// the last holder leaves. When the system takes it back early (Apple audit A8: the expiration handler), it is
/// forgotten at once, so the next holder to arrive starts a new one even while older holders are still in flight (a
/// bulk editor's steady stream, or writes made after the user came back to the app); their leaving ends only the
/// activity they did not start when they are the last.
final class SharedBackgroundActivity: Sendable {
    /// Starts an activity for `reason`; calls `expired` if the system ends it first; returns the function that ends it.
    typealias Start = @Sendable (_ reason: String, _ expired: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    private struct State {
        /// Holders in flight.
        var count = 0
        /// Whether an activity is running (started and neither ended nor expired).
        var running = false
        /// Which activity is running: expiries of older ones are ignored.
        var generation = 0
        /// How to end the running activity (set just after it started).
        var end: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let start: Start

    /// A shared activity started with `start` (the system's, or a test's).
    init(start: @escaping Start) { self.start = start }

    /// How many holders are in flight.
    var holders: Int { state.withLock { $0.count } }

    /// Whether an activity is running now.
    var isRunning: Bool { state.withLock { $0.running } }

    /// Holds the activity, starting one when none is running; call the returned function (once) to let go.
    func begin(_ reason: String) -> @Sendable () -> Void {
        let generation: Int? = state.withLock { state in
            state.count += 1
            guard !state.running else { return nil }
            state.running = true
            state.generation += 1
            state.end = nil
            return state.generation
        }
        if let generation {
            // Started outside the lock (it calls into the system); this holder keeps the count above 0 until its own
            // release, which comes after this function returns, so the end is stored before anyone can need it.
            let end = start(reason) { [weak self] in self?.expired(generation) }
            let expiredMeanwhile = state.withLock { state -> Bool in
                guard state.running, state.generation == generation else { return true }
                state.end = end
                return false
            }
            if expiredMeanwhile { end() }
        }
        let released = Locked(false)
        return { [self] in
            guard !released.withLock({ done in defer { done = true }; return done }) else { return }
            let end = state.withLock { state -> (@Sendable () -> Void)? in
                state.count -= 1
                guard state.count == 0, state.running else { return nil }
                state.running = false
                defer { state.end = nil }
                return state.end
            }
            end?()
        }
    }

    /// The system took activity `generation` back: forget it, so that the next holder starts another.
    private func expired(_ generation: Int) {
        state.withLock { state in
            guard state.running, state.generation == generation else { return }
            state.running = false
            state.end = nil
        }
    }
}
