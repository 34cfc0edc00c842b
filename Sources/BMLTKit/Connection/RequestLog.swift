import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How much BMLTKit logs through `BMLTConfiguration.logHandler`.
public enum BMLTLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Nothing (the default).
    case off = 0
    /// Failed requests only.
    case errors = 1
    /// Every request's outcome (method, address, status, size, time).
    case requests = 2
    /// Also each attempt as it starts (retries included).
    case debug = 3

    /// Orders from `off` to `debug`.
    public static func < (lhs: BMLTLogLevel, rhs: BMLTLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes request log lines with secrets and personal data removed: only the method and the address are logged —
/// never headers (where tokens and cookies travel) or bodies (where passwords travel) — and query values whose names
/// suggest a secret, or that carry a person's words (a contact message's sender address and text), are replaced by
/// `<redacted>`.
struct RequestLog: Sendable {
    let level: BMLTLogLevel
    let handler: (@Sendable (BMLTLogLevel, String) -> Void)?

    private static let secretNames = ["password", "passwd", "token", "secret", "auth", "key", "session"]
    /// Query names whose values are personal data: `contact.php`'s sender address and message (the only GET that
    /// carries them: the server reads its parameters from the query).
    private static let personalNames: Set<String> = ["from_address", "message"]

    // The writers below that put their line together are called from `async` functions (the transport's, the operation
    // context's) and kept out of line (`@inline(never)`): inlined, the strings they may build would be laid out in each
    // caller's task frame, which every request in flight holds.

    @inline(never)
    func request(_ request: URLRequest, attempt: Int) {
        guard let handler, level >= .debug else { return }
        handler(.debug, "→ \(request.httpMethod ?? "GET") \(Self.redacted(request.url))" + (attempt > 0 ? " (retry \(attempt))" : ""))
    }

    @inline(never)
    func outcome(_ request: URLRequest, _ outcome: Result<HTTPReply, BMLTError>, seconds: TimeInterval) {
        guard let handler else { return }
        // Only put together for a line that is written (at `.errors`, every successful request passes through here).
        var head: String { "\(request.httpMethod ?? "GET") \(Self.redacted(request.url))" }
        var time: String { String(format: "%.3f s", seconds) }
        switch outcome {
        case .success(let reply) where level >= .requests || (level >= .errors && reply.statusCode >= 400):
            handler(reply.statusCode >= 400 ? .errors : .requests, "← \(reply.statusCode) \(head) \(reply.bodyLength) bytes in \(time)")
        case .failure(let error) where level >= .errors && error != .cancelled:
            // `description`: log lines are English whatever the device speaks (a support mail reads the same everywhere).
            handler(.errors, "✕ \(head) failed in \(time): \(error.description)")
        case .failure(.cancelled) where level >= .requests:
            handler(.requests, "✕ \(head) cancelled after \(time)")
        default:
            break
        }
    }

    /// A line about how a request was answered other than by the server (e.g. from the response cache), at the
    /// `.requests` level.
    func note(_ text: String) {
        guard let handler, level >= .requests else { return }
        handler(.requests, text)
    }

    /// The warning that the server printed PHP's messages around the JSON it sent to `url` (salvaged; see `WirePHPNoise`).
    @inline(never)
    func phpMessages(at url: URL?, _ firstMessage: String) {
        warning("\(Self.redacted(url)): the server printed PHP messages around its JSON "
                + "(PHP's display_errors is on; its administrator should turn it off): \(firstMessage)")
    }

    /// A warning about the server (e.g. PHP printing its notices into replies), at the `.errors` level.
    func warning(_ text: String) {
        guard let handler, level >= .errors else { return }
        handler(.errors, "warning: " + text)
    }

    /// The URL with secret-looking and personal query values replaced and any user/password removed.
    static func redacted(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "?" }
        components.user = nil
        components.password = nil
        components.queryItems = components.queryItems?.map { item in
            let name = item.name.lowercased()
            let hidden = secretNames.contains(where: name.contains) || personalNames.contains(name)
            return hidden ? URLQueryItem(name: item.name, value: "<redacted>") : item
        }
        return components.string ?? "?"
    }
}
