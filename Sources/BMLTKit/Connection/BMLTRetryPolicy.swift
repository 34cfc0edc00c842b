import Foundation

/// How reads are retried on transient failures (connection lost, timeout, HTTP 502/503/504).
/// A write is sent again under this policy only when BMLTKit has looked up what the server holds and proved the
/// write was not done (see the Administration article, "When the answer is lost"); logins and messages are never
/// retried.
public struct BMLTRetryPolicy: Sendable, Hashable {
    /// How many times a read is tried again after the first attempt (0 switches retries off).
    public var maximumRetries: Int
    /// The wait before the first retry, in seconds; each further retry waits twice as long.
    public var baseDelay: TimeInterval
    /// The longest wait between two attempts, in seconds.
    public var maximumDelay: TimeInterval
    /// How much of each wait is random (0…1), so that many clients don't retry in step.
    public var jitter: Double

    /// A retry policy; the default tries a read twice more, after about 0.5 s and 1 s.
    public init(maximumRetries: Int = 2, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 8, jitter: Double = 0.2) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.jitter = min(1, max(0, jitter))
    }

    /// No retries.
    public static let none = BMLTRetryPolicy(maximumRetries: 0)

    /// The wait before retry number `attempt` (1-based): exponential, capped, with jitter.
    public func delay(beforeRetry attempt: Int) -> TimeInterval {
        let exponential = min(maximumDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return exponential * (1 - jitter * Double.random(in: 0...1))
    }
}
