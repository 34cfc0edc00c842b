import Foundation
import Testing
@testable import BMLTKit

@Suite("Messages to meeting contacts")
@MainActor
struct ContactMessageTests {
    let meeting = BMLTMeeting(id: 2339, serviceBodyID: 1002, name: "Recovery At Work")

    /// A validated 2.x connection whose contact.php answers `code`.
    private func connection(contactReply: String, serverInfo: String = SampleReplies.serverInfo2x)
        async throws -> (BMLTConnection, StubServer, EventRecorder) {
        let healthy = SampleReplies.healthy(serverInfo: serverInfo)
        let stub = StubServer { request in
            request.url!.path.hasSuffix("contact.php") ? .text(contactReply) : healthy(request)
        }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        recorder.removeAll()
        return (connection, stub, recorder)
    }

    @Test("1 means sent: .bmltMessageSent(true), sent as GET with exactly the four parameters")
    func sent() async throws {
        let (connection, stub, recorder) = try await connection(contactReply: "1")
        connection.sendMessage(toContactOf: meeting, from: " someone@example.com ", body: "Is it on? a+b & c=d")
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.names == ["progress.didStart", "message.sent", "progress.didStop"])
        let request = try #require(stub.requests.last)
        #expect(request.httpMethod == "GET")
        #expect(request.url!.path == "/main_server/client_interface/contact.php")
        #expect(request.queryItems.map(\.name) == ["meeting_id", "service_body_id", "from_address", "message"])
        #expect(request.query("meeting_id") == "2339")
        #expect(request.query("service_body_id") == "1002")
        #expect(request.query("from_address") == "someone@example.com")
        #expect(request.query("message") == "Is it on? a+b & c=d")
    }

    /// Issue 41's review (D9): the message may have been sent once its request left; contact.php keeps no record.
    @Test("a message cancelled after its request was sent: open (not looked up), not a clean cancellation")
    func cancelledAfterSending() async throws {
        let healthy = SampleReplies.healthy(serverInfo: SampleReplies.serverInfo2x)
        let stub = StubServer { request in
            // contact.php answers after 60 s: the cancel always comes first.
            request.url!.path.hasSuffix("contact.php") ? StubServer.Response(status: 200, body: Data("1".utf8), delay: 60) : healthy(request)
        }
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        let request = connection.sendMessage(toContactOf: meeting, from: "someone@example.com", body: "Is it on?")
        await waitUntil("the contact request is at the server") { stub.requests.contains { $0.url!.path.hasSuffix("contact.php") } }
        request.cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.count(.bmltRequestCancelled) == 0)
        guard case .writeOutcomeUnknown(let open)? = recorder.errors.first else {
            Issue.record("expected an open outcome, got \(recorder.errors)")
            return
        }
        #expect(open.finding == .notLookedUp && open.writeKind == .contactMessage && open.itemID == 2339)
        #expect(!open.description.contains("someone@example.com") && !open.description.contains("Is it on?"))
    }

    @Test("the server's refusal codes become the right rejection", arguments: [
        ("0", BMLTMessageRejection.disabled), ("-1", .noContact), ("-2", .invalidSender), ("-3", .looksLikeSpam), ("-4", .couldNotSend),
    ])
    func rejected(code: String, reason: BMLTMessageRejection) async throws {
        let (connection, _, recorder) = try await connection(contactReply: code + "\n")
        await #expect(throws: BMLTError.messageRejected(reason)) {
            try await connection.sendMessageAndWait(toContactOf: meeting, from: "someone@example.com", body: "Hello")
        }
        #expect(recorder.errors == [.messageRejected(reason)])
        #expect(recorder.count(.bmltMessageSent) == 0)
    }

    @Test("a bad sender address or a spammy body is refused before anything is sent", arguments: [
        ("not-an-email", "Hello", BMLTError.messageRejected(.invalidSender)),
        ("a@b", "Hello", .messageRejected(.invalidSender)),
        ("me@example.org\r\nBcc: x@y.org", "Hello", .messageRejected(.invalidSender)),
        ("me@example.org", "see http://a.example http://b.example https://c.example", .messageRejected(.looksLikeSpam)),
    ])
    func refusedLocally(sender: String, body: String, expected: BMLTError) async throws {
        let (connection, stub, _) = try await connection(contactReply: "1")
        let before = stub.requests.count
        await #expect(throws: expected) { try await connection.sendMessageAndWait(toContactOf: meeting, from: sender, body: body) }
        #expect(stub.requests.count == before)
    }

    @Test("a server with messages switched off, or without contact.php, is refused without a request")
    func unsupported() async throws {
        let (off, offStub, _) = try await connection(contactReply: "1", serverInfo: SampleReplies.serverInfo3x)
        await #expect(throws: BMLTError.messageRejected(.disabled)) {
            try await off.sendMessageAndWait(toContactOf: meeting, from: "someone@example.com", body: "Hello")
        }
        #expect(!offStub.requests.contains { $0.url!.path.hasSuffix("contact.php") })

        let fourX = #"[{"version":"4.0.1","versionInt":"4000001","emailEnabled":"1","langs":"en"}]"#
        let (newer, newerStub, _) = try await connection(contactReply: "1", serverInfo: fourX)
        do {
            try await newer.sendMessageAndWait(toContactOf: meeting, from: "someone@example.com", body: "Hello")
            Issue.record("4.x must be unsupported")
        } catch let error as BMLTError {
            guard case .unsupported(let what) = error else { Issue.record("unexpected \(error)"); return }
            guard case .contactMessages = what else { Issue.record("\(what)"); return }
            #expect(what.description.contains("contact.php"))
        }
        #expect(!newerStub.requests.contains { $0.url!.path.hasSuffix("contact.php") })
    }

    @Test("an HTML page instead of a code is a clear error, not a success")
    func htmlReply() async throws {
        let (connection, _, recorder) = try await connection(contactReply: "<html><body>Not found</body></html>")
        await #expect(throws: BMLTError.malformedResponse(what: .contactMessage,
                                                          detail: .page)) {
            try await connection.sendMessageAndWait(toContactOf: meeting, from: "someone@example.com", body: "Hello")
        }
        #expect(recorder.count(.bmltMessageSent) == 0)
    }

    @Test("the real contact.php captures decode to their codes", .needsCorpus, arguments: [
        ("contact_capability_test.txt", nil), ("contact_no_contacts.txt", BMLTMessageRejection.noContact),
        ("contact_bad_from.txt", .invalidSender), ("contact_wrong_service_body.txt", .looksLikeSpam),
        ("contact_spam_extra_param.txt", .looksLikeSpam),
    ])
    func captures(file: String, expected: BMLTMessageRejection?) throws {
        let reply = HTTPReply(data: try FixtureCorpus.data(FixtureCorpus.legacy, file), statusCode: 200, headers: [:], url: nil)
        if let expected {
            #expect(throws: BMLTError.messageRejected(expected)) { try WireContactReply.decode(reply) }
        } else {
            try WireContactReply.decode(reply)
        }
    }
}
