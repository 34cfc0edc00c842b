@testable import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// Issue 41's bad input: a change log switched off, two candidate meetings, another administrator's meeting or edit in
/// between, a clock minutes off, a login that ended before the look-up, a look-up that fails. Each gets a true outcome
/// and nothing is written twice; an open outcome is a `.writeOutcomeUnknown` whose sentence never says "Try again".
@Suite("When the answer to a write is lost: bad input", .needsCaptures, .serialized)
@MainActor
struct LostAnswerBadInputTests {
    typealias Generation = LostAnswerStandIn.Generation
    nonisolated static let generations = Generation.allCases
    // Computed, not a stored property's default value: Swift 6.0.3 crashes (signal 11) synthesizing this suite's
    // default init from `let base = LostAnswerTests()`. LostAnswerTests holds nothing.
    var base: LostAnswerTests { LostAnswerTests() }

    /// The open outcome a write failed with (fails the test when it failed otherwise or succeeded).
    func openOutcome(_ write: () async throws -> Void) async -> BMLTUnknownWriteOutcome? {
        // The write counted as sent: `.timeout` is a failure like any other, and nothing is thrown.
        try? await openOutcome(sentIf: { true }, write)
    }

    /// `openOutcome(_:)` for a write under a short deadline: a `.timeout` while `isSent()` is false (the deadline passed
    /// before the write reached the server) throws `WriteNotSentInTime`, for `untilTheWriteIsSent` to try again.
    func openOutcome(sentIf isSent: () -> Bool, _ write: () async throws -> Void) async throws -> BMLTUnknownWriteOutcome? {
        do {
            try await write()
            Issue.record("the write succeeded")
        } catch BMLTError.timeout where !isSent() {
            throw WriteNotSentInTime()
        } catch BMLTError.writeOutcomeUnknown(let open) {
            #expect(!open.description.localizedCaseInsensitiveContains("try again"))
            #expect(!BMLTError.writeOutcomeUnknown(open).localizedDescription.localizedCaseInsensitiveContains("try again"))
            return open
        } catch {
            Issue.record("failed with \(error)")
        }
        return nil
    }

