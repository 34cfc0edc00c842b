import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One REST bearer token.
struct DemoToken: Sendable {
    var userID: Int
    var expires: Date
}

/// The demo server's mutable state: the data set, the issued tokens and the request log, behind one lock.
///
/// `@unchecked Sendable`: every stored property is only read or written inside `lock.withLock`, so the
/// store can be shared between the URL loading threads that run `BMLTDemoServer` instances.
final class DemoStore: @unchecked Sendable {
    /// The process-wide store behind every `BMLTDemoServer` instance.
    static let shared = DemoStore()

    private let lock = NSLock()
    private var data = DemoData.make()
    private var tokens: [String: DemoToken] = [:]
    private var tokenCounter = 0
    private var log: [URLRequest] = []

    /// A copy of the data set, for read-only routes.
    var snapshot: DemoDataSet { lock.withLock { data } }

    /// Runs `body` with exclusive access to the data set.
    func mutate<R>(_ body: (inout DemoDataSet) throws -> R) rethrows -> R {
        try lock.withLock { try body(&data) }
    }

    /// Restores the pristine data set and forgets all tokens and logged requests.
    func reset() {
        let pristine = DemoData.make()
        lock.withLock {
            data = pristine
            tokens = [:]
            log = []
        }
    }

    func record(_ request: URLRequest) { lock.withLock { log.append(request) } }
    var requests: [URLRequest] { lock.withLock { log } }

    // MARK: Tokens

    /// Issues a new token for `userID`, valid 7 days: `"<n>|<40 random characters>"` like Sanctum.
    func issueToken(for userID: Int, now: Date = Date()) -> (String, DemoToken) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        let secret = String((0..<40).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        return lock.withLock {
            tokenCounter += 1
            let text = "\(tokenCounter)|\(secret)"
            let token = DemoToken(userID: userID, expires: now.addingTimeInterval(7 * 86_400))
            tokens[text] = token
            return (text, token)
        }
    }

    /// The user id of a token that is known and not expired.
    func user(forToken text: String, now: Date = Date()) -> Int? {
        lock.withLock {
            guard let token = tokens[text], token.expires > now else { return nil }
            return token.userID
        }
    }

    /// Lets a token expire `seconds` from now (refresh gives the old token a short grace period).
    func expire(_ text: String, in seconds: TimeInterval, now: Date = Date()) {
        lock.withLock {
            guard var token = tokens[text] else { return }
            token.expires = min(token.expires, now.addingTimeInterval(seconds))
            tokens[text] = token
        }
    }

    func revoke(_ text: String) { _ = lock.withLock { tokens.removeValue(forKey: text) } }
}
