import Foundation

/// Administration: login, permissions, saving drafts, deleting, restoring and rolling back meetings.
///
/// Root servers 3.x and 4.x are administered over REST `/api/v1` (a bearer token kept in memory and refreshed
/// before it expires); 2.x over the legacy `json.php` (a cookie session in the connection's own cookie jar).
/// The connection picks the interface (validating the server first if needed); an operation the server cannot
/// do fails at once with `BMLTError.unsupported(…)`. A 401 on any call ends the login and posts
/// `.bmltAdminLoginChanged` (`bmltIsLoggedIn == false`). Passwords and tokens never appear in URLs, logs,
/// notifications or error descriptions.
/// ```swift
/// try await connection.login(username: "nasc_admin", password: secret)
/// var draft = meeting.editable()
/// draft.name = "New name"
/// connection.save(draft)                       // → .bmltMeetingSaved with bmltFieldChanges
/// connection.logout()
/// ```
extension BMLTConnection {
    // MARK: - Login

    /// Logs in and returns when the login is open (`admin.isLoggedIn`, `admin.user`, `admin.permissions` set);
    /// posts `.bmltAdminLoginChanged` (`bmltIsLoggedIn == true`). A login that may edit nothing still succeeds.
    /// Throws `BMLTError.unauthorized` for a wrong name or password.
    public func login(username: String, password: String) async throws {
        _ = try await run(Self.loginOperation(username: username, password: password))
    }

    /// Logs in (the fire-and-forget form of `login(username:password:)`): posts `.bmltAdminLoginChanged`, or
    /// `.bmltError` with `BMLTError.unauthorized` when the name or password is refused. The one action whose
    /// fire-and-forget form is not its bare verb: design/API.md fixed `login` as the `async` form (an app awaits
    /// its login before anything else), so this one carries `start`.
    /// ```swift
    /// connection.startLogin(username: "nasc_admin", password: secret)   // → .bmltAdminLoginChanged
    /// ```
    @discardableResult
    public func startLogin(username: String, password: String) -> BMLTRequest {
        start(Self.loginOperation(username: username, password: password))
    }

    /// Logs out: ends the login on the server, forgets the token and the session cookie, and posts
    /// `.bmltAdminLoginChanged` (`bmltIsLoggedIn == false`). The local login ends even if the server cannot be reached.
    @discardableResult
    public func logout() -> BMLTRequest {
        start(Self.logoutOperation)
    }

    /// The `async` form of `logout()` (the fire-and-forget name + `AndWait`): returns when the server has ended
    /// the login (the local login ends in any case; the error, if any, says what the server answered).
    /// ```swift
    /// try await connection.logoutAndWait()
    /// ```
    public func logoutAndWait() async throws {
        try await run(Self.logoutOperation)
    }

    /// Reads the login's user and permissions again (e.g. after an administrator changed them): the fire-and-forget
    /// form of `permissions()` (a read: `fetch` + the async name); fills `admin.user` and `admin.permissions`.
    /// ```swift
    /// connection.fetchPermissions()
    /// ```
    @discardableResult
    public func fetchPermissions() -> BMLTRequest {
        start(Self.permissionsOperation)
    }

    /// The `async` form of `fetchPermissions()`: returns the permissions, one per service body.
    /// ```swift
    /// let editable = try await connection.permissions().filter(\.canEditMeetings)
    /// ```
    public func permissions() async throws -> [BMLTPermission] {
        try await run(Self.permissionsOperation).permissions
    }

    // MARK: - Meetings

    /// Saves a draft: sends only the fields that changed, then posts `.bmltMeetingSaved` with the meeting as the
    /// server now holds it and the field changes (key, before, after) as the server confirmed them. A draft of
    /// id 0 creates the meeting and posts `.bmltMeetingAdded` with its new id. `search.meetings` is updated in place.
    /// A draft with `problems(in:options:)` fails at once with `BMLTError.validationFailed` naming every field
    /// (posted as `.bmltError`); nothing is sent.
    @discardableResult
    public func save(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions = BMLTSaveOptions()) -> BMLTRequest {
        start(Self.saveOperation(draft, options: options, serviceBodyIDs: knownServiceBodyIDs, language: language))
    }

