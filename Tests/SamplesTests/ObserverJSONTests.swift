import BMLTDemoServer
import Foundation
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// `--json`: every line of standard output is one JSON object, and each command's result carries its records
    /// with the field names the observer's manual (Samples/ObserverCLI/README.md) documents.
    @Suite("bmlt-observer --json records", .serialized)
    @MainActor
    struct ObserverJSONTests {
        private func result(_ arguments: [String]) async throws -> [String: Any] {
            let run = await observe(["--json"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run.errors)")
            #expect(!run.lines.isEmpty && run.objects.allSatisfy { $0 != nil }, "every stdout line is one JSON object")
            let result = try #require(run.result, "a result record for \(arguments)")
            #expect(result["command"] as? String == arguments.first { !$0.hasPrefix("-") })
            return result
        }

        @Test("search --near: meetings with day, time, formats and the distance in the server's unit (miles on the demo)")
        func search() async throws {
            let result = try await self.result(["search", "--near", "44.9,-93.2", "--radius", "10mi"])
            let meetings = try #require(result["meetings"] as? [[String: Any]])
            #expect(meetings.count > 20, "--json prints every meeting unless --limit is given")
            #expect(result["count"] as? Int == meetings.count && result["shown"] as? Int == meetings.count)
            for meeting in meetings {
                #expect(meeting["id"] is Int && meeting["name"] is String && meeting["serviceBodyID"] is Int)
                #expect(meeting["distanceUnit"] as? String == "mi")
                let distance = try #require(meeting["distance"] as? Double)
                #expect(distance >= 0 && distance <= 10)
                #expect(["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"].contains(meeting["weekday"] as? String ?? ""))
                #expect((meeting["startTime"] as? String)?.count == 5)
                #expect(meeting["formatKeys"] is [String] && meeting["latitude"] is Double)
                #expect(meeting.values.allSatisfy { !($0 is NSNull) }, "absent, never null")
            }
        }

        @Test("the search notification line carries the meetings too, and --limit cuts the result (count and shown say so)")
        func notificationRecordsAndLimit() async throws {
            let run = await observe(["--json", "search", "--weekday", "mon", "--limit", "3"])
            let objects = run.objects.compactMap { $0 }
            let note = try #require(objects.first { $0["event"] as? String == "searchMeetings" })
            let all = try #require(note["meetings"] as? [[String: Any]])
            let result = try #require(run.result)
            #expect((result["meetings"] as? [[String: Any]])?.count == 3)
            #expect(result["shown"] as? Int == 3 && result["count"] as? Int == all.count && all.count > 3)
        }

        @Test("formats, service-bodies, field-keys: the records")
        func serverRecords() async throws {
            let formats = try #require(try await result(["formats"])["formats"] as? [[String: Any]])
            let open = try #require(formats.first { $0["key"] as? String == "O" })
            #expect(open["id"] is Int && open["name"] as? String == "Open" && open["language"] as? String == "en")
            let bodies = try #require(try await result(["service-bodies"])["serviceBodies"] as? [[String: Any]])
            #expect(bodies.contains { $0["id"] as? Int == 1002 && ($0["name"] as? String)?.isEmpty == false && $0["parentID"] is Int })
            let keys = try #require(try await result(["field-keys"])["fieldKeys"] as? [[String: String]])
            #expect(keys.contains { $0["key"] == "meeting_name" })
        }

        @Test("changes: each with the fields' values before and after, --limit honoured")
        func changes() async throws {
            let result = try await self.result(["changes", "--meeting", "310"])
            let changes = try #require(result["changes"] as? [[String: Any]])
            let edit = try #require(changes.first { $0["type"] as? String == "change" })
            #expect(edit["meetingID"] as? Int == 310 && edit["date"] is String && edit["userName"] is String)
            let fields = try #require(edit["fields"] as? [[String: Any]])
            #expect(fields.count == 1)
            #expect(fields.first?["key"] as? String == "start_time" && fields.first?["field"] as? String == "start")
            #expect(fields.first?["before"] as? String == "11:30:00" && fields.first?["after"] as? String == "12:00:00")
            #expect(fields.first?["text"] as? String == "start: 11:30 → 12:00")
            let limited = try await self.result(["changes", "--limit", "2"])
            #expect((limited["changes"] as? [Any])?.count == 2 && limited["shown"] as? Int == 2 && (limited["count"] as? Int ?? 0) > 2)
        }

        @Test("field-values with their meeting ids; NAWS rows; coverage; info's server")
        func otherReads() async throws {
            let values = try #require(try await result(["field-values", "location_municipality"])["values"] as? [[String: Any]])
            let riverbend = try #require(values.first { $0["value"] as? String == "Riverbend" })
            let ids = try #require(riverbend["meetingIDs"] as? [Int])
            #expect(!ids.isEmpty && riverbend["count"] as? Int == ids.count)
            let naws = try await result(["naws", "1002"])
            let rows = try #require(naws["rows"] as? [[String: String]])
            #expect(!rows.isEmpty && (naws["columns"] as? [String])?.contains("bmlt_id") == true && rows[0]["bmlt_id"] != nil)
            let coverage = try await result(["coverage"])
            #expect((coverage["northWest"] as? [String: Double])?["latitude"] != nil)
            let server = try #require(try await result(["info"])["server"] as? [String: Any])
            #expect(server["version"] as? String == "3.1.2" && server["distanceUnit"] as? String == "mi")
            #expect((server["formatCount"] as? Int ?? 0) > 0 && server["capabilities"] is [String])
        }

        @Test("admin login: the user and the permissions, and no password anywhere in the output")
        func adminLogin() async throws {
            let run = await observe(["--json", "admin", "login"])
            #expect(run.status == 0)
            let user = try #require(run.result?["user"] as? [String: Any])
            #expect(user["username"] as? String == BMLTDemoServer.adminUsername && user["role"] is String)
            let permissions = try #require(user["permissions"] as? [[String: Any]])
            #expect(permissions.contains { $0["serviceBodyID"] as? Int == 1002 && $0["canEditMeetings"] as? Bool == true })
            #expect(!run.lines.joined().contains(BMLTDemoServer.adminPassword) && !run.errors.contains(BMLTDemoServer.adminPassword))
            let loginLine = run.objects.compactMap { $0 }.first { $0["event"] as? String == "adminLoginChanged" && $0["loggedIn"] as? Bool == true }
            #expect(loginLine?["user"] is [String: Any], "the login notification carries the user too")
        }

        @Test("an error as JSON: the sentence in the CLI's words and a code; on stderr once")
        func errorRecord() async throws {
            let run = await observe(["--json", "--server", "http://example.org/main_server", "info"])
            #expect(run.status == 1)
            let error = try #require(run.objects.compactMap { $0 }.first { $0["event"] as? String == "error" })
            #expect(error["errorCode"] as? String == "insecureURLRefused")
            #expect((error["error"] as? String)?.contains("--insecure") == true)
            #expect(run.errors.components(separatedBy: "--insecure").count == 2, "said once on stderr: \(run.errors)")
        }
    }
}
