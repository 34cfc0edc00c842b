import Foundation

/// Asks the system for the time to finish the writes in flight when the app is sent to the background (issue 41): on
/// iOS, iPadOS, tvOS, watchOS and visionOS, `ProcessInfo.performExpiringActivity(withReason:using:)` keeps the app
/// running until the writes and their look-ups have ended, or until the system says the time is up. A write whose
/// answer is then lost (the app was suspended anyway) is looked up like any other lost answer when the app runs again.
/// Elsewhere (macOS, Linux) apps are not suspended this way, and nothing is asked.
///
/// One activity serves every write in flight (D10): it begins when the count of writes goes from 0 to 1 and ends when
/// it goes back to 0, so a bulk editor saving 100 meetings at once blocks one worker thread, not 100.
enum WriteBackgroundTime {
    /// The writes in flight and the end of the shared activity (`nil`: none running).
    private static let shared = Locked<(count: Int, end: (@Sendable () -> Void)?)>((0, nil))

    /// How many writes hold the shared activity (for tests).
    static var holders: Int { shared.withLock { $0.count } }

    /// Begins holding the shared activity; call the returned function (once) when the write has ended.
    static func begin(_ reason: String) -> @Sendable () -> Void {
        let first = shared.withLock { state -> Bool in
            state.count += 1
            return state.count == 1
        }
        if first {
            let end = startActivity(reason)
            shared.withLock { $0.end = end }
        }
        let released = Locked(false)
        return {
            guard !released.withLock({ done in defer { done = true }; return done }) else { return }
            let end = shared.withLock { state -> (@Sendable () -> Void)? in
                state.count -= 1
                guard state.count == 0 else { return nil }
                defer { state.end = nil }
                return state.end
            }
            end?()
        }
    }

    /// Starts the system's activity; the returned function ends it.
    private static func startActivity(_ reason: String) -> @Sendable () -> Void {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let finished = DispatchSemaphore(value: 0)
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            // The activity lasts while this block runs: it waits for the last write's end. Called again with
            // `expired` when the time is up: the first call is released (the writes go on if the app keeps running).
            if expired { finished.signal() } else { finished.wait() }
        }
        return { finished.signal() }
        #else
        return {}
        #endif
    }

    /// Runs `body` with the time to finish asked for.
    static func run<Value>(_ reason: String, _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        let end = begin(reason)
        defer { end() }
        return try await body()
    }
}
