import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// The review of issue 41 (D1, D2, D3, D5, D10): a server that trims what it receives, a server still running the write
/// after a gateway's 504 or the client's timeout, a write NOT done whose answer times out, a server gone silent during
/// the look-up, and a CDN's 52x. Nothing is ever sent twice; what is not known is reported open, never "Try again".
@Suite("When the answer to a write is lost: trimmed, still running, silent", .needsCaptures, .serialized)
@MainActor
struct LostAnswerStillRunningTests {
    typealias Generation = LostAnswerStandIn.Generation
    typealias Loss = LostAnswerStandIn.Loss
    nonisolated static let generations = Generation.allCases
    nonisolated static let restGenerations: [Generation] = [.rest3, .rest4, .rest42]
    /// A CDN's and a gateway's answers after the origin received the write (D5).
    nonisolated static let cdnLosses: [Loss] = [.status(408), .status(520), .status(522), .status(524)]
    var base: LostAnswerTests { LostAnswerTests() }
    var badInput: LostAnswerBadInputTests { LostAnswerBadInputTests() }

    // MARK: - D1: 3.x/4.x trim strings

    @Test("a padded name, trimmed by the server: the creation is found (done), never sent again", arguments: restGenerations)
    func paddedName(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        standIn.loseNextWrite(.reset)
        let result = try await connection.saveAndWait(LostAnswerTests.newDraft("  Friday   Night ", generation))
        #expect(result.wasCreated && result.meeting.name == "Friday   Night")
        #expect(LostAnswerTests.named(standIn, "Friday   Night") == [result.meeting.id] && standIn.writes == 1)
    }

    @Test("a padded user name, trimmed by the server: the user is reported created, one account", arguments: restGenerations)
    func paddedUsername(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        standIn.loseNextWrite(.status(502))
        let user = try await connection.createUserAndWait(BMLTAdminUser(username: "lost_answer_admin ", displayName: "Lost Answer"),
                                                          password: "a-long-password-1")
        #expect(user.username == "lost_answer_admin" && standIn.accounts(named: "lost_answer_admin") == 1 && standIn.writes == 1)
    }

