import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// PHP's notices around the JSON (a 2.x server on PHP 8 with `display_errors` on), over a real socket: the JSON is
/// salvaged, the server's misconfiguration is logged, and real HTML pages are still refused.
@Suite("PHP notices around the JSON", .needsCorpus)
@MainActor
struct PHPNoiseTests {
    nonisolated static let deprecated = "<br />\n<b>Deprecated</b>:  Creation of dynamic property c_comdef_meeting::$x is deprecated in "
        + "<b>/var/www/main_server/server/c_comdef_server.class.php</b> on line <b>1234</b><br />\n"
    nonisolated static let warning = "<br />\n<b>Warning</b>:  Undefined array key \"lang_enum\" in <b>/var/www/main_server/client_interface/json/index.php</b> on line <b>52</b><br />\n"
    nonisolated static let plain = "PHP Deprecated:  Function strftime() is deprecated in /var/www/server.php on line 88\nNotice: Undefined index: x in /var/www/y.php on line 9\n"

    /// A loopback 2.16.6 server whose search and server-info replies are wrapped in `wrap`.
    static func server(_ wrap: @escaping @Sendable (String) -> String) throws -> LoopbackHTTPServer {
        let search = String(decoding: try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetSearchResults_services_1002.json"), as: UTF8.self)
        let info = String(decoding: try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetServerInfo.json"), as: UTF8.self)
        return try LoopbackHTTPServer { request in
            let body: String
            switch request.query("switcher") {
            case "GetServerInfo": body = wrap(info)
            case "GetSearchResults": body = wrap(search)
            default: body = "[]"
            }
            return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data(body.utf8))
        }
    }

    static func expectedMeetings() throws -> [BMLTMeeting] {
        try WireSearchStream.decode(try FixtureCorpus.data(FixtureCorpus.legacy, "json_GetSearchResults_services_1002.json"), serverFormats: []).meetings
    }

    /// The reply wrapped in PHP's messages the way `name` says.
    nonisolated static func wrapped(_ json: String, _ name: String) -> String {
        switch name {
        case "html before": deprecated + json
        case "html after": json + "\n" + warning
        case "html both": deprecated + deprecated + json + warning
        default: plain + json + "\n" + plain
        }
    }

    @Test("notices before, after, or both, as HTML or plain text: the meetings as if the server were quiet, and one warning naming display_errors",
          arguments: ["html before", "html after", "html both", "plain text"])
    func salvages(name: String) async throws {
        let wrap: @Sendable (String) -> String = { Self.wrapped($0, name) }
        let http = try Self.server(wrap)
        defer { http.stop() }
        let lines = Locked<[String]>([])
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(timeout: hangGuardTimeout, logLevel: .errors, logHandler: { _, line in lines.withLock { $0.append(line) } }))
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [1002]
        let info = try await ServerValidationProbe.serverInfo(connection)
        #expect(info.version == "2.16.6", "\(name)")
        let meetings = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
        let expected = try Self.expectedMeetings()
        #expect(meetings == expected && meetings.count > 10, "\(name)")
        let warnings = lines.withLock { $0 }.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 2, "\(name): one per reply (server info and search): \(warnings)")
        #expect(warnings.allSatisfy { $0.contains("display_errors") && ($0.contains("Deprecated") || $0.contains("Warning") || $0.contains("Notice")) })
    }

    @Test("a real HTML page is still refused as one; JSON with <br /> inside its strings is left as it is", arguments: [
        "<!DOCTYPE html><html><head><title>Log in</title></head><body><br />\n<b>Please log in</b></body></html>",
        "<br />\n<b>Deprecated</b>: x in y.php on line 1<br />\n<html><body>not json</body></html>",
        "<html><body>\n[1,2,3]\n</body></html>",
    ])
    func refusesRealPages(page: String) async throws {
        let http = try LoopbackHTTPServer { _ in .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data(page.utf8)) }
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        do {
            _ = try await connection.validate()
            Issue.record("an HTML page must not validate")
        } catch let error as BMLTError {
            guard case .notARootServer = error else {
                guard case .malformedResponse = error else { Issue.record("\(error)"); return }
                return
            }
        }
        #expect(WirePHPNoise.salvage(Data(page.utf8)) == nil)
        let inside = #"[{"comments":"line one<br />\n<b>Warning</b>: not a PHP message"}]"#
        #expect(!WirePHPNoise.mayHaveNoise(Data(inside.utf8)))
        let wrapped = Self.warning + inside + "\n" + Self.warning
        let salvaged = try #require(WirePHPNoise.salvage(Data(wrapped.utf8)))
        // The JSON, where it stood in the reply (what came before it is blank, so error offsets count in the reply).
        #expect(salvaged.json == Data(String(repeating: " ", count: Self.warning.utf8.count).utf8) + Data(inside.utf8))
    }
}

/// GetServerInfo through the public validation (the server info it returns).
enum ServerValidationProbe {
    @MainActor
    static func serverInfo(_ connection: BMLTConnection) async throws -> BMLTServerInfo {
        try await connection.validate()
    }
}
