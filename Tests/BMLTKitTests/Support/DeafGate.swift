import Foundation
@testable import BMLTKit

/// A wait that ignores cancellation (as work that has its own reasons to go on may): `wait()` returns only once `open()`
/// was called, cancelled or not. `AsyncStream` would not do: its iteration ends when the task is cancelled.
/// ```swift
/// let gate = DeafGate()
/// Task { await gate.wait(); print("opened") }
/// gate.open()
/// ```
final class DeafGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if now { continuation.resume() }
        }
    }

    /// Whether `open()` was called.
    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens the gate after `seconds` whatever happens: a test that would otherwise hang fails instead.
    func open(after seconds: Double) {
        Task.detached { [self] in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            open()
        }
    }
}
