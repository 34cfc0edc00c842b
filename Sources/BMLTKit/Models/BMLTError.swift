import Foundation

/// Everything that can go wrong talking to a root server, as a value you can switch over.
///
/// Every failure reaches you in exactly one of these cases: through the `.bmltError` notification
/// (`notification.bmltError`), the `lastError` of the connection and the store concerned, or thrown from
/// the `async` form. `localizedDescription` is a sentence a person can act on, in the app's language
/// (`localizedDescription(for:)` for another; `description` is English, for logs); no description ever contains a
/// password or a token. The cases carry structured reasons (``Subject``, ``ReplyProblem``, ``Capability``, …) for
/// writing your own sentence: see <doc:Languages>.
///
/// **New cases come only in a major release** (3.0.0): an exhaustive `switch` over `BMLTError` compiles through every
/// 2.x release. `BMLTError` stays an enum so that `catch BMLTError.timeout` and `if case .unsupported(let what) = error`
/// work; what grows is in its detail types ``Subject`` and ``Argument``, structs with static members, so naming a new
/// one breaks nothing. The other reason enums (``ReplyProblem``, ``NotARootServerReason``, ``Capability``,
/// ``EndpointAnswer``, ``BrokenReply``) are frozen the same way. A `default:` that shows `localizedDescription` is
/// still the kindest arm for the cases an app has nothing special to say about.
///
/// ```swift
/// do { _ = try await connection.validate() }
/// catch BMLTError.cancelled { /* the user gave up */ }
/// catch let error as BMLTError {
///     switch error {
///     case .timeout: print("try again later")
///     case .unsupported(let what): print("not on this server:", what)
///     default: print(error.localizedDescription)   // every other case
///     }
/// }
/// catch { print(error.localizedDescription) }
/// ```
public enum BMLTError: Error, Sendable, Hashable {
    /// The root server URL could not be understood (the text given is attached).
    case invalidURL(String)
    /// An `http://` URL to a host other than loopback, refused because `allowsInsecureHTTP` is off.
    case insecureURLRefused(host: String)
    /// The URL answered, but not like a BMLT root server: why.
    case notARootServer(reason: NotARootServerReason)
    /// The root server is older than BMLTKit supports.
    case unsupportedServerVersion(found: String, minimum: String)
    /// The request never got an HTTP answer: no network, DNS, TLS, refused connection, … — the `URLError` code
    /// says which. Two codes have sentences of their own: a connection lost before any reply (-1005: a dropped
    /// network, or on Apple platforms a server that closes without answering, which libcurl calls an empty reply, a
    /// `.brokenReply`), and on Apple platforms an `http://` load refused by App Transport Security (-1022), naming
    /// the Info.plist exception the app needs.
    case transport(code: Int)
    /// The call did not end within `BMLTConfiguration.timeout`, which counts the whole call: every request, attempt
    /// and retry wait.
    case timeout
    /// The server answered with an HTTP status BMLTKit does not map to a more specific case.
    case httpStatus(code: Int, message: String?)
    /// The answer could not be decoded: what was being read, and what was wrong with it.
    case malformedResponse(what: Subject, detail: ReplyProblem)
    /// The server wants a login (HTTP 401, legacy `NOT AUTHORIZED`), or the login has expired.
    case unauthorized(message: String?)
    /// The login is valid but may not do this (HTTP 403).
    case forbidden(message: String?)
    /// The thing asked for does not exist (HTTP 404).
    case notFound(message: String?)
    /// The server refused because of the current state, e.g. a format still in use (HTTP 409).
    case conflict(message: String?)
    /// The server rejected the data sent (HTTP 422): a message and the messages for each field.
    case validationFailed(message: String?, fieldErrors: [String: [String]])
    /// This server cannot do that: the missing capability.
    case unsupported(Capability)
    /// A message to a meeting contact was refused by the server.
    case messageRejected(BMLTMessageRejection)
    /// The request was cancelled by the caller.
    case cancelled
    /// The answer was larger than the configured limit (in bytes).
    case responseTooLarge(limit: Int)
    /// The call was refused before anything was sent: what is wrong with what was passed.
    case invalidArgument(Argument)
    /// The server was reached but its reply could not be read: cut off before its end, a broken chunk or
    /// compressed body, a head that could not be parsed, or no answer at all on an open connection. The detail
    /// says which, with the HTTP stack's own words kept apart; `code` is its `URLError` code.
    case brokenReply(code: Int, detail: BrokenReply)
    /// A write's answer was lost and what the server now holds could not be found out: neither done nor failed
    /// (which write, what is known, why; see `BMLTUnknownWriteOutcome`). Its sentence never says "Try again".
    indirect case writeOutcomeUnknown(BMLTUnknownWriteOutcome)
    /// The server failed on a write: it answered HTTP 500 or 501 (which write, the status, the server's own words and
    /// what the write may have left behind; see `BMLTWriteFailure`). Sending it again unchanged fails the same way.
    case serverFailedOnWrite(BMLTWriteFailure)
    /// Nothing was sent: the meeting changed on the server since the draft was made, in a field this draft changes
    /// (each such field with its original, the draft's and the server's value, the meeting as the server holds it, and
    /// who changed it and when where the change log says). `draft.rebased(onto: conflict.current)` saves knowingly.
    /// Its sentence never says "Try again": the same draft meets the same conflict.
    indirect case editConflict(BMLTEditConflict)
    /// The meeting a draft was saved to no longer exists on the server: another administrator (or another device)
    /// deleted it (who and when where the change log says). Nothing was saved and the meeting was not made again.
    indirect case meetingDeleted(BMLTDeletedMeeting)
}

/// Why the root server refused a message to a meeting's contact (the codes of `contact.php`).
public enum BMLTMessageRejection: Int, Sendable, Hashable, Codable, CaseIterable {
    /// `0`: the server has messages to contacts switched off.
    case disabled = 0
    /// `-1`: the meeting has no contact address.
    case noContact = -1
    /// `-2`: the sender's address is not a valid email address.
    case invalidSender = -2
    /// `-3`: the server took the message for spam.
    case looksLikeSpam = -3
    /// `-4`: the server could not send the mail.
    case couldNotSend = -4
}

extension BMLTError {
    /// `self`, with an HTTP 500 or 501 answer to a write turned into `.serverFailedOnWrite` (the server's words kept
    /// as its message; other errors unchanged: 502, 503 and 504 come from a gateway or an overloaded server, and trying
    /// again later may well work). `leftBehind`: what the failed write still left on the server, where known.
    func asWriteFailure(_ write: BMLTWriteKind, leftBehind: BMLTWriteFailure.LeftBehind? = nil) -> BMLTError {
        guard case .httpStatus(let code, let message) = self, code == 500 || code == 501 else { return self }
        return .serverFailedOnWrite(BMLTWriteFailure(writeKind: write, code: code, message: message, leftBehind: leftBehind))
    }
}
