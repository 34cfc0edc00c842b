import Foundation

/// A wait of some seconds, as `Task.sleep` takes it, whatever the number: every wait in BMLTKit goes through here.
///
/// `UInt64(seconds * 1_000_000_000)` traps for an infinite, NaN or huge value, and the seconds come from public,
/// settable values (`BMLTRetryPolicy.baseDelay`/`maximumDelay`, `BMLTConfiguration.progressStartDelay`/`Stop`), so a
/// host's `.infinity` would otherwise stop the app. Here no value crashes: NaN and anything up to 0 is no wait, and
/// anything above `TimeoutBudget.limit` (about 31 years, the same line as "no deadline") waits that long.
/// ```swift
/// try await Wait.sleep(seconds: policy.delay(beforeRetry: 1))    // .infinity waits ~31 years, never traps
/// ```
enum Wait {
    /// `seconds` in nanoseconds: 0 for NaN and anything up to 0, at most `TimeoutBudget.limit` seconds (1e18 ns,
    /// below `UInt64.max`).
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }    // NaN compares false: no wait
        return UInt64(min(seconds, TimeoutBudget.limit) * 1_000_000_000)
    }

    /// Sleeps `seconds` (clamped as `nanoseconds(_:)` says); throws `CancellationError` when the task is cancelled.
    static func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: nanoseconds(seconds))
    }
}
