import BMLTDemoServer
import BMLTKit
import Foundation
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// The admin commands against the demo server's REST administration. They work on a meeting they create
    /// (unpublished, so the demo's public searches other suites look at do not change).
    @Suite("bmlt-observer admin commands", .serialized)
    @MainActor
    struct AdminCommandTests {
        private func run(_ arguments: [String]) async -> Int32 {
            await ObserverCLI.run(["--no-spinner"] + arguments, environment: hangGuardEnvironment)
        }

        /// The id of the one meeting with this name, read back through the library as an administrator.
        private func meetingID(named name: String) async throws -> Int? {
            let connection = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
                                            configuration: BMLTConfiguration(timeout: 900, urlSessionConfiguration: BMLTDemoServer.sessionConfiguration()))
            try await connection.login(username: BMLTDemoServer.adminUsername, password: BMLTDemoServer.adminPassword)
            var criteria = BMLTSearchCriteria()
            criteria.publishedStatus = .both
            criteria.fieldMatch = .init(key: "meeting_name", value: name)
            let id = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings.first?.id
            try await connection.logoutAndWait()
            return id
        }

        @Test("admin create / edit of a draft the server would refuse: each problem with the option to use, exit 2, nothing saved")
        func problemsBeforeSending() async throws {
            let name = "CLI problem meeting \(UUID().uuidString.prefix(8))"
            let create = await observe(["admin", "create", "--service-body", "1005", "--name", name, "--weekday", "tue",
                                        "--start", "19:00", "--at", "41.0,-74.0", "--town", "Goshen", "--state", "NY"])
            #expect(create.status == 2)
            #expect(create.errors.contains("location_street: In-person meetings must have a street address. (use --street)"), "\(create.errors)")
            #expect(try await meetingID(named: name) == nil)

            let virtual = await observe(["admin", "create", "--service-body", "1005", "--name", name, "--weekday", "tue",
                                         "--start", "19:00", "--at", "41.0,-74.0", "--venue", "virtual"])
            #expect(virtual.status == 2)
            #expect(virtual.errors.contains("(use --link)") && virtual.errors.contains("(use --phone)"), "\(virtual.errors)")

            let contact = await observe(["admin", "create", "--service-body", "1005", "--name", name, "--weekday", "tue",
                                         "--start", "19:00", "--at", "41.0,-74.0", "--street", "1 Main St", "--town", "Goshen",
                                         "--state", "NY", "--email", "not-an-address", "--format", "VM"])
            #expect(contact.status == 2)
            #expect(contact.errors.contains("email_contact: The email must be a valid email address. (use --email)"), "\(contact.errors)")
            #expect(contact.errors.contains("formats: The VM format follows from the venue type") && contact.errors.contains("(use --format)"),
                    "\(contact.errors)")
            #expect(try await meetingID(named: name) == nil)
        }

        @Test("admin create --format takes keys and ids, --email and --world-id set their fields")
        func createWithFormatsAndContact() async throws {
            let name = "CLI formats meeting \(UUID().uuidString.prefix(8))"
            let created = await observe(["--json", "admin", "create", "--service-body", "1005", "--name", name, "--weekday", "wed",
                                         "--start", "20:00", "--at", "41.0,-74.0", "--street", "1 Main St", "--town", "Goshen",
                                         "--state", "NY", "--format", "O", "--format", "bt", "--email", "group@example.org",
                                         "--world-id", "G00012345"])
            #expect(created.status == 0, "\(created.errors)")
            let result = try #require(created.objects.compactMap { $0 }.first { $0["event"] as? String == "result" }, "\(created.lines)")
            let meeting = try #require(result["meeting"] as? [String: Any])
            #expect(Set(meeting["formatKeys"] as? [String] ?? []) == ["O", "BT"])
            #expect(meeting["worldID"] as? String == "G00012345")
            #expect(try await meetingID(named: name) == meeting["id"] as? Int)
            let unknown = await observe(["admin", "create", "--service-body", "1005", "--name", name, "--weekday", "wed",
                                         "--start", "20:00", "--format", "NOSUCHKEY"])
            #expect(unknown.status == 2 && unknown.errors.contains("'NOSUCHKEY' is neither a format key"), "\(unknown.errors)")
        }

        @Test("login, create, edit, delete, restore, rollback, logout on a meeting of its own")
        func lifecycle() async throws {
            #expect(await run(["admin", "login"]) == 0)
            let name = "CLI test meeting \(UUID().uuidString.prefix(8))"
            #expect(await run(["admin", "create", "--service-body", "1005", "--name", name, "--weekday", "tue", "--start", "19:00",
                               "--duration", "60", "--at", "41.0,-74.0", "--street", "1 Main St", "--town", "Goshen", "--state", "NY"]) == 0)
            let id = try #require(try await meetingID(named: name))
            let refused = await observe(["admin", "edit", String(id), "--venue", "virtual"])
            #expect(refused.status == 2 && refused.errors.contains("virtual_meeting_link: ") && refused.errors.contains("(use --link)"),
                    "\(refused.errors)")
            #expect(await run(["admin", "edit", String(id), "--comments", "edited by the CLI test"]) == 0)
            #expect(await run(["admin", "rollback", String(id)]) == 0)
            #expect(await run(["admin", "delete", String(id), "--yes"]) == 0)
            let restore = await observe(["admin", "restore", String(id)])
            #expect(restore.status == 0)
            // The demo server administers like 3.x/4.x: a restored meeting is created again, under a new id, which is said.
            let said = restore.lines.first { $0.contains("restored as #") }
            let newID = try #require(try await meetingID(named: name), "\(restore.lines)")
            #expect(newID == id ? restore.lines.contains("Restored meeting #\(id)")
                                : said?.hasPrefix("Restored meeting #\(id): restored as #\(newID) ") == true, "\(restore.lines)")
            #expect(await run(["admin", "logout"]) == 0)
        }

        @Test("usage errors exit 2; a wrong password exits 1", arguments: [
            ["admin", "edit"], ["admin", "edit", "x", "--name", "a"], ["admin", "create", "--name", "a"],
            ["admin", "create", "--service-body", "1005"], ["admin", "edit", "1", "--published", "maybe"],
        ])
        func usage(arguments: [String]) async {
            #expect(await run(arguments) == 2)
        }

        @Test("a wrong password from BMLT_PASSWORD is refused by the server: exit 1")
        func wrongPassword() async {
            #expect(await ObserverCLI.run(["--no-spinner", "admin", "login"], environment: hangGuardEnvironment.merging(["BMLT_PASSWORD": "not-the-password"]) { $1 }) == 1)
        }
    }
}
