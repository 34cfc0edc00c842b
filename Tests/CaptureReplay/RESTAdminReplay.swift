import Foundation
import LoopbackHTTPServer

/// The 3.1.2 (`rootserver-3x`), 4.1.0 (`rootserver-4x`) or 4.2.7 (`rootserver-42`) server's replies: semantic reads and `/api/v1` by method
/// and path, the meeting's state following the writes.
public enum RESTAdminReplay {
    /// The password the captures were made with (both servers).
    public static let password = "CoreysGoryStory"
    /// The bearer token of the captured 3.1.2 login.
    public static let token = "3|mQ5IhaaN52kHdUnxiD0GpdGWTmC8jH0xgo7yjIEee6a01ac2"

    /// The bearer token of a folder's captured login (file 101).
    public static func token(_ folder: String) -> String {
        let object = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(folder, "101-auth-token-serveradmin.json"))) as? [String: Any]
        return object?["access_token"] as? String ?? token
    }

    /// The path after `/main_server/`.
    public static func path(_ request: LoopbackHTTPServer.Request) -> String {
        request.path.replacingOccurrences(of: "/main_server/", with: "")
    }

    /// Starts a loopback server that answers as the captured server of `folder` did, following the writes.
    public static func start(folder: String = "rootserver-3x") throws -> LoopbackHTTPServer {
        let meeting2 = ReplayState("114-meeting-2.json")
        let token = token(folder)
        @Sendable func reply(_ file: String, _ status: Int = 200) -> LoopbackHTTPServer.Behavior {
            .respond(status: status, headers: ["Content-Type": "application/json"], body: CapturedToday.served(folder, file))
        }
        return try LoopbackHTTPServer { request in
            let bearer = request.headers["authorization"] == "Bearer " + token
            switch (request.method, path(request)) {
            case ("GET", let read) where read.hasPrefix("client_interface/json"):
                switch request.query("switcher") {
                case "GetServerInfo": return reply("001-GetServerInfo.json")
                case "GetServiceBodies": return reply("004-GetServiceBodies.json")
                case "GetFormats": return reply("003-GetFormats-show_all.json")
                case "GetSearchResults": return reply("012-GetSearchResults-meeting_ids.json")
                case "GetChanges": return reply(request.query("meeting_id") == "2" ? "201-GetChanges-meeting_id-2.json" : "200-GetChanges-after-edits.json")
                default: return .json("[]")
                }
            case ("POST", "api/v1/auth/token"):
                let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
                return body?["password"] == password ? reply("101-auth-token-serveradmin.json") : reply("100-auth-token-bad-password.json", 401)
            case _ where !bearer:
                return reply("180-meetings-no-token-401.json", 401)
            case ("POST", "api/v1/auth/refresh"): return reply("102-auth-refresh.json")
            case ("POST", "api/v1/auth/logout"): return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data())
            case ("GET", "api/v1/users/1"):
                let users = (try? JSONSerialization.jsonObject(with: FixtureCaptures.body(folder, "150-users.json"))) as? [[String: Any]]
                let admin = users?.first { ($0["id"] as? Int) == 1 } ?? [:]
                return .respond(status: 200, headers: [:], body: (try? JSONSerialization.data(withJSONObject: admin)) ?? Data())
            case ("GET", "api/v1/servicebodies"): return reply("140-servicebodies.json")
            case ("PATCH", "api/v1/meetings/2"):
                meeting2.set("117-meeting-2-after-patch.json")
                return .respond(status: 204, headers: [:], body: Data())
            case ("PUT", "api/v1/meetings/2"):
                meeting2.set("114-meeting-2.json")
                return .respond(status: 204, headers: [:], body: Data())
            case ("GET", "api/v1/meetings/2"): return reply(meeting2.value)
            case ("POST", "api/v1/meetings"): return reply("120-meeting-create-201.json", 201)
            case ("DELETE", "api/v1/meetings/2693"): return .respond(status: 204, headers: [:], body: Data())
            case ("DELETE", "api/v1/formats/17"): return reply("133-format-delete-in-use-409.json", 409)
            default: return reply("128-meeting-404.json", 404)
            }
        }
    }
}
