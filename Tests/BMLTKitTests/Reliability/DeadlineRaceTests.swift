import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// What a deadline settles, by the order of events (no clock bound): a read's `.timeout` comes while its cancelled work
/// is still winding down, and nothing of that work reaches the cache or the notifications afterwards; a login's outcome
/// waits for its work. The work here ignores cancellation on purpose (`DeadlineGate`), standing for whatever a
/// cancelled read still does after its deadline (the epilogues that took 11 s under a loaded thread sanitizer).
@Suite("Deadlines: a read ends at its deadline, whatever winds down behind it", .serialized)
@MainActor
struct DeadlineRaceTests {
    /// A connection to `root` with `timeout`, its events recorded.
    func connection(_ root: URL, timeout: TimeInterval, recorder: EventRecorder,
                    cache: BMLTResponseCache? = nil) -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), eventMonitors: [recorder])
        configuration.timeout = timeout
        configuration.cache = cache
        return BMLTConnection(rootServerURL: root, configuration: configuration)
    }

    /// `operation` run to its outcome, and whether its work had ended by then.
    func outcome<Value>(of operation: BMLTKit.Operation<Value>, on connection: BMLTConnection,
                        workEnded: Locked<Bool>) async -> (Result<Value, BMLTError>, workEndedFirst: Bool) {
        let result: Result<Value, BMLTError>
        do throws(BMLTError) { result = .success(try await connection.run(operation)) } catch { result = .failure(error) }
        return (result, workEnded.withLock { $0 })
    }

    @Test("a read whose work does not stop when cancelled: .timeout at the deadline, while the work still runs; its late success reaches nothing")
    func readEndsAtItsDeadline() async throws {
        // Under load the 0.3 s deadline can pass before the call's task has even begun its work: the race is then over
        // and the work is never started (nothing is sent after a deadline), so there is no abandoned work to wait for.
        // (Waiting for it anyway stalled a whole CI run for 900 s, twice.) Such a try proves nothing here and is made
        // again, with a new connection; a try whose work had begun when the outcome came is the one checked.
        for _ in 0..<10 {
            let gate = DeafGate()
            gate.open(after: 60)    // only a hang guard: with the outcome waiting for the work, the test fails instead of hanging
            let workStarted = Locked(false)
            let workEnded = Locked(false)
            let succeeded = Locked(false)
            let recorder = EventRecorder()
            let connection = connection(URL(string: "http://127.0.0.1:9/main_server")!, timeout: 0.3, recorder: recorder)
            let read = BMLTKit.Operation<Int>.read(.formats, errorIn: .server, work: { _ throws(BMLTError) in
                workStarted.withLock { $0 = true }
                await gate.wait()
                workEnded.withLock { $0 = true }
                return 1
            }, succeed: { _, _, _ in
                succeeded.withLock { $0 = true }
                return []
            })
            let (result, workEndedFirst) = await outcome(of: read, on: connection, workEnded: workEnded)
            let began = workStarted.withLock { $0 }
            gate.open()
            #expect(result == .failure(.timeout))
            guard began else { continue }
            #expect(!workEndedFirst, "the outcome waited for the cancelled work to end")
            await waitUntil("the abandoned work ended") { workEnded.withLock { $0 } }
            // The late success is dropped: a few turns of the main actor for anything it would have announced.
            for _ in 0..<20 { await Task.yield() }
            try await Task.sleep(nanoseconds: 50_000_000)
            #expect(recorder.names == ["progress.didStart", "error", "progress.didStop"], "\(recorder.names)")
            #expect(!succeeded.withLock { $0 }, "the late success was applied")
            #expect(connection.lastError == .timeout && connection.server.lastError == .timeout)
            #expect(connection.inFlightRequests.isEmpty)
            return
        }
        Issue.record("in 10 tries the work never began before its 0.3 s deadline: nothing to check")
    }

    @Test("a read's cache writes land only for an outcome that came in time: dropped after its .timeout, kept before an in-time one")
    func cacheWritesOnlyInTime() async throws {
        let server = try LoopbackHTTPServer { _ in .json(SampleReplies.formats) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-deadline-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = server.baseURL.appendingPathComponent("main_server")
        let formatsQuery = [URLQueryItem(name: "switcher", value: "GetFormats")]

        for inTime in [false, true] {
            let cache = BMLTResponseCache(directory: directory.appendingPathComponent(inTime ? "in-time" : "late"), maximumBytes: 10_000_000)
            let gate = DeafGate()
            if inTime { gate.open() } else { gate.open(after: 60) }
            let workStarted = Locked(false)
            let workEnded = Locked(false)
            let recorder = EventRecorder()
            let connection = connection(root, timeout: inTime ? 60 : 2, recorder: recorder, cache: cache)
            // The answer is read (and would be stored) at once; then the work goes on, past the deadline when late.
            let read = BMLTKit.Operation<Int>.read(.formats, errorIn: .server, work: { context throws(BMLTError) in
                workStarted.withLock { $0 = true }
                // Ended however it ends: under load the deadline may cancel the GET itself, which then throws.
                defer { workEnded.withLock { $0 = true } }
                let reply = try await context.get("client_interface/json/", query: formatsQuery)
                await gate.wait()
                return reply.data.count
            }, succeed: { _, _, _ in [] })
            let (result, _) = await outcome(of: read, on: connection, workEnded: workEnded)
            let key = CacheKey(root: connection.rootServerURL,
                               url: connection.transport.urls.url(root: connection.rootServerURL, path: "client_interface/json/", query: formatsQuery))
            if inTime {
                let bytes = (try? result.get()) ?? 0
                #expect(bytes > 0, "\(result)")
                #expect(cache.body(for: key) != nil, "an outcome in time: its answer is in the cache when the call returns")
            } else {
                #expect(result == .failure(.timeout), "\(result)")
                gate.open()
                // Under load the deadline can pass before the work begins; the race then never starts it (see
                // `readEndsAtItsDeadline`): no work to wait for, and nothing it could have cached.
                if workStarted.withLock({ $0 }) {
                    await waitUntil("the abandoned work ended") { workEnded.withLock { $0 } }
                }
                try await Task.sleep(nanoseconds: 100_000_000)   // the late work's epilogue, which would release its writes
                #expect(cache.body(for: key) == nil, "a timed-out read's answer reached the cache")
            }
        }
    }

    @Test("a login is not settled by its deadline: its .timeout comes once its work has returned (a login never opens after it was reported timed out)")
    func loginWaitsForItsWork() async throws {
        let gate = DeafGate()
        let workEnded = Locked(false)
        let recorder = EventRecorder()
        let connection = connection(URL(string: "http://127.0.0.1:9/main_server")!, timeout: 0.3, recorder: recorder)
        let request = Locked<BMLTRequest?>(nil)
        let login = BMLTKit.Operation<Int>(kind: .login, work: { _ throws(BMLTError) in
            await gate.wait()
            workEnded.withLock { $0 = true }
            throw .cancelled
        }, succeed: { _, _, _ in [] })
        let running = Task { @MainActor () async -> Result<Int, BMLTError> in
            do throws(BMLTError) {
                return Result<Int, BMLTError>.success(try await connection.run(login) { started in request.withLock { $0 = started } })
            } catch {
                return .failure(error)
            }
        }
        await waitUntil("the deadline fired") { request.withLock { $0 }?.deadlinePassedAt != nil }
        try await Task.sleep(nanoseconds: 100_000_000)    // time for a wrongly settled outcome to be delivered
        #expect(request.withLock { $0 }?.isFinished == false, "the login's outcome waits for its work")
        gate.open()
        let result = await running.value
        #expect(result == .failure(.timeout))
        #expect(workEnded.withLock { $0 })
        #expect(recorder.names == ["progress.didStart", "error", "progress.didStop"], "\(recorder.names)")
    }
}
