/// The structured reasons `BMLTError`'s cases carry: what was being read or done, what was wrong, what the server
/// lacks — values to switch over and write your own sentence from. The server's own words (its messages, an
/// unexpected answer) stay apart in `String` payloads; BMLTKit's sentences come from ``BMLTLocalization``'s tables.
///
/// ```swift
/// switch error {
/// case .malformedResponse(.meetingSearch, .page): print("The server sent a web page, not meetings.")
/// case .unsupported(.serverSettings): print("Settings need root server 4.0.")
/// case .notARootServer(.noClientInterface): print("Wrong address?")
/// default: print(error.localizedDescription)
/// }
/// ```
extension BMLTError {
    /// What was wrong with a reply (`malformedResponse`), or why an address is not a root server.
    /// Frozen until the next major release: a new case only in 3.0.0, so an exhaustive `switch` over it compiles through 2.x.
    /// ```swift
    /// if case .malformedResponse(_, .serverError(let words)) = error { print("the server said:", words) }
    /// ```
    public enum ReplyProblem: Sendable, Hashable {
        /// The answer was not HTTP.
        case notHTTP
        /// The answer had no HTTP head.
        case noHTTPHead
        /// The body (or the file) is empty.
        case emptyBody
        /// An HTML or XML page came instead of JSON.
        case page
        /// The body is not valid JSON: the byte where reading stopped.
        case invalidJSON(offset: Int)
        /// A JSON error object came with a success status: the server's message.
        case serverError(message: String)
        /// The server answered a word BMLTKit does not know (the legacy interface's answers): that word.
        case unexpectedAnswer(String)
        /// The reply is not shaped as expected: the shape expected, in wire notation (e.g. `[meeting]`,
        /// `{access_token, expires_at}`, `OK | NOT AUTHORIZED`).
        case unexpectedShape(expected: String)
        /// None of the `count` entries has a usable `key`.
        case noUsableEntry(count: Int, key: String)
        /// A file that is not UTF-8 text.
        case notUTF8
        /// The NAWS export's first row is not its column header.
        case notNAWSHeader
        /// A result code BMLTKit does not know (`contact.php`).
        case unknownResultCode(Int)
        /// The server reported another meeting than the one sent.
        case meetingMismatch(sent: Int, reported: Int)
        /// The server's list changed between a cut reply and its retry, after `delivered` meetings were handed over.
        case listChangedOnRetry(delivered: Int)
        /// An answer of another kind than the call asked for.
        case unexpectedResult
    }

    /// Why an address is not a BMLT root server (`notARootServer`).
    /// Frozen until the next major release: a new case only in 3.0.0, so an exhaustive `switch` over it compiles through 2.x.
    /// ```swift
    /// if case .notARootServer(.noClientInterface) = error { print("no client_interface there") }
    /// ```
    public enum NotARootServerReason: Sendable, Hashable {
        /// No `client_interface` at this address (HTTP 404).
        case noClientInterface
        /// `GetServerInfo`'s reply could not be read.
        case unreadable(ReplyProblem)
        /// `GetServerInfo` returned an empty list.
        case emptyServerInfo
        /// `GetServerInfo` did not return an object.
        case serverInfoNotAnObject
        /// `GetServerInfo` has no version.
        case noVersion
        /// The version is not a version number: the text the server sent.
        case versionNotANumber(String)
    }

