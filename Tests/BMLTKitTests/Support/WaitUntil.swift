import Foundation
import Testing

/// A whole-call `BMLTConfiguration.timeout` that is only a hang guard, for the tests whose pass does not depend on a
/// deadline. The default 30 s is a deadline the work must fit in: under the thread sanitizer with the whole suite in
/// parallel on two busy cores a validation against a stub that answers at once was seen to time out at 30 s before its
/// first request reached the stub, and tests that wait for a stub took ~100 s (issue 50): 900 s leaves ~9× that.
/// Tests of the deadline set their own.
let hangGuardTimeout: TimeInterval = 900

/// Waits on the main actor until `condition` holds, checking every 2 ms, and returns `true` as soon as it does.
/// The limit (15 min) is only a hang guard: under the thread sanitizer with the whole suite in parallel on two busy
/// cores a test that waits for an answer from a loopback stub took ~100 s (issue 50's measurement). Reaching it **fails
/// the test**, naming what was awaited (`what`), and returns `false`, so the test's own expectations after the wait
/// still say what was wrong instead of the wait passing silently.
///
/// ```swift
/// await waitUntil("the connection is idle") { !connection.isBusy }
/// ```
@MainActor
@discardableResult
func waitUntil(_ what: String, seconds: Double = 900, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds >= deadline {
            Issue.record("waited \(seconds) s, still not: \(what)", sourceLocation: sourceLocation)
            return false
        }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
}
