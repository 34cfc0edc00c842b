import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Bad replies at a validation step after a good validation: each gives exactly one `.bmltError` of the
/// expected kind, sets `lastError`, leaves the stores as they were, and keeps the progress pair balanced.
@Suite("Bad-input corpus (validation steps)")
@MainActor
struct BadInputCorpusTests {
    /// The case name of an error, for matching without the message text.
    nonisolated static func kind(_ error: BMLTError) -> String {
        if let label = Mirror(reflecting: error).children.first?.label { return label }
        switch error {
        case .timeout: return "timeout"
        case .cancelled: return "cancelled"
        default: return "?"
        }
    }

    nonisolated static let html = "<!DOCTYPE html><html><head><title>Oops</title></head><body>error</body></html>"

    nonisolated static let cases: [(name: String, response: StubServer.Response, kind: String)] = {
        var cases: [(String, StubServer.Response, String)] = [
            ("HTML page with status 200", .text(html), "malformedResponse"),
            ("empty body", .text(""), "malformedResponse"),
            ("white space only", .json("  \n "), "malformedResponse"),
            ("an object where a list is expected", .json(#"{"id":"1","name":"x"}"#), "malformedResponse"),
            ("an error object with status 200", .json(#"{"message":"Server Error"}"#), "malformedResponse"),
            ("truncated JSON", .json(#"[{"id":"1","parent_id":"0","na"#), "malformedResponse"),
            ("missing closing bracket", .json(#"[{"id":"1"}"#), "malformedResponse"),
            ("trailing garbage", .json(#"[{"id":"1"}] trailing"#), "malformedResponse"),
            ("invalid UTF-8", Response(body: Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])), "malformedResponse"),
            ("a control character in a string", .json("[\"a\u{01}b\"]"), "malformedResponse"),
            ("a bare string", .json(#""services""#), "malformedResponse"),
            ("a bare number", .json("42"), "malformedResponse"),
            ("null", .json("null"), "malformedResponse"),
            ("true", .json("true"), "malformedResponse"),
            ("a list of numbers", .json("[1, 2, 3]"), "malformedResponse"),
            ("a list with null in it", .json(#"[{"id":"1","name":"x"}, null]"#), "malformedResponse"),
            ("a list of lists", .json("[[1], [2]]"), "malformedResponse"),
            ("NaN", .json("[NaN]"), "malformedResponse"),
            ("nesting 1,000 deep", .json(String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)), "malformedResponse"),
            ("single quotes", .json("[{'id':'1'}]"), "malformedResponse"),
            ("JSONP wrapper", .json(#"callback([{"id":"1"}])"#), "malformedResponse"),
            ("XML", .text(#"<?xml version="1.0"?><serviceBodies/>"#, contentType: "application/xml"), "malformedResponse"),
            ("plain text", .text("You must supply one of the following: switcher=GetSearchResults"), "malformedResponse"),
            ("a huge number where a string is expected", .json("[\"x\", 1e999]"), "malformedResponse"),
            ("connection lost", .failing(.networkConnectionLost), "transport"),
            ("host not found", .failing(.cannotFindHost), "transport"),
            ("TLS failure", .failing(.serverCertificateUntrusted), "transport"),
            ("timed out", .failing(.timedOut), "timeout"),
            ("server unreachable", .failing(.cannotConnectToHost), "transport"),
        ]
        let statuses: [(Int, String)] = [(401, "unauthorized"), (403, "forbidden"), (404, "notFound"), (409, "conflict"),
                                         (422, "validationFailed"), (500, "httpStatus"), (502, "httpStatus"), (503, "httpStatus")]
        for (status, kind) in statuses {
            cases.append(("HTTP \(status) with an HTML page", .text(html, status: status), kind))
            cases.append(("HTTP \(status) with a JSON error", .json(#"{"message":"status \#(status)","errors":{"services":["bad"]}}"#, status: status), kind))
        }
        return cases
    }()

    typealias Response = StubServer.Response

    @Test("the corpus has at least 40 cases")
    func size() { #expect(Self.cases.count >= 40) }

    @Test("each bad reply: one .bmltError of the expected kind, lastError set, stores kept, progress balanced",
          arguments: 0..<cases.count)
    func badReply(index: Int) async throws {
        let (name, bad, expectedKind) = Self.cases[index]
        let healthy = SampleReplies.healthy()
        let stub = StubServer(healthy)
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.001)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        let server = connection.server
        let before = (server.info, server.formats, server.serviceBodies, server.serviceBodyTree, server.languages)
        recorder.removeAll()

        stub.answer { request in request.query("switcher") == "GetServiceBodies" ? bad : healthy(request) }
        var thrown: BMLTError?
        do { _ = try await connection.validate() } catch { thrown = error as? BMLTError }

        #expect(thrown.map(Self.kind) == expectedKind, "\(name): \(String(describing: thrown))")
        #expect(recorder.errors.count == 1, "\(name)")
        #expect(recorder.errors.first == thrown, "\(name)")
        #expect(recorder.count(.bmltProgressDidStart) == 1 && recorder.count(.bmltProgressDidStop) == 1, "\(name)")
        #expect(recorder.names.last == "progress.didStop", "\(name)")
        #expect(connection.lastError == thrown && server.lastError == thrown, "\(name)")
        #expect(server.info == before.0 && server.formats == before.1 && server.serviceBodies == before.2, "\(name)")
        #expect(server.serviceBodyTree == before.3 && server.languages == before.4, "\(name)")
        #expect(connection.inFlightRequests.isEmpty, "\(name)")
    }

    @Test("odd but usable values decode leniently instead of failing", arguments: [
        #"[{"id":10,"parent_id":0,"name":"Numbers","type":"RS"}]"#,
        #"[{"id":"10","parent_id":null,"name":null,"type":"","url":"not a url at all","helpline":5551234}]"#,
        #"[{"id":"10","parent_id":"10","name":"Its own parent"}]"#,
        #"{}"#,
        "\u{FEFF}[{\"id\":\"10\",\"name\":\"BOM\"}]",
        #"[{"id":"99999999999999999999","name":"id out of range is skipped"},{"id":"7","name":"kept"}]"#,
    ])
    func lenientValues(body: String) async throws {
        let healthy = SampleReplies.healthy()
        let stub = StubServer { request in request.query("switcher") == "GetServiceBodies" ? .json(body) : healthy(request) }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        #expect(connection.server.serviceBodies.count <= 1)
        #expect(connection.server.serviceBodyTree.flatMap(\.flattened).count == connection.server.serviceBodies.count)
    }
}
