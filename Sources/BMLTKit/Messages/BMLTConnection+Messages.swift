import Foundation

extension BMLTConnection {
    /// Sends a message to a meeting's contact through the root server (`client_interface/contact.php`); the
    /// server, not the app, knows the contact's address. Posts `.bmltMessageSent` (`bmltMessageSent == true`)
    /// or `.bmltError` with `BMLTError.messageRejected(reason)`.
    ///
    /// Checked before anything is sent: the sender's address (the server's own rule), more than two links (the
    /// server would call it spam), and whether the server has the endpoint at all (`.unsupported` on 4.x and
    /// aggregators, `.messageRejected(.disabled)` when the server has messages switched off).
    /// ```swift
    /// connection.sendMessage(toContactOf: meeting, from: "me@example.org", body: "Is the meeting still on?")
    /// ```
    @discardableResult
    public func sendMessage(toContactOf meeting: BMLTMeeting, from sender: String, body: String) -> BMLTRequest {
        start(Self.message(to: meeting, from: sender, body: body))
    }

    /// The `async` form of `sendMessage(toContactOf:from:body:)` (the fire-and-forget name + `AndWait`): returns
    /// when the server has sent the message, throws `BMLTError.messageRejected(reason)` (or another `BMLTError`) otherwise.
    /// ```swift
    /// try await connection.sendMessageAndWait(toContactOf: meeting, from: "me@example.org", body: "Is it still on?")
    /// ```
    public func sendMessageAndWait(toContactOf meeting: BMLTMeeting, from sender: String, body: String) async throws {
        try await run(Self.message(to: meeting, from: sender, body: body))
    }

    static func message(to meeting: BMLTMeeting, from sender: String, body: String) -> Operation<Void> {
        var operation = Operation(
            kind: .sendMessage,
            work: { context throws(BMLTError) in
                let trimmedSender = sender.trimmingCharacters(in: .whitespaces)
                guard WireContactReply.isAcceptableSender(trimmedSender) else { throw .messageRejected(.invalidSender) }
                guard WireContactReply.linkCount(body) <= 2 else { throw .messageRejected(.looksLikeSpam) }
                let info = try await context.requireServerInfo()
                guard info.majorVersion < 4, !info.aggregatorModeEnabled else {
                    throw .unsupported(.contactMessages(serverVersion: info.version, aggregator: info.aggregatorModeEnabled))
                }
                guard info.emailEnabled else { throw .messageRejected(.disabled) }
                // contact.php reads GET parameters only, and treats any extra parameter as spam.
                // A lost answer leaves the message's fate open (the server keeps no record of it to look up).
                try await LostAnswer.unsettled(context, write: .contactMessage, id: meeting.id) { () async throws(BMLTError) in
                    // Handed to the network from here on: a cancel after this leaves the message's fate open.
                    if Task.isCancelled { throw .cancelled }
                    context.writes.withLock { $0.sent += 1 }
                    let reply = try await context.get("client_interface/contact.php", query: [
                        URLQueryItem(name: "meeting_id", value: String(meeting.id)),
                        URLQueryItem(name: "service_body_id", value: String(meeting.serviceBodyID)),
                        URLQueryItem(name: "from_address", value: trimmedSender),
                        URLQueryItem(name: "message", value: body),
                    ], retryable: false)
                    try WireContactReply.decode(reply)
                }
            },
            succeed: { _, _, request in [.messageSent(true, request: request)] }
        )
        operation.outcomeSurvivesCancel = true       // cancelled after sending: the message's fate is open, not cancelled
        return operation
    }
}
