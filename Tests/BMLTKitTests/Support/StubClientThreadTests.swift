import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// The test stub's late answers (Apple audit A4): delayed, held until the test says so, dripped in pieces, and a held
/// answer whose request was cancelled first. On Apple platforms the stub calls its `URLProtocolClient` on the thread
/// that ran `startLoading`, as Apple's CustomHTTPProtocol sample asks ("call the client on the client thread";
/// OHHTTPStubs does the same), and counts any call made elsewhere: this test asserts none (run by CI's macOS jobs, not
/// on this Linux machine). On Linux the calls go through the session's work queue (`onClientThread`) and are not
/// counted: here the test checks the answers and the stop.
@Suite("StubProtocol: late answers reach the client where Foundation expects them")
@MainActor
struct StubClientThreadTests {
    @Test("delayed, held and dripped answers, and a held answer cancelled first: no client call off the loading thread")
    func lateAnswersOnTheLoadingThread() async throws {
        let released = Locked(false)
        let server = StubServer { request in
            switch request.url?.lastPathComponent {
            case "delayed":
                return .json(#"{"delayed":true}"#, delay: 0.05)
            case "dripped":
                var response = StubServer.Response.json(String(repeating: "x", count: 100))
                response.chunkSize = 10
                response.chunkInterval = 0.005
                return response
            case "held", "cancelled":
                var response = StubServer.Response.json("held")
                response.heldUntil = { released.withLock { $0 } }
                return response
            default:
                return .hanging
            }
        }
        // A delegate session, as BMLTKit's transport makes its requests.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        let bodies = Bodies()
        let session = URLSession(configuration: configuration, delegate: bodies, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        func task(_ name: String) -> URLSessionDataTask { session.dataTask(with: server.rootURL.appendingPathComponent(name)) }

        let delayed = await bodies.load(task("delayed"))
        #expect(try delayed.get() == Data(#"{"delayed":true}"#.utf8))
        let dripped = await bodies.load(task("dripped"))
        #expect(try dripped.get() == Data(String(repeating: "x", count: 100).utf8))

        // A held answer whose request is cancelled before it is released: stopped early, never answered.
        let cancelled = task("cancelled")
        let cancelledLoad = Task { await bodies.load(cancelled) }
        await waitUntil("the cancelled request reached the stub") { server.requests.contains { $0.url?.lastPathComponent == "cancelled" } }
        cancelled.cancel()
        let outcome = await cancelledLoad.value
        var cancelCode: URLError.Code?
        if case .failure(let error) = outcome { cancelCode = (error as? URLError)?.code }
        #expect(cancelCode == .cancelled, "\(outcome)")
        await waitUntil("the stub saw the stop") { server.requestsStoppedEarly.count == 1 }

        // A held answer released while its request waits: answered.
        let heldLoad = Task { await bodies.load(task("held")) }
        await waitUntil("the held request reached the stub") { server.requests.contains { $0.url?.lastPathComponent == "held" } }
        released.withLock { $0 = true }
        let held = await heldLoad.value
        #expect(try held.get() == Data("held".utf8))

        #expect(server.clientCallsOffTheLoadingThread == 0, "every client call on the thread that ran startLoading")
    }

    /// A session delegate collecting each task's body, and its outcome.
    final class Bodies: NSObject, URLSessionDataDelegate, @unchecked Sendable {   // every field is behind `lock`
        private let lock = NSLock()
        private var pending: [Int: (CheckedContinuation<Result<Data, any Error>, Never>, Data)] = [:]

        /// Resumes `task` and returns its body, or its error.
        func load(_ task: URLSessionDataTask) async -> Result<Data, any Error> {
            await withCheckedContinuation { continuation in
                lock.withLock { pending[task.taskIdentifier] = (continuation, Data()) }
                task.resume()
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock { pending[dataTask.taskIdentifier]?.1.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let (continuation, body) = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
            continuation.resume(returning: error.map { .failure($0) } ?? .success(body))
        }
    }
}
