import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `bmlt-observer -v send-message` against the real 2.16.6 replies (replayed on 127.0.0.1; contact.php answers
/// `1`, the success code the captures could not record): its request log names contact.php but holds neither the
/// sender's address nor the message, which the server still receives.
@Suite("bmlt-observer -v send-message: no personal data in the log", .needsCaptures, .serialized)
@MainActor
struct SendMessagePrivacyTests {
    static let sender = "person@example.org"
    static let body = "my private words"

    private func server(contactReply: String) throws -> LoopbackHTTPServer {
        let replay = CaptureReplayServer.handler(folder: "rootserver")
        let meetings = FixtureCaptures.root.appendingPathComponent("rootserver/json_GetSearchResults_meeting_ids.json")
        return try LoopbackHTTPServer { request in
            if request.path.hasSuffix("contact.php") {
                return .respond(status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"], body: Data(contactReply.utf8))
            }
            if request.query("switcher") == "GetSearchResults", let body = try? Data(contentsOf: meetings) {
                return .respond(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: body)
            }
            return replay(request)
        }
    }

    private func leaks(_ text: String) -> [String] {
        [Self.sender, Self.body, "person%40example.org", "my%20private%20words", "my+private+words", "private"].filter(text.contains)
    }

    @Test("sent (exit 0) and refused by the server (exit 1): every -v line about contact.php is redacted", arguments: ["1", "-4"])
    func verbose(contactReply: String) async throws {
        let http = try server(contactReply: contactReply)
        defer { http.stop() }
        let server = http.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["-v", "--server", server, "send-message", "--from", Self.sender, "--body", Self.body, "2339"])
        #expect(run.status == (contactReply == "1" ? 0 : 1), "\(run.errors)")
        let contactLines = run.errors.split(separator: "\n").filter { $0.contains("contact.php") }
        #expect(contactLines.count == 1, "-v logs each request's outcome: \(run.errors)")
        #expect(contactLines.allSatisfy { $0.contains("from_address=%3Credacted%3E") && $0.contains("message=%3Credacted%3E") },
                "\(contactLines)")
        #expect(leaks(run.errors + run.lines.joined(separator: "\n")) == [], "\(run.errors)")
        let sent = try #require(http.requests.last { $0.path.hasSuffix("contact.php") })
        #expect(sent.query("from_address") == Self.sender && sent.query("message") == Self.body, "the server still gets both")
    }
}
