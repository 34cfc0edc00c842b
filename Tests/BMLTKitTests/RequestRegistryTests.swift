import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

@Suite("In-flight registry, progress and cancellation")
@MainActor
struct RequestRegistryTests {
    @Test("50 concurrent requests: one progress pair, one outcome each, all tracked while in flight")
    func fiftyConcurrent() async throws {
        let stub = StubServer(SampleReplies.healthy(delay: 0.05))
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let requests = (0..<50).map { _ in connection.connect() }
        #expect(Set(requests.map(\.id)).count == 50)
        #expect(connection.inFlightRequests.count == 50)
        #expect(requests.allSatisfy { $0.kind == .validation })
        await waitUntil("the connection is idle") { !connection.isBusy }   // returns as soon as idle; under TSan with both cores loaded the whole process stalled ~12 s at start
        #expect(recorder.count(.bmltProgressDidStart) == 1)
        #expect(recorder.count(.bmltProgressDidStop) == 1)
        #expect(recorder.names.first == "progress.didStart")
        #expect(recorder.names.last == "progress.didStop")
        #expect(recorder.count(.bmltServerValidated) == 50)
        let outcomes = recorder.all.compactMap(\.request)
        #expect(Set(outcomes.map(\.id)) == Set(requests.map(\.id)))
        #expect(outcomes.count == 50)
        #expect(recorder.errors.isEmpty)
    }

    @Test("cancelling one request leaves the others: one .bmltRequestCancelled, no .bmltError")
    func cancelOne() async throws {
        let stub = StubServer(SampleReplies.healthy(delay: 0.2))
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let requests = (0..<5).map { _ in connection.connect() }
        requests[2].cancel()
        requests[2].cancel()   // twice is harmless
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.count(.bmltRequestCancelled) == 1)
        #expect(recorder.all.contains { if case .requestCancelled(let request) = $0 { request == requests[2] } else { false } })
        #expect(recorder.errors.isEmpty)
        #expect(recorder.count(.bmltServerValidated) == 4)
        #expect(recorder.count(.bmltProgressDidStart) == 1)
        #expect(recorder.count(.bmltProgressDidStop) == 1)
        #expect(requests[2].isCancelled)
        #expect(connection.isValid)
        #expect(connection.lastError == nil)
    }

    @Test("a request that never answers can be cancelled, and the next request works")
    func cancelHanging() async throws {
        let stub = StubServer { _ in .hanging }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let request = connection.connect()
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(connection.inFlightRequests == [request])
        request.cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.names == ["progress.didStart", "request.cancelled", "progress.didStop"])
        stub.answer(SampleReplies.healthy())
        _ = try await connection.validate()
        #expect(connection.isValid)
    }

    @Test("cancelAllRequests cancels every one, each posting .bmltRequestCancelled once")
    func cancelAll() async throws {
        let stub = StubServer(SampleReplies.healthy(delay: 0.5))
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        for _ in 0..<10 { connection.connect() }
        connection.cancelAllRequests()
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.count(.bmltRequestCancelled) == 10)
        #expect(recorder.errors.isEmpty)
        #expect(recorder.count(.bmltServerValidated) == 0)
        #expect(recorder.names.first == "progress.didStart")
        #expect(recorder.names.last == "progress.didStop")
        #expect(recorder.count(.bmltProgressDidStop) == 1)
    }

    @Test("cancelling the task awaiting the async form cancels its request")
    func cancelAsyncTask() async throws {
        let stub = StubServer { _ in .hanging }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let task = Task { try await connection.validate() }
        // Cancelled once its request is in flight (a fixed 50 ms could pass before the task has even started on a loaded machine).
        await waitUntil("the validation is in flight") { !connection.inFlightRequests.isEmpty }
        task.cancel()
        await #expect(throws: BMLTError.cancelled) { try await task.value }
        #expect(recorder.names == ["progress.didStart", "request.cancelled", "progress.didStop"])
    }

    @Test("sequential busy periods each get their own progress pair")
    func separateBusyPeriods() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        _ = try await connection.validate()
        #expect(recorder.names == ["progress.didStart", "server.validated", "progress.didStop",
                                   "progress.didStart", "server.validated", "progress.didStop"])
    }

    @Test("progress delays: a busy period shorter than the start delay posts no progress pair")
    func progressStartDelay() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.progressStartDelay = 20   // far longer than the validation, even under the thread sanitizer
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        let started = Date()
        _ = try await connection.validate()
        let busy = Date().timeIntervalSince(started)
        try await Task.sleep(nanoseconds: 20_300_000_000)   // past the (now stale) start timer
        if busy < 19.5 {
            #expect(recorder.names == ["server.validated"])
        } else {
            // The machine stalled for longer than the delay (seen: 35 s under TSan with both cores kept busy by two other
            // processes): then the busy period was not shorter, and one balanced pair is right too. The timer may fire
            // before the outcome, or after it was delivered but before the request left the registry (the busy period
            // ends only once the outcome's observers have run). No wall-clock bound can fail the test.
            let pairs = [["progress.didStart", "server.validated", "progress.didStop"],
                         ["server.validated", "progress.didStart", "progress.didStop"]]
            #expect(recorder.names == ["server.validated"] || pairs.contains(recorder.names), "busy for \(busy) s: \(recorder.names)")
        }
    }

    @Test("each connection keeps its own cookies")
    func cookiesAreScopedToTheConnection() async throws {
        let stub = StubServer { request in
            var response = SampleReplies.healthy()(request)
            if request.query("switcher") == "GetServerInfo", request.value(forHTTPHeaderField: "Cookie") == nil {
                response.headers["Set-Cookie"] = "PHPSESSID=abc123; path=/"
            }
            return response
        }
        let first = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let second = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await first.validate()
        _ = try await first.validate()
        #expect(stub.requests.last?.value(forHTTPHeaderField: "Cookie") == "PHPSESSID=abc123")
        _ = try await second.validate()
        let secondFirstRequest = stub.requests.filter { $0.query("switcher") == "GetServerInfo" }[2]
        #expect(secondFirstRequest.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(HTTPCookieStorage.shared.cookies?.contains { $0.name == "PHPSESSID" } != true)
    }

    @Test("delivery on another queue keeps order and still posts every event")
    func customDeliveryQueue() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.deliveryQueue = DispatchQueue(label: "test.delivery")
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        await waitUntil("three events are delivered (progress start, validated, progress stop)") { recorder.all.count == 3 }
        #expect(recorder.names == ["progress.didStart", "server.validated", "progress.didStop"])
    }
}
