import BMLTKit
import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `bmlt-observer admin …` says the true outcome of a write whose answer is lost (issue 41), against the stateful
/// stand-in of 3.1.2's `/api/v1` that lets the write through and then loses its answer.
@Suite("bmlt-observer admin when the answer is lost", .needsCaptures, .serialized)
@MainActor
struct LostAnswerCommandTests {
    /// `--timeout` is the whole call's budget (validation, login, the write, its look-up) and only a hang guard here: no
    /// lost answer of these tests waits for it. 5 s was too short for validation alone under the thread sanitizer on two
    /// busy cores (issue 50: "serverValidated INVALID: timeout" after 8.7 s, the write never attempted).
    private func admin(_ standIn: LostAnswerStandIn, _ arguments: [String]) async -> ObserverRun {
        await observe(["--server", standIn.rootURL.absoluteString, "--timeout", "900", "admin"] + arguments + ["--user", "admin"],
                      environment: ["BMLT_PASSWORD": RESTAdminReplay.password])
    }

    private let create = ["create", "--service-body", "1002", "--name", "CLI Lost Answer", "--weekday", "thu", "--start", "20:00",
                          "--at", "40.7,-73.6", "--street", "2 Church St", "--town", "Hempstead", "--state", "NY"]

    @Test("admin create whose answer is lost (502 after the write): 'Created meeting #N', exit 0, one meeting held")
    func created() async throws {
        let standIn = try LostAnswerStandIn(.rest3)
        defer { standIn.stop() }
        standIn.loseNextWrite(.status(502))
        let run = await admin(standIn, create)
        let held = standIn.names.filter { $0.value == "CLI Lost Answer" }.map(\.key)
        #expect(run.status == 0 && held.count == 1, "\(run.errors)")
        #expect(run.lines.contains("Created meeting #\(held.first ?? 0)"), "\(run.lines)")
    }

    @Test("admin delete whose answer is lost, then again: 'Deleted', then 'already deleted (by …)', both exit 0")
    func deletedTwice() async throws {
        let standIn = try LostAnswerStandIn(.rest3)
        defer { standIn.stop() }
        standIn.loseNextWrite(.reset)
        let first = await admin(standIn, ["delete", String(LostAnswerStandIn.seedID), "--yes"])
        #expect(first.status == 0 && first.lines.contains("Deleted meeting #\(LostAnswerStandIn.seedID) (admin restore \(LostAnswerStandIn.seedID) brings it back)"),
                "\(first.lines) \(first.errors)")
        let second = await admin(standIn, ["delete", String(LostAnswerStandIn.seedID), "--yes"])
        #expect(second.status == 0 && second.lines.contains { $0.hasPrefix("Meeting \(LostAnswerStandIn.seedID) was already deleted (by Server Administrator") },
                "\(second.lines) \(second.errors)")
        #expect(!standIn.holds(LostAnswerStandIn.seedID) && standIn.writes == 1)
    }

    @Test("admin create whose outcome cannot be found out (change list off, a meeting like it held): the open outcome, what to look at, never 'Try again'")
    func open() async throws {
        let standIn = try LostAnswerStandIn(.rest3)
        defer { standIn.stop() }
        standIn.changeLogOn = false
        standIn.loseNextWrite(.reset)
        let run = await admin(standIn, create)
        let text = run.errors
        #expect(run.status != 0 && text.contains("The answer to creating a meeting was lost") && text.contains("(To look: bmlt-observer changes.)"), "\(text)")
        #expect(!text.localizedCaseInsensitiveContains("try again"))
        #expect(standIn.names.filter { $0.value == "CLI Lost Answer" }.count == 1)
    }

    @Test("admin create with no deadline (--timeout 2e10, past UInt64 nanoseconds) whose answer is lost: the look-up has no timer and does not trap (D1), one meeting",
          .enabled(if: ChildProcess.isSupported, "child processes need Process (macOS and Linux only)"))
    func noDeadline() async throws {
        // A child process: the trap this guards against ("Double value cannot be converted to UInt64") would end the
        // process that runs it, so it must not be this test runner.
        let binary = try #require(BuildProducts.executable("bmlt-observer"),
                                  "bmlt-observer is built by swift build --build-tests; looked in \(BuildProducts.searchFolders.map(\.path))")
        let standIn = try LostAnswerStandIn(.rest3)
        defer { standIn.stop() }
        standIn.loseNextWrite(.reset)
        let arguments = ["BMLT_PASSWORD=" + RESTAdminReplay.password, binary.path, "--server", standIn.rootURL.absoluteString,
                         "--timeout", "2e10", "admin"] + create + ["--user", "admin"]
        let run = try #require(await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, seconds: 120))
        let held = standIn.names.filter { $0.value == "CLI Lost Answer" }.map(\.key)
        #expect(run.status == 0 && held.count == 1, "\(run.text)")
        #expect(run.text.contains("Created meeting #\(held.first ?? 0)"), "\(run.text)")
    }
}
