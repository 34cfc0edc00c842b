import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import BMLTDemoServer

extension DemoServerSuites {
    /// The demo server's REST administration (`/api/v1`); one at a time, like the other demo-server suites.
    @Suite("BMLT demo server: REST admin API", .serialized)
    struct DemoRESTTests {
        let client = DemoClient()

        init() { BMLTDemoServer.reset() }

        @Test("REST login, bad credentials, 401 without or with a bad token, refresh and logout")
        func restAuth() async throws {
            let bad = try await client.send("POST", "/api/v1/auth/token", body: ["username": "demo", "password": "wrong"])
            #expect(bad.status == 401)
            #expect(bad.text == #"{"message":"The provided credentials are incorrect."}"#)
            let login = try await client.send("POST", "/api/v1/auth/token",
                                              body: ["username": BMLTDemoServer.adminUsername, "password": BMLTDemoServer.adminPassword])
            #expect(login.status == 200)
            #expect(login.object["token_type"] as? String == "bearer")
            #expect(login.object["user_id"] as? Int == 1)
            let expires = try #require(login.object["expires_at"] as? Int)
            #expect(abs(Double(expires) - Date().addingTimeInterval(7 * 86_400).timeIntervalSince1970) < 60)
            let token = try #require(login.object["access_token"] as? String)

            let anonymous = try await client.send("GET", "/api/v1/meetings")
            #expect(anonymous.status == 401 && anonymous.text == #"{"message":"Unauthenticated."}"#)
            #expect(try await client.send("GET", "/api/v1/formats", token: "1|nonsense").status == 401)
            #expect(try await client.send("GET", "/api/v1/formats", token: token).status == 200)

            let refreshed = try await client.send("POST", "/api/v1/auth/refresh", token: token)
            let newToken = try #require(refreshed.object["access_token"] as? String)
            #expect(newToken != token)
            #expect(try await client.send("GET", "/api/v1/users", token: token).status == 200, "old token keeps a 10 s grace")
            let logout = try await client.send("POST", "/api/v1/auth/logout", token: newToken)
            #expect(logout.status == 200 && logout.data.isEmpty)
            #expect(try await client.send("GET", "/api/v1/users", token: newToken).status == 401)
        }

        @Test("REST reads: meetings with filters, one meeting, formats, service bodies, users, 404s")
        func restReads() async throws {
            let token = try await client.login()
            let all = try await client.search("advanced_published=0")
            let list = try #require(try await client.send("GET", "/api/v1/meetings", token: token).json as? [[String: Any]])
            #expect(list.count == all.count)
            let sample = try #require(all.first { $0["venue_type"] == "2" })
            let one = try await client.send("GET", "/api/v1/meetings/\(sample.id)", token: token).object
            #expect(one["day"] as? Int == sample.int("weekday_tinyint") - 1)
            #expect(one["startTime"] as? String == String(sample["start_time"]!.prefix(5)))
            #expect(one["venueType"] as? Int == 2)
            let formatIDs = Set((one["formatIds"] as? [Int]) ?? [])
            #expect(formatIDs == sample.formatIDs.subtracting([16, 17, 18]))
            #expect(one["customFields"] is [String: Any])
            let sunday = try #require(try await client.send("GET", "/api/v1/meetings?days=0&serviceBodyIds=1005", token: token).json as? [[String: Any]])
            #expect(sunday.count == all.filter { $0["weekday_tinyint"] == "1" && $0["service_body_bigint"] == "1005" }.count)
            #expect(sunday.allSatisfy { $0["day"] as? Int == 0 })
            let invalid = try await client.send("GET", "/api/v1/meetings?days=9", token: token)
            #expect(invalid.status == 422 && (invalid.object["errors"] as? [String: Any])?["days"] != nil)
            #expect(try await client.send("GET", "/api/v1/meetings/999999", token: token).status == 404)
            let formats = try #require(try await client.send("GET", "/api/v1/formats", token: token).json as? [[String: Any]])
            #expect(formats.count == 20)
            #expect((try await client.send("GET", "/api/v1/formats/8", token: token).object["type"] as? String) == "OPEN_OR_CLOSED")
            let bodies = try #require(try await client.send("GET", "/api/v1/servicebodies", token: token).json as? [[String: Any]])
            #expect(bodies.count == 12)
            #expect(try await client.send("GET", "/api/v1/users/1", token: token).object["username"] as? String == BMLTDemoServer.adminUsername)
            #expect(try await client.send("GET", "/api/v1/settings", token: token).status == 404)
        }

