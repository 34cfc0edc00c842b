import Foundation
import Testing
@testable import BMLTKit

/// The bad-input corpus again, as the reply to a meeting search: one `.bmltError` of the expected kind,
/// `lastError` set, the last good meetings kept, progress balanced.
@Suite("Bad-input corpus (meeting search)")
@MainActor
struct SearchBadInputTests {
    @Test("each bad reply to a search keeps the last good meetings", arguments: 0..<BadInputCorpusTests.cases.count)
    func search(index: Int) async throws {
        let (name, bad, expectedKind) = BadInputCorpusTests.cases[index]
        let good = #"[{"id_bigint":"1","meeting_name":"Good"}]"#
        let stub = StubServer { _ in .json(good) }
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.001)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
        recorder.removeAll()
        stub.answer { _ in bad }
        var thrown: BMLTError?
        do { _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly) } catch { thrown = error as? BMLTError }
        #expect(thrown.map(BadInputCorpusTests.kind) == expectedKind, "\(name): \(String(describing: thrown))")
        #expect(recorder.errors.count == 1 && recorder.errors.first == thrown, "\(name)")
        #expect(recorder.count(.bmltProgressDidStart) == 1 && recorder.count(.bmltProgressDidStop) == 1, "\(name)")
        #expect(connection.search.lastError == thrown && connection.search.meetings.map(\.name) == ["Good"], "\(name)")
    }
}