    /// The `async` form of `save(_:)` (the fire-and-forget name + `AndWait`): returns the saved meeting and the
    /// field changes (for a new meeting `wasCreated` and its new id in `meeting.id`).
    /// ```swift
    /// let saved = try await connection.saveAndWait(draft)
    /// print(saved.meeting.id, saved.fieldChanges.map(\.key))
    /// ```
    public func saveAndWait(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions = BMLTSaveOptions()) async throws -> BMLTSaveResult {
        try await run(Self.saveOperation(draft, options: options, serviceBodyIDs: knownServiceBodyIDs, language: language))
    }

    /// The fields of `draft` the connected server's generation would refuse, checked here without sending
    /// anything: on REST servers (3.x, 4.x) a meeting needs a service body, a day, a start time, latitude and
    /// longitude and a name; an in-person meeting a street and a city with a state/province, or a postal code;
    /// a virtual one a link or a phone number; a hybrid one both; the time zone must be an IANA name; the
    /// VM/HY/TC formats follow from the venue type. 2.x has none of these rules, but its `json.php` cannot take some
    /// fields at all: a draft that changes `venue_type` or `shared_group_id_bigint` (2.16.6 fails with HTTP 500),
    /// `email_contact` (2.x erases it) or `admin_notes` (none before 4.0) has that field named — a copy's unchanged
    /// values of them are fine (they are not sent). Before the server is validated the REST rules are used.
    /// ```swift
    /// let problems = connection.problems(in: draft)
    /// if problems.isEmpty { connection.save(draft) } else { show(problems) }
    /// ```
    public func problems(in draft: BMLTMeetingDraft, options: BMLTSaveOptions = BMLTSaveOptions()) -> [BMLTFieldProblem] {
        MeetingDraftRules.problems(in: draft, info: server.info, formats: server.formats,
                                   serviceBodyIDs: knownServiceBodyIDs, options: options, language: language)
    }

    /// A draft of meeting `id` made from the administration interface's own read (REST `GET /api/v1/meetings/{id}` on
    /// 3.x/4.x, `json.php`'s `get_meetings` on 2.x): every field as the server holds it, hidden fields included (3.x and
    /// 4.x leave the contact fields out of every search, even with a token), formats as the write reads them. The
    /// documented way to start an edit: the save's edit check then compares like with like. A draft made from a
    /// search (`meeting.editable()`) saves too; a field its search could not see is treated as unknown there, never as
    /// changed by someone else (see "Two admins, one meeting" in the Administration article). Needs a login; posts no
    /// event (its request's kind is `.serverAdministration`) and keeps the draft in `admin.editableMeeting`; throws
    /// `BMLTError.notFound` for a meeting the server does not hold.
    /// ```swift
    /// var draft = try await connection.editableMeeting(id: 2339)
    /// draft.contactPhone1 = "555-0100"          // hidden from searches: read here as the server holds it
    /// let saved = try await connection.saveAndWait(draft)
    /// ```
    public func editableMeeting(id: Int) async throws -> BMLTMeetingDraft {
        try await run(Self.editableMeetingOperation(id: id))
    }

    /// Reads meeting `id` for editing (the fire-and-forget form of `editableMeeting(id:)`: a read, `fetch` + the async
    /// name): fills `admin.editableMeeting` with the draft; posts no notification (observe the `admin` store), or
    /// `.bmltError` when it fails.
    /// ```swift
    /// connection.fetchEditableMeeting(id: 2339)   // → connection.admin.editableMeeting
    /// ```
    @discardableResult
    public func fetchEditableMeeting(id: Int) -> BMLTRequest {
        start(Self.editableMeetingOperation(id: id))
    }

