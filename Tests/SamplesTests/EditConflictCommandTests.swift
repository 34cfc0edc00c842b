import BMLTKit
import CaptureReplay
import Foundation
import Testing
@testable import ObserverCLI

/// `bmlt-observer admin edit` when another administrator saved the same meeting between the command's read and its save
/// (issue 47), against `TwoAdminsStandIn` built from the captures of 3.1.2's `/api/v1` (`rootserver-3x/114-meeting-2.json`,
/// `116-meeting-2-patch.empty`) and 2.16.6's `json.php` (`rootserver/admin_json_modify_meeting.json`).
@Suite("bmlt-observer admin edit with two admins", .needsCaptures, .serialized)
@MainActor
struct EditConflictCommandTests {
    private func admin(_ standIn: TwoAdminsStandIn, _ arguments: [String]) async -> ObserverRun {
        await observe(["--server", standIn.rootURL.absoluteString, "--timeout", "900", "admin"] + arguments + ["--user", "admin"],
                      environment: ["BMLT_PASSWORD": RESTAdminReplay.password])
    }

    @Test("admin edit meeting a conflict: the three values (original, mine, theirs), nothing saved, never 'try again'",
          arguments: [TwoAdminsStandIn.Generation.rest3, .legacy])
    func conflict(generation: TwoAdminsStandIn.Generation) async throws {
        let standIn = try TwoAdminsStandIn(generation)
        defer { standIn.stop() }
        let original = try #require(standIn.value("meeting_name"))
        standIn.afterNextRead { $0.otherAdminSets("meeting_name", "Theirs") }
        let run = await admin(standIn, ["edit", String(standIn.meetingID), "--name", "Mine"])
        #expect(run.status != 0)
        #expect(run.errors.contains("meeting_name: original “\(original)”, mine “Mine”, theirs “Theirs”"), "\(run.errors)")
        #expect(run.errors.contains("by \(TwoAdminsStandIn.otherAdmin)"), "\(run.errors)")
        #expect(!run.errors.localizedCaseInsensitiveContains("try again"))
        #expect(standIn.value("meeting_name") == "Theirs" && standIn.writeRequests == 0)
    }

    @Test("admin edit of a meeting another admin deleted after the read: 'was deleted on the server (by …)', nothing made again")
    func deleted() async throws {
        let standIn = try TwoAdminsStandIn(.rest3)
        defer { standIn.stop() }
        standIn.afterNextRead { $0.otherAdminDeletes() }
        let run = await admin(standIn, ["edit", String(standIn.meetingID), "--name", "Mine"])
        #expect(run.status != 0)
        #expect(run.errors.contains("Meeting \(standIn.meetingID) was deleted on the server (by \(TwoAdminsStandIn.otherAdmin)"), "\(run.errors)")
        #expect(!run.errors.localizedCaseInsensitiveContains("try again") && !run.errors.contains("failed"))
        #expect(!standIn.holdsMeeting && standIn.writeRequests == 0)
    }
}
