import BMLTKit
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `bmlt-observer search` sends its search beside the validation when it needs nothing the validation learns: a
/// server that is not a root server must still be reported as such, whatever the search got meanwhile.
@Suite("bmlt-observer search beside the validation")
@MainActor
struct SearchBesideValidationTests {
    /// What the search gets from a server whose GetServerInfo is an HTML page.
    nonisolated static let searchAnswers: [(String, LoopbackHTTPServer.Behavior)] = [
        ("an HTML page", .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>Blog</body></html>".utf8))),
        ("an HTTP error", .respond(status: 500, headers: ["Content-Type": "text/html"], body: Data("<html>Error</html>".utf8))),
        ("nothing at all", .silence),
        ("a meeting list", .json(#"[{"id_bigint":"1","meeting_name":"Hope","weekday_tinyint":"2","start_time":"19:00:00"}]"#)),
    ]

    /// Holds the validation's GetServerInfo answer until the search's answer has been handed to the server, so the
    /// search's answer comes first by order, not by a pause. The search going out beside the validation is what the
    /// tests assert, so a search that never comes only releases the validation after a generous wait, not a hang.
    nonisolated static func waitForSearch(_ searchAnswered: DispatchSemaphore) {
        if searchAnswered.wait(timeout: .now() + 120) == .success { searchAnswered.signal() }   // a repeated GetServerInfo passes
    }

    @Test("a server that is not a root server: the validation's cause is the one error said, no meetings are printed",
          arguments: 0..<4)
    func notARootServer(index: Int) async throws {
        let (name, searchAnswer) = Self.searchAnswers[index]
        let searchAnswered = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { request in
            switch request.query("switcher") {
            case "GetServerInfo":
                Self.waitForSearch(searchAnswered)   // the search's answer comes first
                return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("<!DOCTYPE html><html>Welcome</html>".utf8))
            case "GetSearchResults":
                searchAnswered.signal()
                return searchAnswer
            default: return .respond(status: 404, headers: ["Content-Type": "text/html"], body: Data("<html>404</html>".utf8))
            }
        }
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["--server", root, "search", "--service-body", "1002"])
        #expect(run.status == 1, "\(name)")
        #expect(run.errors.contains("does not answer like a BMLT root server"), "\(name): \(run.errors)")
        #expect(run.errors.components(separatedBy: "bmlt-observer:").count == 2, "\(name): one error said: \(run.errors)")
        #expect(!run.lines.contains { $0.hasSuffix(" meeting") || $0.hasSuffix(" meetings") || $0.contains("Hope") }, "\(name): \(run.lines)")
        #expect(server.requests.contains { $0.query("switcher") == "GetSearchResults" }, "\(name): the search went out beside the validation")
    }

    @Test("a root server: the search's lines come after the validation's, even when its answer came first; one busy period")
    func orderKept() async throws {
        let searchAnswered = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { request in
            if request.path.hasSuffix("GetLangs.php") { return .json(#"{"languages":[{"key":"en","name":"English","default":true}]}"#) }
            switch request.query("switcher") {
            case "GetServerInfo":
                Self.waitForSearch(searchAnswered)   // the search's answer comes first
                return .json(#"[{"version":"2.16.6","versionInt":"2016006","langs":"en","nativeLang":"en","distanceUnits":"mi"}]"#)
            case "GetServiceBodies": return .json(#"[{"id":"1002","parent_id":"0","name":"Area","type":"AS"}]"#)
            case "GetFormats": return .json(#"[{"key_string":"O","name_string":"Open","lang":"en","id":"17"}]"#)
            case "GetSearchResults":
                searchAnswered.signal()
                return .json(#"[{"id_bigint":"1","meeting_name":"Hope","weekday_tinyint":"2","start_time":"19:00:00"}]"#)
            default: return .json("[]")
            }
        }
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["--server", root, "search", "--service-body", "1002", "--meetings-only"])
        #expect(run.status == 0, "\(run.errors)")
        let names = run.lines.compactMap { line -> String? in
            guard line.range(of: #"^\d\d:\d\d:\d\d\.\d\d\d  "#, options: .regularExpression) != nil else { return nil }
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        }
        // The search's batch may be decoded before or after the validation ends; it always comes before its results.
        #expect(names.filter { $0 != "searchMeetingsArrived" } == ["progressDidStart", "serverValidated", "searchMeetings", "progressDidStop"], "\(run.lines)")
        #expect((names.firstIndex(of: "searchMeetingsArrived") ?? .max) < (names.firstIndex(of: "searchMeetings") ?? -1), "\(run.lines)")
        #expect(run.lines.contains { $0.hasSuffix("1 meeting") }, "\(run.lines)")
    }
}