    @Test("a creation by this login in the window that does not match: open (named), never 'not done', never sent again",
          arguments: generations)
    func unmatchedOwnCreation(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)       // one retry: a 503 proven not done would be re-sent
        defer { standIn.stop() }
        let other = standIn.recordEarlierCreation(name: "Saturday Step Study", weekday: 7, start: "10:00:00", minutesAgo: 0)
        standIn.loseNextWrite(.refusedBefore(503))
        let open = await badInput.openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation)) }
        #expect(open?.finding == .unmatchedRecord(ids: [other]) && open?.isKnownDone == false)
        #expect(LostAnswerTests.named(standIn, "Lost Answer Group").isEmpty && standIn.writeRequests == 2)
    }

    // MARK: - D2: the server may still be running it

    @Test("a 504 while the server still runs the write: open (not found yet), not sent again; the server then holds one",
          arguments: generations)
    func stillRunningAfter504(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation)
        defer { standIn.stop() }
        standIn.loseNextWrite(.notYet(status: 504))
        let open = await badInput.openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation)) }
        #expect(open?.finding == .notFoundYet && open?.loss == .timeout)     // a 504 arrives as a timeout
        #expect(BMLTError.writeOutcomeUnknown(open!).description.contains("may still be doing it"))
        #expect(standIn.writes == 0 && standIn.writeRequests == 2)
        standIn.finishLateWrite()          // the slow PHP finishes: had the write been sent again, there would be two
        #expect(LostAnswerTests.named(standIn, "Lost Answer Group").count == 1)
    }

    @Test("a write NOT done whose answer times out: open (not found yet), never a 'Try again' and never sent again",
          arguments: [Generation.legacy, .rest4])
    func notDoneStall(generation: Generation) async throws {
        try await untilTheWriteIsSent {         // the 5 s deadline is the subject once the write is out, not before
            let (standIn, connection) = try await base.connect(generation, for: .stall)
            defer { standIn.stop() }
            standIn.loseNextWrite(.notYet(status: nil))
            let open = try await badInput.openOutcome(sentIf: { standIn.writeRequests == 2 }) {
                _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation))
            }
            #expect(open?.finding == .notFoundYet && open?.loss == .timeout)
            #expect(standIn.writes == 0 && standIn.writeRequests == 2 && connection.admin.lastError == open.map(BMLTError.writeOutcomeUnknown))
        }
    }

    // MARK: - D3, D10: a look-up cut short, and its own budget

    @Test("a server silent after the write: the look-up ends within its own budget, open (look-up failed), not .timeout",
          arguments: [Generation.legacy, .rest4])
    func silentLookUp(generation: Generation) async throws {
        try await untilTheWriteIsSent {         // the 3 s deadline is the subject once the write is out, not before
            let standIn = try LostAnswerStandIn(generation)
            defer { standIn.stop() }
            // Three retries for reads: the look-up still gets one at most, and the configured timeout in all.
            let configuration = BMLTConfiguration(timeout: 3, retryPolicy: BMLTRetryPolicy(maximumRetries: 3, baseDelay: 0.01))
            let connection = BMLTConnection(rootServerURL: standIn.rootURL, configuration: configuration)
            try await settingTheStage { _ = try await connection.validate() }
            try await settingTheStage { try await connection.login(username: "admin", password: RESTAdminReplay.password) }
            standIn.readsStallAfterWrite = true
            standIn.loseNextWrite(.status(502))
            let started = Date()
            let open = try await badInput.openOutcome(sentIf: { standIn.writeRequests == 2 }) {
                _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", generation))
            }
            let seconds = Date().timeIntervalSince(started)
            #expect(open?.finding == .lookUpFailed(.timeout) && open?.isKnownDone == false)
            #expect(LostAnswerTests.named(standIn, "Lost Answer Group").count == 1 && standIn.writeRequests == 2)
            // Not the minutes of 3 attempts × 3 s per read plus back-off per read: a lower bound only is asserted on time.
            #expect(seconds >= 3)
            #expect(standIn.server.requests.filter { $0.method == "GET" && $0.target.contains("GetChanges") }.count <= 2)
        }
    }

    // MARK: - D5: 408 and a CDN's 52x

    @Test("408 and a CDN's 520/522/524 after the write: looked up, reported created, one meeting", arguments: cdnLosses)
    func cdnStatus(loss: Loss) async throws {
        let (standIn, connection) = try await base.connect(.rest4)
        defer { standIn.stop() }
        standIn.loseNextWrite(loss)
        let result = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", .rest4))
        #expect(result.wasCreated && LostAnswerTests.named(standIn, "Lost Answer Group") == [result.meeting.id] && standIn.writes == 1)
    }

    @Test("a CDN's 524 with the write not done yet: open (not found yet), not 'Try again later'")
    func cdnStillRunning() async throws {
        let (standIn, connection) = try await base.connect(.rest42)
        defer { standIn.stop() }
        standIn.loseNextWrite(.notYet(status: 524))
        let open = await badInput.openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.newDraft("Lost Answer Group", .rest42)) }
        #expect(open?.finding == .notFoundYet && standIn.writeRequests == 2)
    }

    // MARK: - D4: a token refresh is not the write

    @Test("a token refreshed (200) before a write refused with 502 and a failed look-up: open (look-up failed), never 'done'",
          arguments: restGenerations)
    func refreshIsNotTheWrite(generation: Generation) async throws {
        let (standIn, connection) = try await base.connect(generation, retries: 0)
        defer { standIn.stop() }
        standIn.tokenLifetime = 200          // within BMLTKit's refresh margin: refreshed before each request
        try await connection.login(username: "admin", password: RESTAdminReplay.password)
        standIn.loseNextWrite(.refusedBefore(502))
        standIn.failReadsAfterNextWrite(100)   // the edit-conflict check's read before the write is answered
        let open = await badInput.openOutcome { _ = try await connection.saveAndWait(LostAnswerTests.renamedSeed("Ours")) }
        #expect(open?.isKnownDone == false && open?.finding == .lookUpFailed(.httpStatus(code: 503, message: nil)))
        #expect(standIn.server.requests.contains { $0.target.hasSuffix("auth/refresh") })
        #expect(standIn.names[LostAnswerStandIn.seedID] == "Tuesday Night Hope" && standIn.writes == 0)
    }
}
