import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import BMLTKit

/// Answers like a captured 4.x server did — 4.1.0 (`../shared/fixtures/rootserver-4x`, the default) or 4.2.7
/// (`rootserver-42`, numbered the same) — by method and path; the meeting's state follows the writes, and every
/// write's body is recorded.
final class Server4xRouter: @unchecked Sendable {
    nonisolated static let folder = "rootserver-4x"
    nonisolated static let password = "CoreysGoryStory"

    /// The corpus this router answers from.
    let folder: String

    /// A router answering from `folder` (4.1.0 unless told otherwise).
    init(folder: String = Server4xRouter.folder) {
        self.folder = folder
    }

    private let lock = NSLock()
    private var patched = false
    private var replaced = false
    private var deleted = false
    private var writes: [(method: String, path: String, query: String?, body: Data)] = []

    static func capture(_ name: String) -> Data { (try? FixtureCorpus.served(folder, name)) ?? Data() }

    /// One capture of this router's corpus.
    func capture(_ name: String) -> Data { (try? FixtureCorpus.served(folder, name)) ?? Data() }

    /// The writes received so far (method, path, query, body), in order.
    var recordedWrites: [(method: String, path: String, query: String?, body: Data)] { lock.withLock { writes } }

    /// The handler for a `StubServer`.
    var handler: StubServer.Handler {
        { [self] request in answer(request) }
    }

    private func answer(_ request: URLRequest) -> StubServer.Response {
        let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
        let method = request.httpMethod ?? "GET"
        func json(_ name: String, _ status: Int = 200) -> StubServer.Response {
            StubServer.Response(status: status, body: capture(name))
        }
        if method != "GET" {
            lock.withLock { writes.append((method, path, request.url?.query, request.httpBody ?? Data())) }
        }
        switch (method, path) {
        case ("GET", "client_interface/json"), ("GET", "client_interface/json/"):
            switch request.query("switcher") {
            case "GetServerInfo": return json("001-GetServerInfo.json")
            case "GetServiceBodies": return json("004-GetServiceBodies.json")
            case "GetFormats": return json("003-GetFormats-show_all.json")
            case "GetFieldKeys": return json("016-GetFieldKeys.json")
            case "GetSearchResults":
                return json(lock.withLock { patched } ? "203-GetSearchResults-meeting-2-after-patch.json" : "012-GetSearchResults-meeting_ids.json")
            case "GetChanges": return json(request.query("meeting_id") == "2" ? "201-GetChanges-meeting_id-2.json" : "200-GetChanges-after-edits.json")
            default: return json("020-json-bad-switcher.json", 422)
            }
        case ("POST", "api/v1/auth/token"):
            let body = (try? JSONScanner.parse(request.httpBody ?? Data()))?.object
            guard body?["password"]?.string == Self.password else { return json("100-auth-token-bad-password.json", 401) }
            return json(body?["username"]?.string == "gnyr-helpline" ? "190-auth-token-observer.json" : "101-auth-token-serveradmin.json")
        case ("GET", "api/v1/users/57"): return json("151-user-57-observer.json")
        case ("POST", "api/v1/auth/refresh"): return json("102-auth-refresh.json")
        case ("POST", "api/v1/auth/logout"): return StubServer.Response(headers: ["Content-Type": "text/html; charset=utf-8"])
        case ("GET", "api/v1/users/1"):
            let users = (try? JSONScanner.parse(capture("150-users.json")))?.array ?? []
            return .json(users.first { $0["id"]?.int == 1 }.map { WireJSONWriter.text($0) } ?? "{}")
        case ("GET", "api/v1/servicebodies"): return json("140-servicebodies.json")
        case ("PATCH", "api/v1/meetings/2"):
            lock.withLock { patched = true }
            return StubServer.Response(status: 204, headers: [:])
        case ("GET", "api/v1/meetings/2"):
            return json(lock.withLock { patched } ? "117-meeting-2-after-patch.json" : "114-meeting-2.json")
        case ("POST", "api/v1/meetings"): return json("120-meeting-create-201.json", 201)
        case ("PUT", "api/v1/meetings/2693"):
            lock.withLock { replaced = true }
            return StubServer.Response(status: 204, headers: [:])
        case ("GET", "api/v1/meetings/2693"):
            let (isReplaced, isDeleted) = lock.withLock { (replaced, deleted) }
            if isDeleted { return json("127-meeting-new-after-delete-404.json", 404) }
            return json(isReplaced ? "125-meeting-new-after-put.json" : "122-meeting-new-get.json")
        case ("DELETE", "api/v1/meetings/2693"):
            lock.withLock { deleted = true }
            return StubServer.Response(status: 204, headers: [:])
        default: return json("128-meeting-404.json", 404)
        }
    }
}