    /// What this server cannot do (`unsupported`).
    /// Frozen until the next major release: a new case only in 3.0.0, so an exhaustive `switch` over it compiles through 2.x.
    /// ```swift
    /// if case .unsupported(.endpoint(let subject, _, let path, let version, _)) = error { print(subject, path, version ?? "?") }
    /// ```
    public enum Capability: Sendable, Hashable {
        /// An administration action on a server with neither the REST `/api/v1` nor the `json.php` interface on.
        case administration(Subject, serverVersion: String)
        /// Changing fields the server's version does not define.
        case undefinedFields([String], serverVersion: String)
        /// Restoring a deletion whose change record names no meeting.
        case restoreWithoutMeetingID
        /// Restoring a deletion whose change record holds no copy of the meeting.
        case restoreWithoutCopy
        /// Rolling back a change whose record holds no copy of the meeting before it.
        case rollbackWithoutCopy
        /// Server settings (`/api/v1/settings`, root server 4.0 on).
        case serverSettings
        /// An aggregator-only read on a server that is not one: the server's message.
        case notAnAggregator(Subject, serverMessage: String?)
        /// Server administration, which needs the REST interface of root server 3.0 or later.
        case serverAdministration
        /// Messages to meeting contacts (`contact.php` not served): the server's version, and whether it is an
        /// aggregator.
        case contactMessages(serverVersion: String, aggregator: Bool)
        /// A change-log read on an aggregator (it deletes its change log at every import).
        case aggregatorChangeLog(Subject)
        /// A write on an aggregator (it refuses every write with 403).
        case aggregatorWrite(Subject)
        /// An `/api/v1` endpoint this server version does not have: what was asked, the method and path (under
        /// `/api/v1/`), the server's version (`nil`: not validated yet) and how it answered.
        case endpoint(Subject, method: String, path: String, serverVersion: String?, answer: EndpointAnswer)
        /// A legacy administration action the server answered `BAD ADMIN ACTION`.
        case legacyAdminAction
    }

    /// How a server showed it has no such `/api/v1` endpoint.
    /// Frozen until the next major release: a new case only in 3.0.0, so an exhaustive `switch` over it compiles through 2.x.
    /// ```swift
    /// let answer = BMLTError.EndpointAnswer.notFound(introducedIn: "4.2.0")
    /// ```
    public enum EndpointAnswer: Sendable, Hashable {
        /// An HTML page with this (2xx) status instead of JSON.
        case page(status: Int)
        /// A 404 with an HTML page.
        case pageNotFound
        /// A 404 from a server older than the endpoint's version.
        case notFound(introducedIn: String)
    }

    /// What is wrong with what was passed (`invalidArgument`); nothing was sent.
    ///
    /// A struct with a static member per reason (like ``Subject``), so a new reason in a minor release breaks no
    /// `switch`: match by name (`case .emptyFieldKey:`, `case .nearestNoneInWindow(0):`) and the rest with `default`.
    /// ```swift
    /// if case .invalidArgument(.aggregatorSearchWithoutFilter) = error { print("narrow the search") }
    /// ```
    public struct Argument: Sendable, Hashable, CustomStringConvertible {
        /// The key of its phrase in the string tables (`argument.<name>`).
        let key: String
        /// The number passed, for a reason about one (`nearestNoneInWindow(_:)`); `nil` for the others.
        /// ```swift
        /// print(BMLTError.Argument.nearestNoneInWindow(0).value ?? 1)   // 0
        /// ```
        public let value: Int?

        /// The seconds given, for a reason about a duration (`invalidTimeout(_:)`); `nil` for the others.
        /// ```swift
        /// print(BMLTError.Argument.invalidTimeout(-1).seconds ?? 0)   // -1.0
        /// ```
        public let seconds: Double?

        init(_ key: String, value: Int? = nil, seconds: Double? = nil) {
            self.key = key
            self.value = value
            self.seconds = seconds
        }

        /// Equal when the reason, its number and its seconds are; seconds that are both NaN are equal (a NaN `Double`
        /// equals nothing, itself included, and a reason holding one would make `BMLTError` unequal to itself).
        /// ```swift
        /// let reason = BMLTError.Argument.invalidTimeout(.nan)
        /// print(reason == reason, BMLTError.invalidArgument(reason) == .invalidArgument(reason))   // true true
        /// ```
        public static func == (lhs: Argument, rhs: Argument) -> Bool {
            guard lhs.key == rhs.key, lhs.value == rhs.value else { return false }
            switch (lhs.seconds, rhs.seconds) {
            case (nil, nil): return true
            case let (left?, right?): return left == right || (left.isNaN && right.isNaN)
            default: return false
            }
        }

        /// Hashes what `==` compares: every NaN alike, `0` and `-0` alike.
        /// ```swift
        /// let reasons: Set = [BMLTError.Argument.invalidTimeout(.nan), .invalidTimeout(-.nan)]
        /// print(reasons.count)   // 1
        /// ```
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
            switch seconds {
            case nil: hasher.combine(0 as UInt8)
            case let seconds? where seconds.isNaN: hasher.combine(1 as UInt8)
            case let seconds?: hasher.combine(2 as UInt8); hasher.combine(seconds)
            }
        }