    @Test("change log switched off: a meeting like it exists → open, naming it; the host checks and does not create again",
          arguments: generations)
    func changeLogOffDone(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        standIn.changeLogOn = false
        standIn.loseNextWrite(.reset)
        let open = await openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation)) }
        let held = LostAnswerTests.named(standIn, "Lost Answer Group")
        #expect(held.count == 1 && open?.finding == .noRecordButSimilar(ids: held) && open?.writeKind == .createMeeting)
        #expect(standIn.writeRequests == 2)
    }

    @Test("change log switched off, nothing like it held: open (not found yet), then the second tap makes one meeting",
          arguments: generations)
    func changeLogOffNotDone(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation, retries: 0)
        defer { standIn.stop() }
        connection.adminSession.openWrites.settleTime.withLock { $0 = 0.2 }
        standIn.changeLogOn = false
        standIn.loseNextWrite(.refusedBefore(503))     // a gateway's 503: the server may get it late, so never re-sent
        let draft = LostAnswerTests.newDraft("Lost Answer Group", generation)
        let open = await openOutcome { _ = try await connection.saveAndWait(draft) }
        // (Seen once under load at a fake date, not reproduced since: the message says which finding it was.)
        #expect(open?.finding == .notFoundYet && standIn.writes == 0,
                "finding: \(open.map { String(describing: $0.finding) } ?? "no open outcome"), writes held: \(standIn.writes)")
        _ = try await connection.saveAndWait(draft)
        #expect(LostAnswerTests.named(standIn, "Lost Answer Group").count == 1)
    }

    @Test("two creations by this login match: both named, none picked", arguments: generations)
    func twoCandidates(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        let other = standIn.recordEarlierCreation(name: "Lost Answer Group", weekday: 5, start: "20:00:00", minutesAgo: 0)
        standIn.loseNextWrite(.status(502))
        let open = await openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation)) }
        let held = LostAnswerTests.named(standIn, "Lost Answer Group")
        #expect(held.count == 2 && held.contains(other) && open?.finding == .severalCandidates(ids: held))
    }

    @Test("another administrator created the same meeting just before: never claimed, ours is reported", arguments: generations)
    func otherAdminsMeeting(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        let theirs = standIn.otherAdminCreates(name: "Lost Answer Group", weekday: 5, start: "20:00:00")
        standIn.loseNextWrite(.reset)
        let saved = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation))
        #expect(saved.meeting.id != theirs && Set(LostAnswerTests.named(standIn, "Lost Answer Group")) == [theirs, saved.meeting.id])
    }

    @Test("the server's clock runs minutes off: this login's identical creation of two minutes before is not claimed",
          arguments: generations, [-300.0, 300.0])
    func clockSkew(generation: Generation, offset: Double) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        standIn.clockOffset = offset
        let earlier = standIn.recordEarlierCreation(name: "Lost Answer Group", weekday: 5, start: "20:00:00", minutesAgo: 2)
        standIn.loseNextWrite(.reset)
        let saved = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation))
        #expect(saved.meeting.id != earlier && Set(LostAnswerTests.named(standIn, "Lost Answer Group")) == [earlier, saved.meeting.id])
    }

    @Test("another administrator renamed the meeting between the write and the look-up: open, naming the field",
          arguments: generations)
    func editedInBetween(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        let draft = LostAnswerTests.renamedSeed("Ours")
        standIn.loseNextWrite(.reset)
        standIn.afterNextWrite(.otherAdminRenamesSeed("Theirs"))
        let open = await openOutcome { _ = try await connection.saveAndWait(draft) }
        #expect(open?.finding == .changedElsewhere(keys: ["meeting_name"]) && open?.itemID == LostAnswerStandIn.seedID)
        #expect(standIn.names[LostAnswerStandIn.seedID] == "Theirs" && standIn.writes == 1)
    }

    @Test("the login ended before the look-up: open (login expired), logged out, nothing sent again", arguments: generations)
    func sessionExpired(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        let draft = LostAnswerTests.renamedSeed("Ours")
        standIn.loseNextWrite(.status(503))
        standIn.afterNextWrite(.sessionExpires)
        let open = await openOutcome { _ = try await connection.saveAndWait(draft) }
        #expect(open?.finding == .loginExpired && !connection.admin.isLoggedIn)
        #expect(standIn.writes == 1 && standIn.writeRequests == 2)
    }

    @Test("the write was answered but nothing can be read back: known done, not a failure", arguments: generations)
    func readBackNeverWorks(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        let draft = LostAnswerTests.renamedSeed("Ours")
        standIn.loseNextWrite(.readBack(reads: 100))
        let open = await openOutcome { _ = try await connection.saveAndWait(draft) }
        #expect(open?.isKnownDone == true && open?.itemID == LostAnswerStandIn.seedID)
        #expect(standIn.names[LostAnswerStandIn.seedID] == "Ours" && standIn.writes == 1)
    }

    @Test("2.x: a created meeting that can never be read back: known done, with its id (not 'failed', not created again)")
    func createdButUnreadable() async throws {
        let (standIn, connection) = try await base.connect(.legacy)
        defer { standIn.stop() }
        standIn.loseNextWrite(.readBack(reads: 100))
        let open = await openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", .legacy)) }
        let held = LostAnswerTests.named(standIn, "Lost Answer Group")
        #expect(held.count == 1 && open?.isKnownDone == true && open?.itemID == held.first && standIn.writes == 1)
    }

    @Test("the look-up's requests and log lines carry no password and no token", arguments: generations)
    func secretsStayOut(generation: Generation) async throws {
        let standIn = try LostAnswerStandIn(generation)
        defer { standIn.stop() }
        let lines = LogLines()
        let configuration = BMLTConfiguration(timeout: hangGuardTimeout, logLevel: .debug, logHandler: { _, line in lines.append(line) })
        let connection = BMLTConnection(rootServerURL: standIn.rootURL, configuration: configuration)
        try await connection.login(username: "admin", password: RESTAdminReplay.password)
        standIn.loseNextWrite(.status(502))
        _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation))
        let token = RESTAdminReplay.token(generation.rawValue)
        #expect(lines.all.contains { $0.contains("looking up what the server now holds") })
        #expect(!lines.all.contains { $0.contains(RESTAdminReplay.password) || $0.contains(token) || $0.contains("s3ss10n") })
        #expect(!standIn.server.requests.contains { $0.target.contains(RESTAdminReplay.password) || $0.target.contains(token) })
    }
}

/// Log lines collected from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
