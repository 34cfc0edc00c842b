import CaptureReplay
import Foundation
import Testing
@testable import ObserverCLI

/// `bmlt-observer --json check`, read-only, against `CheckStandIn` of every generation (issue 58): one JSON record a line,
/// each check's verdict, the server's ways as each generation has them (2.16.6: `server-truths/216-*`), exit 0 only when
/// every check holds. The checks on BMLTKit itself are held to what BMLTKit does when the test asks it directly
/// (`LibraryOracle`): ✘ exactly when it does the wrong thing (2.16.6's by-id search and its 414 wait for issue 56's fix).
@Suite("bmlt-observer check, read-only, against every generation", .needsCaptures, .serialized)
@MainActor
struct CheckReadTests {
    /// The read checks that depend on nothing but the server (and hold on every stand-in).
    static let serverChecks = ["validation", "server-info", "way.generation", "formats", "service-bodies", "field-keys", "whole-region",
                               "way.by-id-search", "nearest", "coverage", "way.hidden-fields", "way.sort-key", "way.change-clock",
                               "way.compression", "way.longest-query", "refresh"]

    @Test("one JSON record a line for every check; the ways as each generation has them; BMLTKit's checks agree with BMLTKit; exit 0 only when all hold",
          arguments: CheckStandIn.Generation.allCases)
    func readOnly(generation: CheckStandIn.Generation) async throws {
        let standIn = try CheckStandIn(generation)
        defer { standIn.stop() }
        let check = await runCheck(standIn.rootURL)
        #expect(check.allLinesAreJSON, "\(check.run.lines)")
        #expect(check.records.map { $0["check"] as? String ?? "" } == CheckCommand.readCheckNames.map(\.0), "\(check.summary)")
        for id in Self.serverChecks where !(generation == .aggregator && id == "way.change-clock") {
            #expect(check.status(id) == "passed", "\(id): \(check.summary)")
        }
        #expect(check.records.allSatisfy { $0["seconds"] is Double && $0["bytes"] is Int && $0["requests"] is Int })
        let regionBytes = check.record("whole-region")?["bytes"] as? Int ?? 0
        #expect(regionBytes > 1000, "each check counts its bytes")
        #expect(!check.run.lines.contains { $0.contains(":null") }, "fields without a value are left out")

        // Each ✘ says what to do, and standard error names it; the exit status is 0 only when none failed.
        for failed in check.failed {
            let advice = check.record(failed)?["advice"] as? String ?? ""
            let title = check.record(failed)?["title"] as? String ?? "?"
            #expect(!advice.isEmpty, "\(failed) says what to do")
            #expect(check.run.errors.contains(title), "stderr names \(failed)")
        }
        #expect(check.run.status == (check.failed.isEmpty ? 0 : 1), "\(check.summary)")
        let result = try #require(check.run.result)
        #expect(result["count"] as? Int == check.records.count && result["failed"] as? Int == check.failed.count)

        // The server's ways, as the captures show them.
        let way = try #require(check.record("way.by-id-search"))
        let longest = try #require(check.record("way.longest-query"))
        switch generation {
        case .v216:
            #expect(way["ignoresOtherCriteria"] as? Bool == true && way["returnsUnpublished"] as? Bool == true, "\(way)")
            let taken = try #require(longest["longestTaken"] as? Int), refused = try #require(longest["shortestRefused"] as? Int)
            // Apache's limit is the request line ("GET " + target + " HTTP/1.1" ≤ 8,190): the target at most 8,177 bytes.
            #expect(taken <= 8177 && refused > 8177 && refused - taken <= 512, "\(longest)")
            #expect(check.detail("way.longest-query").contains("HTTP 414"))
            #expect(check.detail("way.sort-key").hasPrefix("by weekday and start time (2.x"), "\(check.detail("way.sort-key"))")
            #expect(check.detail("whole-region").hasPrefix("1,512 meetings decoded"))
        case .aggregator:
            #expect(check.detail("whole-region").contains("root server #1's statistics"), "\(check.summary)")
            #expect(check.status("changes") == "skipped" && check.status("naws") == "skipped")
            #expect(check.detail("refresh").contains("downloaded whole"))
        default:
            #expect(way["ignoresOtherCriteria"] as? Bool == false && way["returnsUnpublished"] as? Bool == false, "\(way)")
            #expect(longest["shortestRefused"] == nil)
            #expect(check.detail("way.sort-key").hasPrefix("by weekday, start time and duration"))
        }
        #expect((longest["requests"] as? Int ?? 99) <= 11, "the longest query is found without hammering the server")

        // BMLTKit's own verdicts, held to BMLTKit asked directly.
        let byID = try #require(check.record("search-by-ids"))
        let asked = try #require(byID["asked"] as? [Int]), weekday = try #require(byID["weekday"] as? Int)
        let returned = try await LibraryOracle.byIDs(standIn.rootURL, ids: asked, weekday: weekday)
        #expect(check.status("search-by-ids") == (returned == [asked[0]] ? "passed" : "failed"), "BMLTKit returns \(returned): \(check.summary)")
        let whole = await LibraryOracle.searchOf400IDs(standIn.rootURL, rootServerIDs: generation == .aggregator ? [1] : [])
        #expect(check.status("long-id-search") == (whole ? "passed" : "failed"), "\(check.summary)")
        if generation == .v216 && !whole { #expect(check.detail("long-id-search").contains("HTTP 414")) }
        if generation != .v216 { #expect(check.failed.isEmpty && check.run.status == 0, "\(check.summary)") }
    }

    @Test("a server that compresses its answers: the way named (gzip), and every check holds on the compressed answers")
    func compression() async throws {
        let standIn = try CheckStandIn(.v427)
        defer { standIn.stop() }
        standIn.compresses = true
        let check = await runCheck(standIn.rootURL)
        #expect(check.detail("way.compression").hasPrefix("answers compressed (gzip)"), "\(check.summary)")
        #expect(check.record("way.compression")?["encoding"] as? String == "gzip")
        #expect(check.failed.isEmpty && check.run.status == 0, "\(check.summary)")
    }

    @Test("a server whose search answers an HTML page: the whole-region search ✘ and is named; a non-zero exit")
    func htmlSearch() async throws {
        let standIn = try CheckStandIn(.v427)
        defer { standIn.stop() }
        standIn.searchAnswersHTML = true
        let check = await runCheck(standIn.rootURL)
        #expect(check.status("validation") == "passed" && check.status("whole-region") == "failed", "\(check.summary)")
        #expect(check.run.status == 1 && check.run.errors.contains("whole-region search"), "\(check.run.errors)")
        let advice = check.record("whole-region")?["advice"] as? String ?? ""
        #expect(advice.contains("error page"), "\(check.summary)")
    }
}
