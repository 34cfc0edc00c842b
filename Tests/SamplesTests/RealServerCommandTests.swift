import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `bmlt-observer --server URL` against a real 2.16.6 root server, replayed over HTTP on 127.0.0.1 from the
/// captures: the read commands against a server that answers only the exact requests recorded in `index.md`
/// (anything else is a 404, so exit 0 means the CLI asked what a real client asked), and the admin commands
/// against the legacy `json.php` replay with its cookie session.
@Suite("bmlt-observer --server against a replayed 2.16.6 root server", .needsCaptures, .serialized)
@MainActor
struct RealServerCommandTests {
    private func run(_ http: LoopbackHTTPServer, _ arguments: [String], password: String? = nil) async -> Int32 {
        let server = http.baseURL.appendingPathComponent("main_server").absoluteString
        return await ObserverCLI.run(["--no-spinner", "--server", server] + arguments,
                                     environment: hangGuardEnvironment.merging(password.map { ["BMLT_PASSWORD": $0] } ?? [:]) { $1 })
    }

    @Test("formats, service-bodies, search, changes: exit 0, each request one the real server was asked", arguments: [
        ["formats"], ["service-bodies"],
        ["search", "--service-body", "1002", "--weekday", "mon"],
        ["search", "--meetings-only", "--service-body", "1002", "--weekday", "mon,wed"],
        ["search", "--meetings-only", "--service-body", "1002", "--text", "Recovery"],
        ["search", "--meetings-only", "--service-body", "1002", "--page", "2", "--page-size", "5"],
        ["changes", "--meeting", "2339"],
    ])
    func reads(arguments: [String]) async throws {
        let http = try CaptureReplayServer.start(folder: "rootserver")
        defer { http.stop() }
        #expect(await run(http, arguments) == 0)
        let switchers = http.requests.compactMap { request in
            URLComponents(string: request.target)?.queryItems?.first { $0.name == "switcher" }?.value
        }
        if arguments[0] == "search" {
            // The validation's first round (GetServerInfo and the two lists at once) and the search, once each; the
            // search goes out beside the validation when it needs nothing the validation learns (SearchCommand).
            #expect(Set(switchers) == ["GetServerInfo", "GetServiceBodies", "GetFormats", "GetSearchResults"], "\(switchers)")
            #expect(switchers.count == 4, "\(switchers)")
        }
        if arguments[0] == "changes" { #expect(switchers.last == "GetChanges") }
    }

    @Test("3.1.2, 4.1.0 and 4.2.7: formats, service-bodies and a search exit 0 asking only what a real client asked",
          arguments: ["rootserver-3x", "rootserver-4x", "rootserver-42"], [["formats"], ["service-bodies"],
                                                          ["--json", "search", "--service-body", "1002", "--weekday", "mon"]])
    func readsOfLaterGenerations(folder: String, arguments: [String]) async throws {
        let http = try CaptureReplayServer.start(folder: folder)
        defer { http.stop() }
        let server = http.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["--server", server] + arguments)
        #expect(run.status == 0, "\(run.errors)")
        #expect(http.requests.allSatisfy { !$0.target.contains("json.php") }, "reads never touch the admin interface")
        if arguments.contains("search") {
            let meetings = try #require(run.result?["meetings"] as? [[String: Any]])
            #expect(!meetings.isEmpty && meetings.allSatisfy { $0["serviceBodyID"] as? Int == 1002 && $0["weekday"] as? String == "Monday" })
        }
    }

    @Test("--json search and formats against the real 2.16.6 replies: meeting and format records jq can use")
    func jsonRecords() async throws {
        let http = try CaptureReplayServer.start(folder: "rootserver")
        defer { http.stop() }
        let server = http.baseURL.appendingPathComponent("main_server").absoluteString
        let search = await observe(["--server", server, "--json", "search", "--service-body", "1002", "--weekday", "mon"])
        #expect(search.status == 0 && search.objects.allSatisfy { $0 != nil })
        let meetings = try #require(search.result?["meetings"] as? [[String: Any]])
        #expect(!meetings.isEmpty && meetings.allSatisfy { $0["serviceBodyID"] as? Int == 1002 && $0["weekday"] as? String == "Monday" })
        #expect(meetings.allSatisfy { $0["distance"] == nil }, "no distance without --near")
        let formats = await observe(["--server", server, "--json", "formats"])
        let records = try #require(formats.result?["formats"] as? [[String: Any]])
        #expect(records.count > 10 && records.allSatisfy { $0["key"] is String && $0["id"] is Int })
        #expect(!search.errors.contains("DEMO"), "no demo banner with --server")
    }

    @Test("info (validation and today's first meetings) over the legacy replay: exit 0")
    func info() async throws {
        let http = try LegacyAdminReplay.start()
        defer { http.stop() }
        #expect(await run(http, ["info"]) == 0)
        #expect(http.requests.contains { $0.target.contains("GetLangs.php") }, "a 2.x server's languages come from GetLangs.php")
    }

    @Test("a search the real server was never asked answers 404 here: exit 1 (the replay is strict)")
    func strictReplay() async throws {
        let http = try CaptureReplayServer.start(folder: "rootserver")
        defer { http.stop() }
        #expect(await run(http, ["search", "--service-body", "1002", "--weekday", "fri", "--venue", "virtual"]) == 1)
    }

    @Test("admin login and admin edit over the legacy json.php: the session cookie, the field sent, the password only in the login body")
    func admin() async throws {
        let http = try LegacyAdminReplay.start()
        defer { http.stop() }
        #expect(await run(http, ["admin", "login", "--user", "nasc_admin"], password: LegacyAdminReplay.password) == 0)
        #expect(await run(http, ["admin", "edit", "2339", "--user", "nasc_admin", "--name", "Recovery At Work (Updated)"],
                          password: LegacyAdminReplay.password) == 0)
        #expect(await run(http, ["admin", "login", "--user", "nasc_admin"], password: "wrong") == 1)

        let admin = http.requests.filter { $0.target.contains("json.php") }
        let bodies = admin.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies.filter { $0.hasPrefix("admin_action=login&") }.count == 3)
        let modify = try #require(bodies.first { $0.hasPrefix("admin_action=modify_meeting&meeting_id=2339&") })
        #expect(modify.contains("meeting_field%5B%5D=meeting_name%2CRecovery%20At%20Work%20%28Updated%29"))
        #expect(admin.filter { $0.headers["cookie"]?.contains("PHPSESSID=s3ss10n") == true }.count >= 6,
                "permissions, user, modify, re-read, and the logouts went with the session")
        #expect(http.requests.allSatisfy { !$0.target.contains(LegacyAdminReplay.password) })
        #expect(bodies.filter { $0.contains(LegacyAdminReplay.password) }.count == 2, "only the two good logins' bodies")
    }
}