    static func editableMeetingOperation(id: Int) -> Operation<BMLTMeetingDraft> {
        Operation(
            kind: .serverAdministration,
            work: { context throws(BMLTError) in
                let (route, generation) = try await AdminGateway.loggedIn(context, for: .meeting(id: id))
                let meeting = try await AdminGateway.guarded(context, generation: generation) { () async throws(BMLTError) in
                    try await route.interface.meeting(id: id)
                }
                return BMLTSaveResult(meeting: meeting, fieldChanges: [], wasCreated: false).draft
            },
            succeed: { connection, draft, _ in
                connection.admin.lastError = nil
                connection.admin.editableMeeting = draft
                return []
            },
            fail: { connection, error, request in connection.adminFailed(error, request) }
        )
    }

    /// The ids of the service bodies the connection knows (empty before validation).
    private var knownServiceBodyIDs: Set<Int> { Set(server.serviceBodies.map(\.id)) }

    /// Deletes a meeting: posts `.bmltMeetingDeleted` and removes it from `search.meetings`.
    @discardableResult
    public func deleteMeeting(id: Int) -> BMLTRequest {
        start(Self.deleteOperation(id: id))
    }

    /// The `async` form of `deleteMeeting(id:)` (the fire-and-forget name + `AndWait`).
    /// ```swift
    /// try await connection.deleteMeetingAndWait(id: 42)
    /// ```
    public func deleteMeetingAndWait(id: Int) async throws {
        _ = try await run(Self.deleteOperation(id: id))
    }

    /// Brings back a deleted meeting from its deletion record (from `deletedMeetings(…)` or the change list):
    /// posts `.bmltMeetingAdded` with the meeting as the server now holds it. On 2.x the server restores it
    /// under its old id; over REST (3.x, 4.x) it is created again from the deletion's before-image, with a new id.
    @discardableResult
    public func restoreDeletedMeeting(_ deletion: BMLTChange) -> BMLTRequest {
        start(Self.restoreOperation(deletion))
    }

    /// The `async` form of `restoreDeletedMeeting(_:)` (the fire-and-forget name + `AndWait`): returns the restored
    /// meeting with the id it has now. 2.x restores it under its old id; 3.x and 4.x create it again, with a new id
    /// (compare it with `deletion.meetingID`: select the meeting by the returned id from now on).
    /// ```swift
    /// let restored = try await connection.restoreDeletedMeetingAndWait(deletion)
    /// if restored.id != deletion.meetingID { print("restored as #\(restored.id)") }
    /// ```
    public func restoreDeletedMeetingAndWait(_ deletion: BMLTChange) async throws -> BMLTMeeting {
        try await run(Self.restoreOperation(deletion))
    }

    /// Puts a meeting back as it was before `change`: posts `.bmltMeetingSaved` with the meeting as the server
    /// now holds it. On 2.x the server's rollback is used; over REST the change's before-image is saved over
    /// the meeting (PUT).
    @discardableResult
    public func rollback(meetingID: Int, toBefore change: BMLTChange) -> BMLTRequest {
        start(Self.rollbackOperation(meetingID: meetingID, change: change))
    }

    /// The `async` form of `rollback(meetingID:toBefore:)` (the fire-and-forget name + `AndWait`): returns the
    /// meeting and what changed.
    /// ```swift
    /// let result = try await connection.rollbackAndWait(meetingID: 42, toBefore: change)
    /// ```
    public func rollbackAndWait(meetingID: Int, toBefore change: BMLTChange) async throws -> BMLTSaveResult {
        try await run(Self.rollbackOperation(meetingID: meetingID, change: change))
    }
}

extension BMLTConnection {
    /// What an admin operation's work hands to its success: its value and a validation done on the way.
    struct AdminOutcome<Value: Sendable>: Sendable {
        var value: Value
        var validation: ServerValidation?
    }

