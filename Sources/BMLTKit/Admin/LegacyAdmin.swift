import Foundation

/// Administration over the legacy interface `local_server/server_admin/json.php` (root server 2.x): a PHP
/// session cookie in the connection's own cookie jar, form-encoded POST bodies for the login and every change
/// (never the URL), and the server's own restore and rollback actions.
struct LegacyAdmin: AdminInterface {
    let context: OperationContext
    let formats: [BMLTFormat]
    let info: BMLTServerInfo

    private static let path = "local_server/server_admin/json.php"
    private static let form = "application/x-www-form-urlencoded"

    func login(username: String, password: String) async throws(BMLTError) -> AdminLogin {
        context.transport.cookies.removeAll()
        let reply = try await post([("admin_action", "login"), ("c_comdef_admin_login", username),
                                    ("c_comdef_admin_password", password)])
        try WireLegacyAdmin.login(reply)
        context.adminSession.beginLegacy()
        return try await permissions()
    }

    func logout() async throws(BMLTError) {
        try WireLegacyAdmin.logout(try await context.get(Self.path, query: [URLQueryItem(name: "admin_action", value: "logout")],
                                                        retryable: false))
    }

    func permissions() async throws(BMLTError) -> AdminLogin {
        let permissions = try WireLegacyAdmin.permissions(try await action("get_permissions", what: .permissions))
        let user = WireLegacyAdmin.user(try await action("get_user_info", what: .loggedInUser))
        return AdminLogin(user: user, permissions: permissions)
    }