        @Test("REST PATCH shows in the semantic reads and in GetChanges")
        func restPatch() async throws {
            defer { BMLTDemoServer.reset() }
            let token = try await client.login()
            let target = try #require(try await client.search("services[]=1005").first)
            let patch = try await client.send("PATCH", "/api/v1/meetings/\(target.id)", body: ["name": "Demo Edited Name", "startTime": "06:45", "day": 3], token: token)
            #expect(patch.status == 204 && patch.data.isEmpty)
            let after = try #require(try await client.search("meeting_ids[]=\(target.id)").first)
            #expect(after["meeting_name"] == "Demo Edited Name")
            #expect(after["start_time"] == "06:45:00")
            #expect(after["weekday_tinyint"] == "4")
            #expect(after["location_street"] == target["location_street"])
            let changes = try await client.semantic("GetChanges", "meeting_id=\(target.id)").json as? [[String: Any]] ?? []
            let newest = try #require(changes.first)
            #expect(newest["change_type"] as? String == "comdef_change_type_change")
            let data = try #require(newest["json_data"] as? [String: [String: Any]])
            #expect(data["before"]?["meeting_name"] as? String == target["meeting_name"])
            #expect(data["after"]?["meeting_name"] as? String == "Demo Edited Name")
            let restChanges = try #require(try await client.send("GET", "/api/v1/meetings/\(target.id)/changes", token: token).json as? [[String: Any]])
            #expect((restChanges.first?["details"] as? [String])?.contains { $0.contains("Demo Edited Name") } == true)
            let invalid = try await client.send("PATCH", "/api/v1/meetings/\(target.id)", body: ["day": 9, "startTime": "25:99"], token: token)
            #expect(invalid.status == 422)
            #expect(Set(((invalid.object["errors"] as? [String: Any]) ?? [:]).keys) == ["day", "startTime"])
            #expect((invalid.object["message"] as? String)?.hasSuffix("(and 1 more error)") == true)
        }

        @Test("REST create (201), PUT, DELETE (204) and 422 on invalid data")
        func restCreateDelete() async throws {
            defer { BMLTDemoServer.reset() }
            let token = try await client.login()
            let payload: [String: Any] = [
                "serviceBodyId": 1006, "formatIds": [8, 4], "venueType": 3, "temporarilyVirtual": false, "day": 2,
                "startTime": "19:15", "duration": "01:30", "latitude": 44.92, "longitude": -93.4, "published": true,
                "name": "Demo REST Meeting", "location_text": "Demo Hall", "location_street": "1 Demo St",
                "location_municipality": "Stonebridge", "virtual_meeting_link": "https://video.example.org/j/1",
            ]
            let created = try await client.send("POST", "/api/v1/meetings", body: payload, token: token)
            #expect(created.status == 201)
            let id = try #require(created.object["id"] as? Int)
            #expect(created.object["formatIds"] as? [Int] == [4, 8])
            #expect(created.object["location_info"] is NSNull)
            let row = try #require(try await client.search("meeting_ids[]=\(id)").first)
            #expect(row["weekday_tinyint"] == "3" && row["venue_type"] == "3" && row["duration_time"] == "01:30:00")
            #expect(row.formatIDs == [4, 8, 16])

            var replaced = payload
            replaced["name"] = "Demo REST Meeting (PUT)"
            replaced["day"] = 4
            #expect(try await client.send("PUT", "/api/v1/meetings/\(id)", body: replaced, token: token).status == 204)
            #expect(try await client.search("meeting_ids[]=\(id)").first?["weekday_tinyint"] == "5")

            let deleted = try await client.send("DELETE", "/api/v1/meetings/\(id)", token: token)
            #expect(deleted.status == 204 && deleted.data.isEmpty)
            #expect(try await client.search("meeting_ids[]=\(id)").isEmpty)
            let gone = try await client.send("GET", "/api/v1/meetings/\(id)", token: token)
            #expect(gone.status == 404 && (gone.object["message"] as? String) == "Not Found")
            #expect(try await client.send("DELETE", "/api/v1/meetings/\(id)", token: token).status == 404)
            let history = try await client.semantic("GetChanges", "meeting_id=\(id)").json as? [[String: Any]] ?? []
            #expect(history.compactMap { $0["change_type"] as? String } ==
                    ["comdef_change_type_delete", "comdef_change_type_change", "comdef_change_type_new"])
            #expect(history.first?["meeting_exists"] as? String == "0")

            let bad = try await client.send("POST", "/api/v1/meetings",
                                            body: ["serviceBodyId": 999_999, "venueType": 1, "day": 7, "startTime": "7pm", "name": ""], token: token)
            #expect(bad.status == 422)
            let errors = (bad.object["errors"] as? [String: Any]) ?? [:]
            #expect(Set(errors.keys).isSuperset(of: ["serviceBodyId", "formatIds", "day", "startTime", "duration", "latitude", "name"]))
            #expect(bad.object["message"] as? String == "The selected service body id is invalid. (and 8 more errors)")
        }
    }
}
