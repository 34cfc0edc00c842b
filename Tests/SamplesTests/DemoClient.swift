import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import BMLTDemoServer

/// A meeting as the semantic interface returns it: every value a string.
typealias Row = [String: String]

/// Talks to the demo server through a real `URLSession`, as a client would.
struct DemoClient {
    let session = URLSession(configuration: BMLTDemoServer.sessionConfiguration())

    struct Reply {
        var status: Int
        var data: Data
        var headers: HTTPURLResponse
        var json: Any? { try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
        var text: String { String(decoding: data, as: UTF8.self) }
        var rows: [Row] { (json as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } } }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    func send(_ method: String, _ path: String, body: Any? = nil, token: String? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: BMLTDemoServer.rootURL.absoluteString + path)!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Reply(status: http.statusCode, data: data, headers: http)
    }

    /// `client_interface/json/?switcher=<switcher>&<query>`.
    func semantic(_ switcher: String, _ query: String = "") async throws -> Reply {
        try await send("GET", "/client_interface/json/?switcher=\(switcher)" + (query.isEmpty ? "" : "&" + query))
    }

    func search(_ query: String = "") async throws -> [Row] {
        let reply = try await semantic("GetSearchResults", query)
        #expect(reply.status == 200)
        return reply.rows
    }

    func login() async throws -> String {
        let reply = try await send("POST", "/api/v1/auth/token",
                                   body: ["username": BMLTDemoServer.adminUsername, "password": BMLTDemoServer.adminPassword])
        #expect(reply.status == 200)
        return try #require(reply.object["access_token"] as? String)
    }
}

extension Row {
    var id: Int { Int(self["id_bigint"] ?? "") ?? -1 }
    func int(_ key: String) -> Int { Int(self[key] ?? "") ?? -1 }
    func minutes(_ key: String) -> Int {
        let parts = (self[key] ?? "").split(separator: ":").compactMap { Int($0) }
        return parts.count >= 2 ? parts[0] * 60 + parts[1] : -1
    }
    var formatIDs: Set<Int> { Set((self["format_shared_id_list"] ?? "").split(separator: ",").compactMap { Int($0) }) }
}

func ids(_ rows: [Row]) -> Set<Int> { Set(rows.map(\.id)) }

/// Asserts `subset` is a non-empty strict subset of `all` equal to `expected`, so a filter is shown to do something.
func expectFiltered(_ got: [Row], all: [Row], where predicate: (Row) -> Bool, _ comment: Comment? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = Set(all.filter(predicate).map(\.id))
    #expect(!expected.isEmpty, comment, sourceLocation: sourceLocation)
    #expect(expected.count < all.count, comment, sourceLocation: sourceLocation)
    #expect(ids(got) == expected, comment, sourceLocation: sourceLocation)
    #expect(got.count == expected.count, comment, sourceLocation: sourceLocation)
}
