import Foundation
import Testing
@testable import BMLTKit

/// The transport's one timer for every request's deadline.
@Suite("Deadline queue")
struct DeadlineQueueTests {
    @Test("deadlines fire after the timeout, removed ones never, and nothing is left pending")
    func firesAndForgets() async throws {
        let queue = DeadlineQueue(timeout: 0.2)
        let fired = Locked<[Int]>([])
        let early = Locked(0)
        var tokens: [UInt64] = []
        for index in 0..<6 {
            // Each deadline is at least 0.2 s after its own add: an action that runs sooner is counted.
            let added = DispatchTime.now().uptimeNanoseconds
            tokens.append(queue.add {
                if DispatchTime.now().uptimeNanoseconds - added < 200_000_000 { early.withLock { $0 += 1 } }
                fired.withLock { $0.append(index) }
            })
        }
        queue.remove(tokens[0])   // the oldest ends first (the usual case)
        queue.remove(tokens[3])   // one in the middle
        #expect(queue.count == 4)
        let waitUntil = Date().addingTimeInterval(120)   // returns as soon as they fired; only a hang guard
        while fired.withLock({ $0.count }) < 4, Date() < waitUntil { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(fired.withLock { $0 } == [1, 2, 4, 5])
        #expect(early.withLock { $0 } == 0, "a deadline fired before its time")
        #expect(queue.count == 0)
        // Added after the queue went idle: the timer is armed again.
        _ = queue.add { fired.withLock { $0.append(9) } }
        let again = Date().addingTimeInterval(120)
        while fired.withLock({ $0.last }) != 9, Date() < again { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(fired.withLock { $0.last } == 9)
    }

    @Test("10,000 requests that end in time: none fires, none is left")
    func manyEnded() async throws {
        let queue = DeadlineQueue(timeout: 0.3)
        let fired = Locked(0)
        // A pair that a descheduled thread held apart for the whole timeout (a busy machine) may rightly fire: counted,
        // not failed on. Every other must not.
        var heldApart = 0
        for _ in 0..<10_000 {
            let added = DispatchTime.now().uptimeNanoseconds
            let token = queue.add { fired.withLock { $0 += 1 } }
            queue.remove(token)
            if DispatchTime.now().uptimeNanoseconds - added >= 300_000_000 { heldApart += 1 }
        }
        #expect(queue.count == 0)
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(fired.withLock { $0 } <= heldApart)
    }

    @Test("an infinite or huge timeout means no deadline (and no crash): a connection with timeout .infinity works")
    @MainActor
    func noDeadline() async throws {
        for timeout in [TimeInterval.infinity, 1e300, 2e10] {
            let queue = DeadlineQueue(timeout: timeout)
            let token = queue.add { Issue.record("a deadline fired with timeout \(timeout)") }
            #expect(queue.count == 0)
            queue.remove(token)
        }
        let stub = StubServer(SampleReplies.healthy())
        var configuration = stub.configuration()
        configuration.timeout = .infinity
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        let info = try await connection.validate()
        #expect(!info.version.isEmpty)
    }
}