    func save(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult {
        let meeting = AdminFormats.aligned(draft, formats: formats)
        // Only what json.php stores as sent: the draft rules have refused a change of the fields it cannot take
        // (venue_type: HTTP 500; email_contact: erased); a copy's unchanged values of them are left out too.
        if let key = MeetingDraftRules.legacyRefusedKeys(in: draft).first {
            let language = context.language   // a safety net: `save` checked first
            throw MeetingDraftRules.error(MeetingDraftRules.legacyProblems(in: draft, version: info.version, language: language)
                .filter { $0.key == key }, language: language)
        }
        let edited = WireMeetingFieldTable.differences(from: draft.isNew ? nil : draft.original, to: meeting)
            .filter { !MeetingDraftRules.legacyUnsentKeys.contains($0.key) }
        let fields = edited.filter { $0.key != "service_body_bigint" || !draft.isNew }
            .map { ("meeting_field[]", $0.key + "," + ($0.after ?? "")) }
        if draft.isNew {
            let reply = try await post([("admin_action", "add_meeting"), ("service_body_id", String(meeting.serviceBodyID))] + fields)
            let id: Int
            do throws(BMLTError) {
                (id, _) = try WireLegacyAdmin.fieldChanges(try WireLegacyAdmin.json(reply, what: .newMeeting), what: .newMeeting)
                context.acknowledgeWrite(id: id)     // a read-back lost after this is looked up by this id (R3)
            } catch {
                // add_meeting makes the meeting and records its "new" change before it stores the fields: a
                // failure after that leaves the record (and the empty meeting it names) on the server.
                throw error.asWriteFailure(.createMeeting, leftBehind: .newMeetingChangeRecord(serverVersion: info.version))
            }
            let created = try await read(id)
            return BMLTSaveResult(meeting: created, fieldChanges: WireMeetingFieldTable.differences(from: nil, to: created), wasCreated: true)
        }
        guard !fields.isEmpty else {
            return BMLTSaveResult(meeting: try await read(meeting.id), fieldChanges: [], wasCreated: false)
        }
        let reply = try await post([("admin_action", "modify_meeting"), ("meeting_id", String(meeting.id))] + fields)
        let (id, changes) = try WireLegacyAdmin.fieldChanges(try WireLegacyAdmin.json(reply, what: .savedMeeting),
                                                             what: .savedMeeting)
        guard id == meeting.id else {
            throw .malformedResponse(what: .savedMeeting, detail: .meetingMismatch(sent: meeting.id, reported: id))
        }
        context.acknowledgeWrite()
        return BMLTSaveResult(meeting: try await read(id), fieldChanges: changes, wasCreated: false)
    }

    func delete(meetingID: Int) async throws(BMLTError) {
        let reply = try await post([("admin_action", "delete_meeting"), ("meeting_id", String(meetingID))])
        let id = try WireLegacyAdmin.meetingID(try WireLegacyAdmin.json(reply, what: .meetingDeletion), what: .meetingDeletion)
        guard id == meetingID else {
            throw .malformedResponse(what: .meetingDeletion, detail: .meetingMismatch(sent: meetingID, reported: id))
        }
        context.acknowledgeWrite()
    }

    func restore(_ deletion: BMLTChange) async throws(BMLTError) -> BMLTMeeting {
        guard let meetingID = deletion.meetingID ?? deletion.before?.id, meetingID > 0 else {
            throw .unsupported(.restoreWithoutMeetingID)
        }
        let reply = try await post([("admin_action", "restore_deleted_meeting"), ("meeting_id", String(meetingID))])
        let id = try WireLegacyAdmin.meetingID(try WireLegacyAdmin.json(reply, what: .restoredMeeting), what: .restoredMeeting)
        context.acknowledgeWrite()
        return try await read(id)
    }

    func rollback(meetingID: Int, toBefore change: BMLTChange) async throws(BMLTError) -> BMLTSaveResult {
        let current = try await read(meetingID)
        let reply = try await post([("admin_action", "rollback_meeting_to_before_change"), ("meeting_id", String(meetingID)),
                                    ("change_id", String(change.id))])
        let id = try WireLegacyAdmin.meetingID(try WireLegacyAdmin.json(reply, what: .meetingRollback), what: .meetingRollback)
        context.acknowledgeWrite()
        let saved = try await read(id)
        return BMLTSaveResult(meeting: saved, fieldChanges: WireMeetingFieldTable.differences(from: current, to: saved), wasCreated: false)
    }

    // MARK: - Look-up reads

    func meeting(id: Int) async throws(BMLTError) -> BMLTMeeting { try await read(id) }

    func meetings(serviceBodyID: Int) async throws(BMLTError) -> [BMLTMeeting] {
        let what = BMLTError.Subject.serviceBodyMeetings(id: serviceBodyID)
        let value = try await action("get_meetings", [URLQueryItem(name: "services[]", value: String(serviceBodyID)),
                                                      URLQueryItem(name: "advanced_published", value: "0")], what: what)
        return try WireLegacyAdmin.meetings(value, formats: formats, what: what)
    }

    func loggedInUserID() async throws(BMLTError) -> Int? {
        WireLegacyAdmin.user(try await action("get_user_info", what: .loggedInUser))?.id
    }

    // MARK: - Requests

    /// The meeting as the administrator sees it (unpublished meetings and hidden fields included).
    private func read(_ id: Int) async throws(BMLTError) -> BMLTMeeting {
        let value = try await action("get_meetings", [URLQueryItem(name: "meeting_ids[]", value: String(id))], what: .meeting(id: id))
        guard let meeting = try WireLegacyAdmin.meetings(value, formats: formats, what: .meeting(id: id)).first(where: { $0.id == id }) else {
            throw .notFound(message: "meeting \(id)")
        }
        return meeting
    }

    private func action(_ name: String, _ query: [URLQueryItem] = [], what: BMLTError.Subject) async throws(BMLTError) -> WireValue {
        let reply = try await context.get(Self.path, query: [URLQueryItem(name: "admin_action", value: name)] + query)
        return try WireLegacyAdmin.json(reply, what: what)
    }

    /// A POST to json.php; a login's (`admin_action=login`) is not a write (see `OperationContext.send`).
    private func post(_ items: [(String, String)]) async throws(BMLTError) -> HTTPReply {
        try await context.send("POST", Self.path, body: WireLegacyAdmin.form(items), contentType: Self.form,
                               countsAsWrite: items.first?.1 != "login")
    }
}
