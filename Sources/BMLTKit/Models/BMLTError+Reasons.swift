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
    /// What was being read or done when a reply could not be read, or what the server cannot do.
    /// ```swift
    /// if case .malformedResponse(.fieldValues(let key), _) = error { print("the values of", key) }
    /// ```
    public enum Subject: Sendable, Hashable {
        /// `GetServerInfo`, read at validation.
        case serverInfo
        /// A meeting search's meetings.
        case meetingSearch
        /// The formats sent with a meeting search's meetings.
        case searchFormats
        /// The formats a search's meetings use (`GetFormats`).
        case usedFormats
        /// The format list.
        case formats
        /// The service body list.
        case serviceBodies
        /// The change list.
        case changes
        /// Change lists and deleted meetings (refused on an aggregator).
        case changesAndDeletedMeetings
        /// A meeting's changes (refused on an aggregator).
        case meetingChanges
        /// The server's language list.
        case languages
        /// The field keys (`GetFieldKeys`).
        case fieldKeys
        /// The values of a field (`GetFieldValues`).
        case fieldValues(key: String)
        /// The coverage area.
        case coverageArea
        /// The NAWS export.
        case nawsExport
        /// An aggregator's root servers.
        case rootServers
        /// One of an aggregator's root servers.
        case rootServer(id: Int)
        /// Another root server's server info (read through an aggregator).
        case rootServerInfo
        /// A message to a meeting's contact.
        case contactMessage
        /// The login.
        case login
        /// The login token.
        case loginToken
        /// The renewal of the login token.
        case tokenRefresh
        /// The logout.
        case logout
        /// The logged-in user.
        case loggedInUser
        /// The logged-in user's permissions.
        case permissions
        /// The user list.
        case users
        /// The server settings.
        case serverSettings
        /// The HTTP request itself.
        case request
        /// A meeting, by id.
        case meeting(id: Int)
        /// A format, by id.
        case format(id: Int)
        /// A service body, by id.
        case serviceBody(id: Int)
        /// The editors of a service body.
        case serviceBodyEditors(id: Int)
        /// The meetings of a service body (an administrator's list, published or not).
        case serviceBodyMeetings(id: Int)
        /// A user, by id.
        case user(id: Int)
        /// A meeting just created.
        case newMeeting
        /// A meeting just saved.
        case savedMeeting
        /// A meeting's deletion.
        case meetingDeletion
        /// A deleted meeting just restored.
        case restoredMeeting
        /// A meeting's rollback.
        case meetingRollback
        /// A format just created.
        case newFormat
        /// A service body just created.
        case newServiceBody
        /// A user just created.
        case newUser
        /// A server administration call.
        case serverAdministration
        /// Administration (the login).
        case administration
        /// Logging out.
        case loggingOut
        /// Reading the logged-in user's permissions.
        case readingPermissions
        /// Server administration (formats, service bodies, users, settings).
        case serverAdministrationAccess
        /// Creating meetings (an action the server may not allow).
        case creatingMeetings
        /// Saving meetings.
        case savingMeetings
        /// Deleting meetings.
        case deletingMeetings
        /// Restoring deleted meetings.
        case restoringMeetings
        /// Rolling meetings back.
        case rollingBackMeetings
        /// Server administration changes (formats, service bodies, users).
        case serverAdministrationChanges
    }

    /// What was wrong with a reply (`malformedResponse`), or why an address is not a root server.
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
    /// ```swift
    /// if case .invalidArgument(.aggregatorSearchWithoutFilter) = error { print("narrow the search") }
    /// ```
    public enum Argument: Sendable, Hashable {
        /// An empty field key.
        case emptyFieldKey
        /// A search an aggregator would answer with nothing: it has no narrowing filter.
        case aggregatorSearchWithoutFilter
        /// `.nearest(n)` with a time window and `n` below 1: it asks for no meetings (the `n` given).
        case nearestNoneInWindow(Int)
        /// `meetings(matching:updating:)` was given results of another server or another search: they cannot be
        /// brought up to date as these (the mismatch says which).
        case previousResults(PreviousResultsMismatch)
    }

    /// Why a reply that arrived could not be read (`brokenReply`).
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
