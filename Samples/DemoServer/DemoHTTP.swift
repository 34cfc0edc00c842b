import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Query-string (or form body) parameters, PHP style: `name[]=a&name[]=b`, `name=a`, and comma lists.
struct DemoQuery: Sendable {
    private var values: [String: [String]] = [:]

    init(_ encoded: String?) {
        guard let encoded, !encoded.isEmpty else { return }
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            var name = Self.decode(String(pieces[0]))
            let value = pieces.count > 1 ? Self.decode(String(pieces[1])) : ""
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            guard !name.isEmpty else { continue }
            values[name, default: []].append(value)
        }
    }

    /// Form decoding: `+` is a space, `%2B` a plus.
    static func decode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The last value given for `name`.
    func string(_ name: String) -> String? { values[name]?.last }

    /// A non-empty trimmed value.
    func nonEmpty(_ name: String) -> String? {
        guard let value = string(name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    func int(_ name: String) -> Int? { nonEmpty(name).flatMap { Int($0) } }
    func double(_ name: String) -> Double? { nonEmpty(name).flatMap { Double($0) } }

    /// All values of `name`, comma lists split, blanks dropped.
    func list(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Integer list, split into included (positive) and excluded (negative, sign dropped) ids.
    func signedIDs(_ name: String) -> (include: Set<Int>, exclude: Set<Int>) {
        var include = Set<Int>(), exclude = Set<Int>()
        for item in list(name) {
            guard let n = Int(item), n != 0 else { continue }
            if n > 0 { include.insert(n) } else { exclude.insert(-n) }
        }
        return (include, exclude)
    }
}

/// A finished HTTP reply.
struct DemoResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    static let common = ["Access-Control-Allow-Origin": "*", "Cache-Control": "no-cache, private"]

    static func json(_ value: DemoJSON, status: Int = 200) -> DemoResponse {
        DemoResponse(status: status, headers: common.merging(["Content-Type": "application/json"]) { $1 }, body: value.data)
    }

    /// `{"message": "..."}` with the given status.
    static func message(_ text: String, status: Int) -> DemoResponse {
        json(.object([("message", .string(text))]), status: status)
    }

    /// A body-less reply (PATCH/PUT/DELETE 204; logout 200 with a text/html content type like the real server).
    static func empty(_ status: Int) -> DemoResponse {
        var headers = common
        if status != 204 { headers["Content-Type"] = "text/html; charset=UTF-8" }
        return DemoResponse(status: status, headers: headers, body: Data())
    }

    static func html(_ text: String, status: Int) -> DemoResponse {
        DemoResponse(status: status, headers: common.merging(["Content-Type": "text/html; charset=UTF-8"]) { $1 },
                     body: Data(text.utf8))
    }

    static let notFoundPage = html("<!DOCTYPE html>\n<html lang=\"en\"><head><title>Not Found</title></head>"
                                   + "<body><h1>404 Not Found</h1><p>BMLT demo server.</p></body></html>\n", status: 404)
}

/// A request as the routes see it: method, path below the root, query, body and bearer token.
struct DemoRequest: Sendable {
    var method: String
    /// Path segments below `/main_server`, e.g. ["client_interface", "json"] or ["api", "v1", "meetings", "12"].
    var segments: [String]
    var query: DemoQuery
    var body: Data
    var bearer: String?

    init(_ request: URLRequest, body: Data) {
        method = (request.httpMethod ?? "GET").uppercased()
        let url = request.url
        let path = url.map { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? $0.path } ?? ""
        var parts = path.split(separator: "/").map { DemoQuery.decode(String($0)) }
        if parts.first == "main_server" { parts.removeFirst() }
        segments = parts
        let rawQuery = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
        let contentType = request.value(forHTTPHeaderField: "Content-Type") ?? ""
        if contentType.contains("application/x-www-form-urlencoded"), let form = String(data: body, encoding: .utf8) {
            query = DemoQuery([rawQuery, form].compactMap { $0 }.joined(separator: "&"))
        } else {
            query = DemoQuery(rawQuery)
        }
        self.body = body
        if let auth = request.value(forHTTPHeaderField: "Authorization"), auth.lowercased().hasPrefix("bearer ") {
            bearer = String(auth.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
    }
}

extension DemoResponse {
    /// `{"message": "..."}` pretty-printed with four-space indentation, as Laravel's exception handler sends it
    /// (bad switcher 422, model 404).
    static func prettyMessage(_ text: String, status: Int) -> DemoResponse {
        var out = DemoJSON.string(text).encoded
        out = "{\n    \"message\": \(out)\n}"
        return DemoResponse(status: status, headers: common.merging(["Content-Type": "application/json"]) { $1 }, body: Data(out.utf8))
    }
}
