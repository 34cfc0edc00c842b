import Testing

/// The shared wait: it returns as soon as its condition holds, and reaching its limit fails the test, naming the
/// condition (before issue 50 it returned silently and the test went on as if the condition held).
@Suite("waitUntil: a wait that reaches its limit fails the test")
@MainActor
struct WaitUntilTests {
    @Test("a condition that holds returns true at once; one that never holds records an issue naming it, and returns false")
    func recordsWhatItWaitedFor() async {
        var checks = 0
        let held = await waitUntil("the third check") { checks += 1; return checks == 3 }
        #expect(held && checks == 3)
        await withKnownIssue("the wait reaches its 0.05 s limit") {
            let neverHeld = await waitUntil("a condition that never holds", seconds: 0.05) { false }
            #expect(!neverHeld)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("still not: a condition that never holds") }
        }
    }
}
