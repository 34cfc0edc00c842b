import CaptureReplay
import Foundation
import Testing
@testable import ObserverCLI

/// `bmlt-observer check`, read-only, against `CheckStandIn` of every generation (issue 58): one JSON record a line, each
/// check's verdict, the server's ways as each generation has them.
@Suite("bmlt-observer check, read-only, against every generation", .needsCaptures, .serialized)
@MainActor
struct CheckReadTests {
    @Test("read-only check of each generation: one JSON record a line, the ways named as the captures show them",
          arguments: CheckStandIn.Generation.allCases)
    func readOnly(generation: CheckStandIn.Generation) async throws {
        let standIn = try CheckStandIn(generation)
        defer { standIn.stop() }
        let check = await runCheck(standIn.rootURL)
        print(check.summary)
        #expect(check.allLinesAreJSON)
    }
}

@Suite("scratch admin", .needsCaptures, .serialized)
@MainActor
struct CheckScratchTests {
    @Test(arguments: [CheckStandIn.Generation.v216, .v312, .v410, .v427])
    func admin(generation: CheckStandIn.Generation) async throws {
        let standIn = try CheckStandIn(generation)
        defer { standIn.stop() }
        let before = standIn.meetingIDs(inServiceBody: 1002)
        let check = await runCheck(standIn.rootURL, ["--user", "nasc_admin", "--service-body", "1002", "--write-spacing", "0"], password: CheckStandIn.password)
        print(check.summary)
        print(check.run.lines.last ?? "")
        #expect(standIn.meetingIDs(inServiceBody: 1002) == before)
    }
}
