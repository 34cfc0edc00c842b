import Foundation
import Testing

/// A whole-call `BMLTConfiguration.timeout` that is only a hang guard, for the tests whose pass does not depend on a
/// deadline: the default 30 s is a deadline the work must fit in, and under the thread sanitizer with the whole suite in
/// parallel on two busy cores calls that ask a loopback server were seen to time out at 30 s; tests took ~100 s (issue 50).
let hangGuardTimeout: TimeInterval = 900

/// (APIContractTests' copy of BMLTKitTests' helper: test targets share no code but LoopbackHTTPServer.)
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
