import Foundation

/// A gate a test opens when it has seen what it waits for: a `LoopbackHTTPServer.Behavior.gated` reply holds the rest
/// of its body until then, so "while it arrives" is a state the test reaches for certain, not a race with the machine's
/// load.
/// ```swift
/// let gate = LoopbackGate()
/// let server = try LoopbackHTTPServer { _ in .gated(status: 200, body: body, firstBytes: 4096, gate: gate) }
/// // … once the test has seen the first meetings:
/// gate.open()
/// ```
public final class LoopbackGate: Sendable {
    private let isOpen = NSLock()
    private nonisolated(unsafe) var opened = false   // guarded by `isOpen`

    /// A closed gate.
    public init() {}

    /// Opens the gate: every reply waiting on it sends the rest of its body.
    public func open() { isOpen.withLock { opened = true } }

    /// Whether the gate has been opened.
    public var wasOpened: Bool { isOpen.withLock { opened } }

    /// Waits until the gate opens, `seconds` pass or `keepWaiting` says to stop (the server stopping).
    func wait(upTo seconds: TimeInterval, while keepWaiting: () -> Bool) {
        let end = Date().addingTimeInterval(seconds)
        while !wasOpened, keepWaiting(), Date() < end { Thread.sleep(forTimeInterval: 0.005) }
    }
}
