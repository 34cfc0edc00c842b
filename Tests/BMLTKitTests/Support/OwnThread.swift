import Foundation

/// Runs a test's long CPU-bound loop on a thread of its own, and awaits what it found.
///
/// Swift Testing starts every test at once and runs them on the cooperative pool, which has one thread per core: two
/// on this machine and on CI. A synchronous test that computes for seconds (the decoder equivalence checks, which cut
/// every capture at every byte: 6 s alone, 27 s under the thread sanitizer) holds one of those threads all that time,
/// and every other test waits for the one thread left to take its next step. Tests that take 0.01 s alone were
/// reported finishing after 5 s, and after 10–14 s under the thread sanitizer, which broke a test that measured wall
/// time. On a thread of its own, the loop shares the cores with the pool through the kernel's scheduler instead.
///
/// `#expect` and `Issue.record` find their test through the current task, which that thread does not have: the
/// work returns what it found, and the test records it.
///
/// ```swift
/// let disagreements = try await OwnThread.run { try Self.disagreementsInCaptures() }
/// #expect(disagreements.isEmpty, "\(disagreements.prefix(2))")
/// ```
enum OwnThread {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            // The size a cooperative thread has: the deep-nesting replies recurse in the reference decoder.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
