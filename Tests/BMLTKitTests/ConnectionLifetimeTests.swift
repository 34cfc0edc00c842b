import Foundation
import Testing
@testable import BMLTKit

@Suite("Connection lifetime")
@MainActor
struct ConnectionLifetimeTests {
    @Test("a connection is released once dropped, after its requests end (no retain cycle)")
    func released() async throws {
        let stub = StubServer(SampleReplies.healthy())
        weak var weakConnection: BMLTConnection?
        do {
            let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
            weakConnection = connection
            _ = try await connection.validate()
            connection.connect()
            await waitUntil("the connection is idle") { !connection.isBusy }
        }
        await waitUntil("the connection is released") { weakConnection == nil }
        #expect(weakConnection == nil)
    }
}

@Suite("Transport bookkeeping")
@MainActor
struct TransportBookkeepingTests {
    @Test("after many requests, successful, failed and cancelled, nothing is left registered")
    func nothingLeftBehind() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        for _ in 0..<50 { connection.connect() }
        let cancelled = (0..<20).map { _ in connection.connect() }
        cancelled.forEach { $0.cancel() }
        await waitUntil("the connection is idle") { !connection.isBusy }
        stub.answer { _ in .text("<html>down</html>", status: 500) }
        for _ in 0..<10 { connection.connect() }
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(connection.transport.pendingCount == 0)
    }
}
