import Foundation

/// A write the server failed on: it answered HTTP 500 or 501 (not a wrong URL: the server was reached and answered
/// the reads). `BMLTError.serverFailedOnWrite(_:)` carries it: which write, the status, the server's own words kept
/// apart, and what the failed write still left on the server where the server's generation is known to leave
/// something. Sending it again unchanged fails the same way; HTTP 502, 503 and 504 (a gateway, an overloaded server)
/// stay `.httpStatus` and go through the look-up of a lost answer instead.
/// ```swift
/// do {
///     _ = try await connection.saveAndWait(draft)
/// } catch BMLTError.serverFailedOnWrite(let failure) {
///     print(failure.writeKind, failure.code, failure.message ?? "", failure.leftBehind as Any)
/// }
/// ```
public struct BMLTWriteFailure: Sendable, Hashable, CustomStringConvertible {
    /// What a failed write still left on the server. Frozen until the next major release: a remnant a 2.x release has
    /// no case for is `nil` (not known).
    /// ```swift
    /// if case .newMeetingChangeRecord(let version)? = failure.leftBehind { print("a “new” change record of", version) }
    /// ```
    public enum LeftBehind: Sendable, Hashable {
        /// Root server `serverVersion`'s json.php records the "new" change of a meeting before it stores the meeting's
        /// fields, so a creation that fails after that leaves the change record in the change list.
        case newMeetingChangeRecord(serverVersion: String)
    }

    /// The write the server failed on.
    /// ```swift
    /// if failure.writeKind == .createMeeting { print("look at the change list before creating it again") }
    /// ```
    public var writeKind: BMLTWriteKind
    /// The HTTP status it answered (500 or 501).
    public var code: Int
    /// The server's own words, when it sent any (never a sentence of BMLTKit's).
    public var message: String?
    /// What the failed write still left on the server, when the server's generation is known to leave something.
    public var leftBehind: LeftBehind?

    /// A failed write.
    /// ```swift
    /// let failure = BMLTWriteFailure(writeKind: .saveMeeting, code: 500)
    /// ```
    public init(writeKind: BMLTWriteKind, code: Int, message: String? = nil, leftBehind: LeftBehind? = nil) {
        self.writeKind = writeKind
        self.code = code
        self.message = message
        self.leftBehind = leftBehind
    }

    /// What happened and what to do, as an English sentence (the error's `description`).
    /// ```swift
    /// print(BMLTWriteFailure(writeKind: .createMeeting, code: 500))
    /// ```
    public var description: String { WriteOutcomeSentences.failed(self, in: "en") }
}