        /// The reason's stable name (`"emptyFieldKey"`, …), the same in every release and language.
        /// ```swift
        /// print(BMLTError.Argument.emptyFieldKey.name)   // emptyFieldKey
        /// ```
        public var name: String { String(key.dropFirst("argument.".count)) }

        /// The English phrase, e.g. "a field key is needed".
        /// ```swift
        /// print(BMLTError.Argument.emptyFieldKey)   // a field key is needed
        /// ```
        public var description: String { phrase(in: "en") }

        func phrase(in language: String) -> String {
            StringTables.text(key, value.map { [String($0)] } ?? seconds.map { [String($0)] } ?? [], language: language)
        }

        // Adding a reason: one `static let name = Argument("argument.<name>")` line (a `static func` for one that
        // carries a number) and its phrase in the twelve tables.

        /// An empty field key.
        public static let emptyFieldKey = Argument("argument.emptyFieldKey")
        /// A search an aggregator would answer with nothing: it has no narrowing filter.
        public static let aggregatorSearchWithoutFilter = Argument("argument.aggregatorSearchWithoutFilter")
        /// `.nearest(n)` with a time window and `n` below 1: it asks for no meetings (the `n` given).
        public static func nearestNoneInWindow(_ wanted: Int) -> Argument { Argument("argument.nearestNoneInWindow", value: wanted) }
        /// `BMLTConfiguration.timeout` is not a number of seconds above 0 (NaN, zero or negative: the value given, in
        /// `seconds`). Every call of the connection is refused with it, before anything is sent. The error equals
        /// itself whatever the value: two reasons holding NaN are equal (`==` above), so `lastError == lastError`, a
        /// `Set` and SwiftUI's `onChange(of:)` behave.
        /// ```swift
        /// if case .invalidArgument(let reason) = error, reason.name == "invalidTimeout" {
        ///     print("timeout", reason.seconds ?? 0, "is not usable")
        /// }
        /// ```
        public static func invalidTimeout(_ seconds: Double) -> Argument { Argument("argument.invalidTimeout", seconds: seconds) }
        /// A new meeting's draft saved again after its creation, with edits that cannot be told apart from what the
        /// creation sent (its meeting, `value`, was never read back): nothing was sent. Edit that meeting instead —
        /// `editableMeeting(id:)` — or save a new draft for another meeting.
        /// ```swift
        /// if case .invalidArgument(let reason) = error, reason.name == "draftAlreadyCreated", let id = reason.value {
        ///     let draft = try await connection.editableMeeting(id: id)
        /// }
        /// ```
        public static func draftAlreadyCreated(meetingID: Int) -> Argument { Argument("argument.draftAlreadyCreated", value: meetingID) }
        /// `meetings(matching:updating:)` was given results of another server or another search: they cannot be
        /// brought up to date as these (the mismatch says which).
        /// ```swift
        /// if case .invalidArgument(.previousResults(.otherSearch)) = error { print("search anew") }
        /// ```
        public static func previousResults(_ mismatch: PreviousResultsMismatch) -> Argument {
            switch mismatch {
            case .otherServer: return Argument("argument.previousResults.otherServer")
            case .otherSearch: return Argument("argument.previousResults.otherSearch")
            }
        }
    }

    /// Why a reply that arrived could not be read (`brokenReply`).
    /// Frozen until the next major release: a new case only in 3.0.0, so an exhaustive `switch` over it compiles through 2.x.
    /// ```swift
    /// if case .brokenReply(_, .cutOff(let bytes, _, _)) = error { print("cut off after", bytes, "bytes") }
    /// ```
    public enum BrokenReply: Sendable, Hashable {
        /// Cut off or damaged after `afterBytes` bytes of the body (of `expectedBytes` announced, when known); `stack`:
        /// the HTTP stack's own words where they are its own (libcurl's on Linux), addresses removed.
        case cutOff(afterBytes: Int, expectedBytes: Int?, stack: String?)
        /// The reply could not be read at all; `stack` as above.
        case unreadable(stack: String?)
    }
}
