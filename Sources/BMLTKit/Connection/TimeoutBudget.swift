import Foundation

/// What `BMLTConfiguration.timeout` means, decided here and nowhere else, so that no value of it reaches an
/// arithmetic that traps.
///
/// Every conversion of the timeout goes through this type: the deadlines' nanoseconds (`DeadlineQueue`), the
/// `URLRequest.timeoutInterval` and `URLSessionConfiguration.timeoutIntervalForRequest/ForResource` backstops
/// (`Transport`). FoundationNetworking turns a request's timeout into whole milliseconds with `Int(seconds) * 1000`
/// (`_HTTPURLProtocol.configureEasyHandle`), which traps for a NaN, an infinity or anything past about 9.2e15 s; the
/// backstop is therefore always finite and at most `limit`. A timeout that is not a number of seconds above 0 is not
/// turned into anything: the connection refuses every call with `.invalidArgument(.invalidTimeout(_:))`.
/// ```swift
/// TimeoutBudget(30).nanoseconds          // 30_000_000_000
/// TimeoutBudget(.infinity).backstop      // 1e9: finite, so no HTTP stack traps on it
/// TimeoutBudget(.nan) == .invalid        // refused when a call starts
/// ```
enum TimeoutBudget: Sendable, Equatable {
    /// A deadline this many seconds after the call starts: finite, above 0 and below `limit`.
    case seconds(TimeInterval)
    /// No deadline: `.infinity`, or `limit` seconds (about 31 years) or more.
    case unlimited
    /// Not a timeout: NaN, zero or negative.
    case invalid

    /// From here on (about 31 years) a timeout means no deadline; it is also the backstop given to the HTTP stack then.
    static let limit: TimeInterval = 1e9

    init(_ timeout: TimeInterval) {
        if timeout.isNaN || timeout <= 0 {
            self = .invalid
        } else if timeout >= Self.limit {
            self = .unlimited
        } else {
            self = .seconds(timeout)
        }
    }

    /// The deadline in nanoseconds, `nil` for none. Below 1e18 (a timeout under `limit`), so that adding it to the
    /// uptime never overflows; 0 for a timeout too small to count in nanoseconds (it passes at once).
    var nanoseconds: UInt64? {
        guard case .seconds(let seconds) = self else { return nil }
        return UInt64(seconds * 1_000_000_000)
    }

    /// The timeout handed to the HTTP stack (`URLRequest.timeoutInterval`, the session configuration), a backstop
    /// behind BMLTKit's own deadline: whole seconds (Linux counts whole seconds, where 0.5 would fire at once), one
    /// more than the timeout, always finite and at most `limit + 1`. An invalid timeout sends nothing; its backstop
    /// is the HTTP stack's usual 60 s.
    var backstop: TimeInterval {
        switch self {
        case .seconds(let seconds): return (seconds + 1).rounded(.up)
        case .unlimited: return Self.limit
        case .invalid: return 60
        }
    }
}
