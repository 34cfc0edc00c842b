@testable import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// Issue 57, point 3 (R16) and R7: a format or a service body follows the meeting's rule — after an open outcome the
/// second tap looks first and reports what the server holds — and a second save of a draft waiting for the first ends
/// at its own cancel. Against `LostAnswerStandIn`'s `/api/v1` (3.1.2, which takes a format key twice; 4.1.0 and 4.2.7,
/// which refuse it: bmlt-server `app/Rules/FormatTranslationKey.php:53-60`).
@Suite("Second taps: formats, service bodies, a waiting save", .needsCaptures, .serialized)
@MainActor
struct SecondTapTests {
    typealias Generation = LostAnswerStandIn.Generation
    nonisolated static let restGenerations: [Generation] = [.rest3, .rest4, .rest42]

    func connect(_ generation: Generation, timeout: TimeInterval = hangGuardTimeout) async throws -> (LostAnswerStandIn, BMLTConnection) {
        try await SavedAgainTests().connect(generation, timeout: timeout)
    }

    static let format = BMLTAdminFormat(translations: [.init(key: "LA", name: "Lost Answer", description: "Late gateway", language: "en")])
    static func formats(_ standIn: LostAnswerStandIn) -> Int {
        standIn.count("formats") { ($0["translations"] as? [[String: Any]])?.contains { $0["key"] as? String == "LA" } == true }
    }

    /// The open outcome a call ends with (`nil` and an issue recorded otherwise).
    func open(_ call: () async throws -> Void) async -> BMLTUnknownWriteOutcome? {
        await LostAnswerBadInputTests().openOutcome(call)
    }

    @Test("a format created behind a late gateway (502 at once, the server gets it after the look-up), tapped again: one format, reported created",
          arguments: restGenerations)
    func formatLateGateway(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        standIn.loseNextWrite(.late(.status(502)))
        let first = await open { _ = try await connection.createFormatAndWait(Self.format) }
        #expect(first?.finding == .notFoundYet && Self.formats(standIn) == 0)
        standIn.releaseLateWrite()                                      // the gateway hands it on
        let again = try await connection.createFormatAndWait(Self.format)   // the second tap
        #expect(again.id > 0 && Self.formats(standIn) == 1 && standIn.writeRequests == 1 + 1)
        #expect(again.translations.first?.key == "LA")
    }

    @Test("the late format lands between the second tap's look-up and its POST: 4.x refuses the key (422), looked up, reported created; one format",
          arguments: [Generation.rest4, .rest42])
    func formatRefusedAsDuplicate(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        standIn.loseNextWrite(.late(.status(502)))
        _ = await open { _ = try await connection.createFormatAndWait(Self.format) }
        standIn.releaseLateWriteBeforeNextWrite()
        let again = try await connection.createFormatAndWait(Self.format)
        #expect(again.id > 0 && again.translations.first?.key == "LA" && Self.formats(standIn) == 1)
        #expect(standIn.writeRequests == 1 + 2)          // the login, the first POST, the refused second
    }

    @Test("4.x: a format key its language has already (another format's): the server's refusal stands, never an open outcome",
          arguments: [Generation.rest4, .rest42])
    func duplicateKeyRefused(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        let taken = BMLTAdminFormat(translations: [.init(key: "B", name: "Again", description: "Again", language: "en")])
        do {
            _ = try await connection.createFormatAndWait(taken)
            Issue.record("4.x takes a key its language has already")
        } catch BMLTError.validationFailed(_, let fields) {
            #expect(fields["translations.0.key"]?.first?.contains("same as another format") == true)
        }
    }

    @Test("a format or service body created, then asked for again: the one the server holds, reported created, none made twice",
          arguments: restGenerations)
    func createdTwice(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation)
        defer { standIn.stop() }
        let one = try await connection.createFormatAndWait(Self.format)
        let two = try await connection.createFormatAndWait(Self.format)
        #expect(one.id == two.id && Self.formats(standIn) == 1)
        let area = BMLTAdminServiceBody(parentID: 1, name: "Lost Answer Area", type: "AS", adminUserID: 1)
        standIn.loseNextWrite(.late(.reset))
        _ = await open { _ = try await connection.createServiceBodyAndWait(area) }
        standIn.releaseLateWrite()
        let body = try await connection.createServiceBodyAndWait(area)
        let again = try await connection.createServiceBodyAndWait(area)
        #expect(body.id == again.id && standIn.count("servicebodies") { $0["name"] as? String == "Lost Answer Area" } == 1)
        #expect(standIn.writeRequests == 1 + 2)
    }

    @Test("a second save of a draft waiting for the first ends at its own cancel (R7), before the first; nothing sent twice",
          arguments: [Generation.legacy, .rest42])
    func waitingSaveCancelled(generation: Generation) async throws {
        let (standIn, connection) = try await connect(generation, timeout: 60)
        defer { standIn.stop() }
        standIn.loseNextWrite(.late(.silence))                       // the first save's write: no answer yet
        let draft = LostAnswerTests.newDraft("Lost Answer Group", generation)
        let order = Finished()
        let first = Task { @MainActor in
            defer { order.append("first") }
            _ = try await connection.saveAndWait(draft)
        }
        await waitUntil("the first write reached the gateway") { standIn.lateWritePending }
        let second = Task { @MainActor in
            defer { order.append("second") }
            _ = try await connection.saveAndWait(draft)
        }
        second.cancel()
        let outcome = await second.result
        #expect((outcome.error as? BMLTError) == .cancelled, "\(outcome)")
        #expect(order.names == ["second"] && standIn.lateWritePending)
        first.cancel()                                               // the person gives up on the first too
        _ = await first.result
        #expect(order.names == ["second", "first"] && standIn.writeRequests == 1 + 1)
    }
}

/// The calls that ended, in order.
@MainActor
final class Finished {
    private(set) var names: [String] = []
    func append(_ name: String) { names.append(name) }
}

extension Result {
    /// The failure, or `nil`.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
