import BMLTDemoServer
import BMLTKit
import Foundation
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// `bmlt-observer check` against the embedded demo server (offline, 3.1.2-shaped): read-only, then with its demo
    /// account in service body 1002; the demo's meetings are the same before and after.
    @Suite("bmlt-observer check on the demo server", .serialized)
    @MainActor
    struct CheckDemoTests {
        @Test("read-only: every check holds, exit 0, one JSON record a line, the result counts them")
        func readOnly() async throws {
            BMLTDemoServer.reset()
            defer { BMLTDemoServer.reset() }
            let check = await runCheck(nil)
            #expect(check.allLinesAreJSON && check.failed.isEmpty && check.run.status == 0, "\(check.summary)")
            #expect(check.records.count == CheckCommand.readCheckNames.count && check.run.result?["count"] as? Int == check.records.count)
            #expect(check.run.errors.contains("Using the embedded DEMO root server"))
            let human = await observe(["check"])
            #expect(human.lines.first?.hasPrefix("Checking https://demo.bmlt.invalid/main_server with bmlt-observer") == true, "\(human.lines)")
            #expect(human.lines.contains { $0.hasPrefix("✔ whole-region search: ") })
            #expect(!human.lines.contains { $0.contains("serverValidated") }, "no notification lines without --verbose")
        }

        @Test("with the demo account in service body 1002: the writes, the clean-up, the sandbox as before; BMLTKit's hidden-field edit as BMLTKit does it")
        func writes() async throws {
            BMLTDemoServer.reset()
            defer { BMLTDemoServer.reset() }
            let reader = LibraryOracle.connection(nil)
            var criteria = BMLTSearchCriteria()
            criteria.serviceBodyIDs = [1002]
            criteria.publishedStatus = .both
            let before = Set(try await reader.meetings(matching: criteria, extent: .meetingsOnly).meetings.map(\.id))
            let check = await runCheck(nil, ["--service-body", "1002", "--write-spacing", "0"])
            for id in CheckWriteTests.serverChecks + ["create-published", "public-view", "edit-venue", "refresh-after-writes"] {
                #expect(check.status(id) == "passed", "\(id): \(check.summary)")
            }
            let after = Set(try await reader.meetings(matching: criteria, extent: .meetingsOnly).meetings.map(\.id))
            #expect(after == before)
            let hiddenSaves = try await LibraryOracle.hiddenEditFromSearchSaves(nil, user: BMLTDemoServer.adminUsername,
                                                                                password: BMLTDemoServer.adminPassword, serviceBody: 1002)
            #expect(check.status("edit-hidden") == (hiddenSaves ? "passed" : "failed"), "\(check.summary)")
            #expect(check.run.status == (check.failed.isEmpty ? 0 : 1))
        }
    }
}
