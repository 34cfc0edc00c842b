import Foundation
import Testing
@testable import BMLTKit

/// A contact message's sender address and text are personal data: the server gets them (contact.php reads them
/// from the query), but no log line, error description, event or cache file holds them.
@Suite("Messages to meeting contacts: no personal data in logs, errors or caches")
@MainActor
struct ContactMessagePrivacyTests {
    let meeting = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work")
    static let sender = "person@example.org"
    static let body = "my private words"
    /// Every way the two could show up in text: as typed, and percent-encoded as in a URL.
    static let personal = [sender, body, "person%40example.org", "my%20private%20words", "my+private+words", "private"]

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ line: String) { lock.withLock { stored.append(line) } }
        var all: [String] { lock.withLock { stored } }
    }

    /// A validated 2.x connection logging at `.debug` into `lines`, with a response cache in `directory`; contact.php
    /// answers `contact`.
    private func connection(_ contact: StubServer.Response, lines: Lines, directory: URL) async throws
        -> (BMLTConnection, StubServer, EventRecorder) {
        let healthy = SampleReplies.healthy()
        let stub = StubServer { request in request.url!.path.hasSuffix("contact.php") ? contact : healthy(request) }
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.logLevel = .debug
        configuration.logHandler = { _, line in lines.add(line) }
        configuration.cache = BMLTResponseCache(directory: directory, maximumBytes: 1 << 20)
        configuration.cachePolicy = .networkElseCache
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        return (connection, stub, recorder)
    }

    /// Every file's bytes under the cache directory, as text.
    private func cacheText(_ directory: URL) -> String {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return files.compactMap { try? Data(contentsOf: $0) }.map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    private func leaks(_ text: String) -> [String] { Self.personal.filter { text.contains($0) } }

    @Test("a sent message: the log shows contact.php with both values redacted; the server got them; nothing cached")
    func sent() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-privacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = Lines()
        let (connection, stub, recorder) = try await connection(.text("1"), lines: lines, directory: directory)
        try await connection.sendMessageAndWait(toContactOf: meeting, from: Self.sender, body: Self.body)

        let contactLines = lines.all.filter { $0.contains("contact.php") }
        #expect(contactLines.count == 2, "the attempt (→) and its outcome (←): \(lines.all)")
        for line in contactLines {
            #expect(line.contains("from_address=%3Credacted%3E") || line.contains("from_address=<redacted>"), "\(line)")
            #expect(line.contains("message=%3Credacted%3E") || line.contains("message=<redacted>"), "\(line)")
            #expect(line.contains("meeting_id=2339"), "what is not personal stays: \(line)")
        }
        #expect(leaks(lines.all.joined(separator: "\n")) == [], "\(lines.all)")
        let sent = try #require(stub.requests.last { $0.url!.path.hasSuffix("contact.php") })
        #expect(sent.query("from_address") == Self.sender)
        #expect(sent.query("message") == Self.body)
        #expect(recorder.count(.bmltMessageSent) == 1)
        #expect(leaks(recorder.all.map { "\($0)" }.joined()) == [])
        let cached = cacheText(directory)
        #expect(cached.contains("GetServerInfo"), "the cache holds the validation's reads")
        #expect(leaks(cached) == [], "nothing of the message is cached")
    }

    @Test("a failed message: the error line, the error's description and the events hold neither value", arguments: [
        StubServer.Response.text("<html>Internal Server Error</html>", status: 500), .text("-4"), .text("<html>oops</html>"),
    ])
    func failed(reply: StubServer.Response) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-privacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = Lines()
        let (connection, _, recorder) = try await connection(reply, lines: lines, directory: directory)
        var thrown: (any Error)?
        do {
            try await connection.sendMessageAndWait(toContactOf: meeting, from: Self.sender, body: Self.body)
        } catch {
            thrown = error
        }
        let error = try #require(thrown as? BMLTError)
        let described = "\(error)" + error.localizedDescription + String(reflecting: error)
        #expect(leaks(described) == [], "\(described)")
        #expect(lines.all.contains { $0.contains("contact.php") && ($0.contains("<redacted>") || $0.contains("%3Credacted%3E")) },
                "\(lines.all)")
        #expect(leaks(lines.all.joined(separator: "\n")) == [], "\(lines.all)")
        #expect(recorder.errors == [error])
        #expect(leaks(recorder.all.map { "\($0)" }.joined()) == [])
        #expect(leaks(cacheText(directory)) == [])
    }

    @Test("the redaction itself: secret names, personal names, the rest kept")
    func redaction() {
        let url = URL(string: "https://u:p@example.org/main_server/client_interface/contact.php?meeting_id=1&from_address=a%40b.org&message=hi%20there&api_token=t")!
        let text = RequestLog.redacted(url)
        #expect(!text.contains("a%40b.org") && !text.contains("hi%20there") && !text.contains("=t") && !text.contains("u:p@"), "\(text)")
        #expect(text.contains("meeting_id=1") && text.contains("example.org/main_server/client_interface/contact.php"), "\(text)")
    }
}
