import Foundation

/// Everything that can go wrong talking to a root server, as a value you can switch over.
///
/// Every failure reaches you in exactly one of these cases: through the `.bmltError` notification
/// (`notification.bmltError`), the `lastError` of the connection and the store concerned, or thrown from
/// the `async` form. `localizedDescription` is a sentence a person can act on; no description ever contains
/// a password or a token.
///
/// ```swift
/// do { _ = try await connection.validate() }
/// catch let error as BMLTError where error == .cancelled { /* the user gave up */ }
/// catch { print(error.localizedDescription) }
/// ```
public enum BMLTError: Error, Sendable, Hashable {
    /// The root server URL could not be understood (the text given is attached).
    case invalidURL(String)
    /// An `http://` URL to a host other than loopback, refused because `allowsInsecureHTTP` is off.
    case insecureURLRefused(host: String)
    /// The URL answered, but not like a BMLT root server (the reason is attached).
    case notARootServer(reason: String)
    /// The root server is older than BMLTKit supports.
    case unsupportedServerVersion(found: String, minimum: String)
    /// The request never got an HTTP answer: no network, DNS, TLS, refused connection, … Two codes have sentences
    /// of their own: a connection lost before any reply (-1005: a dropped network, or on Apple platforms a server that
    /// closes without answering, which libcurl calls an empty reply, a `.brokenReply`), and on Apple platforms an
    /// `http://` load refused by App Transport Security (-1022), naming the Info.plist exception the app needs.
    case transport(code: Int, description: String)
    /// The call did not end within `BMLTConfiguration.timeout`, which counts the whole call: every request, attempt
    /// and retry wait.
    case timeout
    /// The server answered with an HTTP status BMLTKit does not map to a more specific case.
    case httpStatus(code: Int, message: String?)
    /// The answer could not be decoded: what was being read, and what was wrong with it.
    case malformedResponse(what: String, detail: String)
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
    /// This server cannot do that (the missing capability is named).
    case unsupported(String)
    /// A message to a meeting contact was refused by the server.
    case messageRejected(BMLTMessageRejection)
    /// The request was cancelled by the caller.
    case cancelled
    /// The answer was larger than the configured limit (in bytes).
    case responseTooLarge(limit: Int)
    /// The call was refused before anything was sent: what is wrong with what was passed.
    case invalidArgument(String)
    /// The server was reached but its reply could not be read: cut off before its end, a broken chunk or
    /// compressed body, a head that could not be parsed, or no answer at all on an open connection. The detail
    /// says which, with the HTTP stack's own description; `code` is its `URLError` code.
    case brokenReply(code: Int, detail: String)
    /// A write's answer was lost and what the server now holds could not be found out: neither done nor failed
    /// (which write, what is known, why; see `BMLTUnknownWriteOutcome`). Its sentence never says "Try again".
    indirect case writeOutcomeUnknown(BMLTUnknownWriteOutcome)
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

extension BMLTError: LocalizedError, CustomStringConvertible {
    /// A sentence a person can act on.
    public var errorDescription: String? { description }

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidURL(let text):
            return "“\(text)” is not a root server URL. Use the address of the folder that holds client_interface, e.g. https://example.org/main_server."
        case .insecureURLRefused(let host):
            return "The connection to \(host) would not be encrypted (http://). Use https://, or set allowsInsecureHTTP if you really mean it."
        case .notARootServer(let reason):
            return "This address does not answer like a BMLT root server: \(reason). Check the URL."
        case .unsupportedServerVersion(let found, let minimum):
            return "This root server runs version \(found); BMLTKit needs \(minimum) or newer. Ask the server's administrator to upgrade."
        case .transport(let code, _) where code == -1022:   // NSURLErrorAppTransportSecurityRequiresSecureConnection
            return "App Transport Security refused this http:// connection (code -1022): on Apple platforms the app's Info.plist "
                + "decides whether unencrypted HTTP may load, whatever allowsInsecureHTTP says. Use https://, or add an "
                + "NSAppTransportSecurity exception for this host (NSExceptionDomains; NSAllowsLocalNetworking for a local server)."
        case .transport(let code, _) where code == -1005:   // NSURLErrorNetworkConnectionLost, before any reply
            return "The connection to the server was lost before its reply arrived (code -1005). Try again; if it goes on, "
                + "check the network connection, or the server closes connections without answering."
        case .transport(let code, let description):
            return "The server could not be reached (\(description), code \(code)). Check the network connection and the URL."
        case .timeout:
            return "The server did not answer in time. Try again, or raise the timeout in BMLTConfiguration."
        case .httpStatus(let code, let message) where (400..<500).contains(code):
            return "The server refused the request with HTTP status \(code)" + Self.suffix(message) + ". Check what was asked for."
        case .httpStatus(_, let message?) where message.hasPrefix(Self.writeFailurePrefix):
            return message                                      // a whole sentence: see `serverFailedOnWrite`
        case .httpStatus(let code, let message):
            return "The server answered with HTTP status \(code)" + Self.suffix(message) + ". Try again later or check the URL."
        case .malformedResponse(let what, let detail):
            return "The server's answer to \(what) could not be read: \(detail)."
        case .unauthorized(let message):
            return "The server requires a login" + Self.suffix(message) + ". Log in again."
        case .forbidden(let message):
            return "This login may not do that" + Self.suffix(message) + ". Ask an administrator for the right permissions."
        case .notFound(let message):
            return "The server has no such item" + Self.suffix(message) + ". It may have been deleted; refresh and try again."
        case .conflict(let message):
            return "The server refused because of the current state" + Self.suffix(message) + "."
        case .validationFailed(let message, let fieldErrors):
            let fields = fieldErrors.keys.sorted().map { "\($0): \(fieldErrors[$0]!.joined(separator: " "))" }
            let detail = fields.isEmpty ? "" : " (" + fields.joined(separator: "; ") + ")"
            return "The server rejected the data" + Self.suffix(message) + detail + ". Correct the fields named and save again."
        case .unsupported(let what):
            return "This root server does not support \(what)."
        case .messageRejected(let reason):
            return reason.description
        case .cancelled:
            return "The request was cancelled."
        case .responseTooLarge(let limit):
            return "The server's answer was larger than the limit of \(limit) bytes. Narrow the search or raise maximumResponseSize."
        case .invalidArgument(let problem):
            return "Nothing was sent: \(problem)."
        case .writeOutcomeUnknown(let open):
            return WriteOutcomeSentences.unknown(open)
        case .brokenReply(let code, let detail):
            return "The server was reached, but its reply could not be read: \(detail) (code \(code)). Try again; if it goes on, "
                + "the server or something in front of it sends broken replies."
        }
    }

    /// How the sentence of a write the server failed on begins (`serverFailedOnWrite`).
    static let writeFailurePrefix = "The server failed on this write"

    /// A 5xx answer to a write: the server failed on it (not a wrong URL: the server was reached and answered the
    /// reads). `what`: the write ("creating a meeting"); `leftBehind`: what the failed write still left on the
    /// server, where the generation is known to leave something.
    static func serverFailedOnWrite(code: Int, what: String, leftBehind: String? = nil) -> BMLTError {
        let left = leftBehind.map { " It left something behind all the same: \($0)." } ?? " Read the meeting again to see what the server now holds."
        return .httpStatus(code: code, message: "\(writeFailurePrefix) (\(what)): it answered with HTTP status \(code)."
                                           + left + " Trying again unchanged will fail the same way; tell the server's administrator.")
    }

    /// `self`, with an HTTP 500 or 501 answer to a write turned into `serverFailedOnWrite` (other errors unchanged:
    /// 502, 503 and 504 come from a gateway or an overloaded server, and trying again later may well work).
    func asWriteFailure(_ what: String, leftBehind: String? = nil) -> BMLTError {
        guard case .httpStatus(let code, let message) = self, code == 500 || code == 501,
              !(message ?? "").hasPrefix(Self.writeFailurePrefix) else { return self }
        return .serverFailedOnWrite(code: code, what: what, leftBehind: leftBehind)
    }

    private static func suffix(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return ": “\(message)”"
    }
}

extension BMLTMessageRejection: CustomStringConvertible {
    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .disabled: return "This root server does not forward messages to meeting contacts."
        case .noContact: return "This meeting has no contact to send a message to."
        case .invalidSender: return "The sender's address is not a valid email address. Correct it and send again."
        case .looksLikeSpam: return "The server took the message for spam. Remove links and try again."
        case .couldNotSend: return "The server could not send the message. Try again later."
        }
    }
}
