import Foundation
import Testing
@testable import BMLTKit

/// Cancelling validation at each of its steps leaves no half-done state, and the next validation works.
@Suite("Cancellation at every validation stage")
@MainActor
struct CancellationStageTests {
    @Test("cancel while a step hangs", arguments: ["GetServerInfo", "GetServiceBodies", "GetFormats", "GetLangs.php"])
    func cancelDuringStep(step: String) async throws {
        let healthy = SampleReplies.healthy()
        let hang = Locked(true)
        let stub = StubServer { request in
            let name = request.url!.path.hasSuffix("GetLangs.php") ? "GetLangs.php" : request.query("switcher")
            return name == step && hang.withLock({ $0 }) ? .hanging : healthy(request)
        }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let request = connection.connect()
        await waitUntil("the \(step) request is at the server") { stub.requests.contains { ($0.url!.path.hasSuffix("GetLangs.php") ? "GetLangs.php" : $0.query("switcher")) == step } }
        request.cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }

        #expect(recorder.names == ["progress.didStart", "request.cancelled", "progress.didStop"], "\(step)")
        #expect(!connection.isValid, "\(step)")
        #expect(connection.server.info == nil && connection.server.formats.isEmpty && connection.server.serviceBodies.isEmpty, "\(step)")
        #expect(connection.lastError == nil && connection.server.lastError == nil, "\(step)")
        #expect(connection.transport.pendingCount == 0, "\(step)")

        hang.withLock { $0 = false }
        _ = try await connection.validate()
        #expect(connection.isValid, "\(step)")
        #expect(connection.server.serviceBodies.count == 4, "\(step)")
    }

    @Test("cancelling after a successful validation changes nothing")
    func cancelAfterFinish() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        let request = connection.connect()
        await waitUntil("the connection is idle") { !connection.isBusy }
        request.cancel()
        #expect(!request.isCancelled)
        #expect(request.isFinished)
        #expect(connection.isValid)
        #expect(recorder.count(.bmltRequestCancelled) == 0)
    }
}
