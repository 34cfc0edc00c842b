import Foundation

/// Asks the system for the time to finish a write when the app is sent to the background while it runs (issue 41):
/// on iOS, iPadOS, tvOS, watchOS and visionOS, `ProcessInfo.performExpiringActivity(withReason:using:)` keeps the app
/// running until the write and its look-up have ended, or until the system says the time is up. A write whose answer is
/// then lost (the app was suspended anyway) is looked up like any other lost answer when the app runs again. Elsewhere
/// (macOS, Linux) apps are not suspended this way, and nothing is asked.
enum WriteBackgroundTime {
    /// Begins asking; call the returned function when the write has ended.
    static func begin(_ reason: String) -> @Sendable () -> Void {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let finished = DispatchSemaphore(value: 0)
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            // The activity lasts while this block runs: it waits for the write's end. Called again with `expired`
            // when the time is up: the first call is released (the write goes on if the app keeps running).
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
