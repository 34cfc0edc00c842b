import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer: the body and the response head.
struct HTTPReply: Sendable {
    /// The body bytes.
    var data: Data
    /// The status code.
    var statusCode: Int
    /// The response headers (names as the server sent them).
    var headers: [String: String]
    /// The final URL (after redirects).
    var url: URL?
    /// Where a 2xx body went instead of `data`, when the request asked for it piece by piece (see `BodyConsumer`).
    var consumer: (any BodyConsumer)? = nil
    /// The bytes the consumer was given.
    var consumedBytes = 0
    /// An answer of the response cache: the server's time of the reply it kept (`nil` for an entry without one).
    var cachedServerDate: Date? = nil
    /// An answer of the response cache whose body is a `BMLTSearchResults` encoding (a list brought up to date
    /// from the change log), not a server reply.
    var isCachedSearchResults = false

    /// The body's length, whether kept in `data` or given to the consumer.
    var bodyLength: Int { consumer == nil ? data.count : consumedBytes }

    /// The body as text (UTF-8, falling back to Latin-1 so that no byte sequence fails).
    var text: String {
        String(data: data, encoding: .utf8) ?? String(decoding: data, as: UTF8.self)
    }
}

/// Turns HTTP answers into either a JSON value or a typed `BMLTError`: status codes, HTML pages where JSON
/// was expected, empty bodies, and error objects are all resolved here.
enum WireReply {
    /// Maps a non-2xx status to its typed error, with the server's message when it sent one.
    static func checkStatus(_ reply: HTTPReply) throws(BMLTError) {
        guard !(200..<300).contains(reply.statusCode) else { return }
        let parsed = try? WireValue.parse(reply.data, what: .request)
        let message = parsed?["message"]?.string ?? htmlTitle(reply.data)
        switch reply.statusCode {
        case 401: throw .unauthorized(message: message)
        case 403: throw .forbidden(message: message)
        case 404: throw .notFound(message: message)
        case 408, 504: throw .timeout
        case 409: throw .conflict(message: message)
        case 422: throw .validationFailed(message: message, fieldErrors: fieldErrors(parsed?["errors"]))
        case 300..<400:
            // Followable redirects are followed by the session; one that arrives here was refused (https → http).
            throw .httpStatus(code: reply.statusCode, message: "a redirect to an unencrypted (http) address was refused")
        default: throw .httpStatus(code: reply.statusCode, message: message)
        }
    }

    /// Checks the status, then parses the body as JSON. An HTML page, an empty body or text that is not JSON
    /// becomes `malformedResponse` naming `what` was being read.
    static func json(_ reply: HTTPReply, what: BMLTError.Subject) throws(BMLTError) -> WireValue {
        try checkStatus(reply)
        return try body(reply.data, what: what)
    }

    /// Parses a 2xx answer's body as JSON: an HTML page, an empty body, text that is not JSON or a bare error
    /// object becomes `malformedResponse` naming `what` was being read.
    static func body(_ data: Data, what: BMLTError.Subject) throws(BMLTError) -> WireValue {
        guard let first = data.first(where: { !isWhitespace($0) }) else {
            throw .malformedResponse(what: what, detail: .emptyBody)
        }
        if first == UInt8(ascii: "<") {
            throw .malformedResponse(what: what, detail: .page)
        }
        let value = try WireValue.parse(data, what: what)
        try refuseErrorObject(value, what: what)
        return value
    }

    /// A bare error object (`{"message": …}` with nothing but Laravel's error members) in a 2xx body is an error.
    static func refuseErrorObject(_ value: WireValue, what: BMLTError.Subject) throws(BMLTError) {
        if let members = value.object, let message = members["message"]?.string,
           Set(members.keys).isSubset(of: ["message", "errors", "exception", "file", "line", "trace"]) {
            throw .malformedResponse(what: what, detail: .serverError(message: message))
        }
    }

    /// Laravel's `{"errors":{"field":["message", …]}}`.
    static func fieldErrors(_ value: WireValue?) -> [String: [String]] {
        guard let members = value?.object else { return [:] }
        var result: [String: [String]] = [:]
        for (field, messages) in members {
            result[field] = messages.array?.compactMap(\.string) ?? messages.string.map { [$0] } ?? []
        }
        return result
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    /// The `<title>` of an HTML error page, shortened; `nil` when there is none.
    private static func htmlTitle(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        guard let start = text.range(of: "<title>", options: .caseInsensitive),
              let end = text.range(of: "</title>", options: .caseInsensitive, range: start.upperBound..<text.endIndex)
        else { return nil }
        let title = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : String(title.prefix(120))
    }
}