    static func loginOperation(username: String, password: String) -> Operation<AdminOutcome<AdminLogin>> {
        Operation(
            kind: .login,
            work: { context throws(BMLTError) in
                context.adminSession.end()
                do throws(BMLTError) {
                    let route = try await AdminGateway.route(context, for: .administration)
                    let login = try await route.interface.login(username: username, password: password)
                    return AdminOutcome(value: login, validation: route.validation)
                } catch {
                    context.adminSession.end()      // a token may have arrived before the failure
                    throw error
                }
            },
            succeed: { connection, outcome, request in
                connection.store(outcome.validation)
                connection.admin.isLoggedIn = connection.adminSession.isLoggedIn
                connection.admin.user = outcome.value.user
                connection.admin.permissions = outcome.value.permissions
                connection.admin.lastError = nil
                return [.adminLoginChanged(isLoggedIn: connection.admin.isLoggedIn, request: request)]
            },
            fail: { connection, error, request in connection.adminFailed(error, request) },
            cancelled: { connection, request in
                // The login may be half open (a token received, permissions not yet read): close it. A login
                // starts by ending the previous one, so that one is over too.
                connection.adminSession.end()
                connection.transport.cookies.removeAll()
                guard connection.admin.isLoggedIn else { return [] }
                connection.clearLogin()
                return [.adminLoginChanged(isLoggedIn: false, request: request)]
            }
        )
    }

    static let logoutOperation = Operation<Void>(
        kind: .logout,
        work: { context throws(BMLTError) in
            defer {
                context.adminSession.end()
                context.transport.cookies.removeAll()
            }
            guard context.adminSession.isLoggedIn else { return }
            let route = try await AdminGateway.route(context, for: .loggingOut)
            do throws(BMLTError) {
                try await route.interface.logout()
            } catch .unauthorized {
                // The server had already ended the login: logged out is what was asked.
            }
        },
        succeed: { connection, _, request in
            let wasLoggedIn = connection.admin.isLoggedIn
            connection.clearLogin()
            return wasLoggedIn ? [.adminLoginChanged(isLoggedIn: false, request: request)] : []
        },
        fail: { connection, error, request in connection.adminFailed(error, request) }
    )

    static let permissionsOperation = Operation<AdminLogin>(
        kind: .permissions,
        work: { context throws(BMLTError) in
            let (route, generation) = try await AdminGateway.loggedIn(context, for: .readingPermissions)
            return try await AdminGateway.guarded(context, generation: generation) { () async throws(BMLTError) in
                try await route.interface.permissions()
            }
        },
        succeed: { connection, login, _ in
            connection.admin.user = login.user
            connection.admin.permissions = login.permissions
            return []
        },
        fail: { connection, error, request in connection.adminFailed(error, request) }
    )

    /// An operation that needs an open login: it picks the interface, runs `body`, and on a 401 ends the login.
    static func adminOperation<Value: Sendable>(
        kind: BMLTRequestKind, what: BMLTError.Subject,
        _ body: @escaping @Sendable (AdminWrite) async throws(BMLTError) -> Value,
        succeed: @escaping @MainActor @Sendable (BMLTConnection, Value, BMLTRequest) -> [BMLTEvent]
    ) -> Operation<Value> {
        var operation = Operation(
            kind: kind,
            work: { context throws(BMLTError) in
                try AggregatorRefusal.writes(context.serverInfo, what)
                let (route, generation) = try await AdminGateway.loggedIn(context, for: what)
                do throws(BMLTError) {
                    // Sent to the background mid-write, the app asks for the time to finish the write and its look-up.
                    return try await WriteBackgroundTime.run("BMLTKit: writes") { () async throws(BMLTError) in
                        try await AdminGateway.guarded(context, generation: generation) { () async throws(BMLTError) in
                            try await body(AdminWrite(context: context, route: route, generation: generation))
                        }
                    }
                } catch {
                    // A 500 or 501 is the server failing on this write, not a wrong URL.
                    guard let write = BMLTWriteKind(what) else { throw error }
                    throw error.asWriteFailure(write)
                }
            },
            succeed: { connection, value, request in
                connection.admin.lastError = nil
                return succeed(connection, value, request)
            },
            fail: { connection, error, request in connection.adminFailed(error, request) }
        )
        operation.outcomeSurvivesCancel = true       // cancelled after sending: what the server holds is reported
        return operation
    }
}
