import Foundation

/// Administration over the REST interface `/api/v1` (root server 3.x and 4.x): a bearer token kept in memory,
/// JSON bodies, 204 answers to PUT/PATCH/DELETE (so saved meetings are read back with GET), and typed errors
/// for 401, 403, 404, 409 and 422.
///
/// Restore and rollback have no REST endpoint: a deleted meeting is restored by creating it again from the
/// deletion's before-image (POST; it gets a new id), and a rollback saves the change's before-image over the
/// meeting (PUT).
struct RESTAdmin: AdminInterface {
    let context: OperationContext
    let formats: [BMLTFormat]
    let info: BMLTServerInfo

    private static let json = "application/json"

    func login(username: String, password: String) async throws(BMLTError) -> AdminLogin {
        let body = WireJSONWriter.object([("username", .string(username)), ("password", .string(password))])
        let reply = try await context.send("POST", "api/v1/auth/token", body: body, contentType: Self.json,
                                           headers: ["Accept": Self.json], countsAsWrite: false)
        let (token, userID) = try WireRESTAuth.token(try WireReply.json(reply, what: .login))
        context.adminSession.begin(token: token, userID: userID)
        return try await permissions()
    }

    func logout() async throws(BMLTError) {
        guard let token = context.adminSession.currentToken else { return }
        let reply = try await context.send("POST", "api/v1/auth/logout", headers: headers(token), countsAsWrite: false)
        try WireReply.checkStatus(reply)
    }

    func permissions() async throws(BMLTError) -> AdminLogin {
        guard let userID = context.adminSession.userID else { return AdminLogin(user: nil, permissions: []) }
        let user: BMLTUser
        do {
            user = WireRESTAuth.user(try await getJSON("api/v1/users/\(userID)", what: .loggedInUser))
                ?? BMLTUser(id: userID, role: .unknown)
        } catch .forbidden, .notFound {
            user = BMLTUser(id: userID, role: .unknown)
        }
        let bodies: WireValue
        do {
            bodies = try await getJSON("api/v1/servicebodies", what: .serviceBodies)
        } catch .forbidden {
            return AdminLogin(user: user, permissions: [])
        }
        return AdminLogin(user: user, permissions: try WireRESTAuth.permissions(serviceBodies: bodies, user: user))
    }

    func refusal(ofEdit draft: BMLTMeetingDraft) -> BMLTError? {
        guard !draft.isNew else { return nil }
        let meeting = AdminFormats.aligned(draft, formats: formats)
        let edited = WireMeetingFieldTable.differences(from: draft.original, to: meeting).map(\.key)
        guard !edited.isEmpty else { return nil }
        let body = WireRESTMeeting.body(meeting, keys: Set(edited), formats: formats, defaultDuration: info.defaultDuration, server: info)
        // Only fields the server neither stores as standard nor defines as custom were edited: nothing to send.
        return body.isEmpty ? .unsupported(.undefinedFields(edited, serverVersion: info.version)) : nil
    }

    func unsentKeys(ofEdit draft: BMLTMeetingDraft, keys: Set<String>) -> Set<String> {
        let meeting = AdminFormats.aligned(draft, formats: formats)
        return keys.filter { key in
            WireRESTMeeting.body(meeting, keys: [key], formats: formats, defaultDuration: info.defaultDuration, server: info).isEmpty
        }
    }

    func save(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult {
        let meeting = AdminFormats.aligned(draft, formats: formats)
        if draft.isNew {
            let created = try await create(meeting)
            return BMLTSaveResult(meeting: created, fieldChanges: WireMeetingFieldTable.differences(from: nil, to: created),
                                  wasCreated: true)
        }
        let edited = WireMeetingFieldTable.differences(from: draft.original, to: meeting).map(\.key)
        guard !edited.isEmpty else {
            return BMLTSaveResult(meeting: try await read(meeting.id), fieldChanges: [], wasCreated: false)
        }
        if let refusal = refusal(ofEdit: draft) { throw refusal }
        let body = WireRESTMeeting.body(meeting, keys: Set(edited), formats: formats, defaultDuration: info.defaultDuration, server: info)
        let query = options.skipVenueTypeLocationValidation ? [URLQueryItem(name: "skipVenueTypeLocationValidation", value: "true")] : []
        try await write("PATCH", meeting.id, query: query, body: body)
        let saved = try await read(meeting.id)
        // Only the fields sent: one the server neither stores nor defines reads back empty, which is no change (R4).
        let sent = Set(edited).subtracting(unsentKeys(ofEdit: draft, keys: Set(edited)))
        return BMLTSaveResult(meeting: saved, fieldChanges: confirmed(Array(sent), before: draft.original, after: saved), wasCreated: false)
    }

    func delete(meetingID: Int) async throws(BMLTError) {
        let reply = try await context.send("DELETE", "api/v1/meetings/\(meetingID)", headers: try await authorized())
        try WireReply.checkStatus(reply)
        context.acknowledgeWrite()
    }

    func restore(_ deletion: BMLTChange) async throws(BMLTError) -> BMLTMeeting {
        guard var before = deletion.before else {
            throw .unsupported(.restoreWithoutCopy)
        }
        before.id = 0
        WireMeetingFieldTable.resolveFormats(&before, formats: formats)
        return try await create(before)
    }

    func rollback(meetingID: Int, toBefore change: BMLTChange) async throws(BMLTError) -> BMLTSaveResult {
        guard change.before != nil else {
            throw .unsupported(.rollbackWithoutCopy)
        }
        let current = try await read(meetingID)
        var draft = current.editable()
        draft.takeBeforeImage(of: change)
        draft.id = meetingID
        let meeting = AdminFormats.aligned(draft, formats: formats)
        try await write("PUT", meetingID, body: WireRESTMeeting.body(meeting, formats: formats, defaultDuration: info.defaultDuration, server: info))
        let saved = try await read(meetingID)
        return BMLTSaveResult(meeting: saved, fieldChanges: WireMeetingFieldTable.differences(from: current, to: saved),
                              wasCreated: false)
    }

    // MARK: - Look-up reads

    func meeting(id: Int) async throws(BMLTError) -> BMLTMeeting { try await read(id) }

    func meetings(serviceBodyID: Int) async throws(BMLTError) -> [BMLTMeeting] {
        let what = BMLTError.Subject.serviceBodyMeetings(id: serviceBodyID)
        let reply = try await context.get("api/v1/meetings", query: [URLQueryItem(name: "serviceBodyIds", value: String(serviceBodyID))],
                                          headers: try await authorized())
        let value = try WireRESTEndpoint.json(reply, path: "meetings", what: what, server: context.serverInfo)
        var meetings: [BMLTMeeting] = []
        for element in value.array ?? [] { meetings.append(try WireRESTMeeting.decode(element, formats: formats, what: what)) }
        return meetings
    }

    func loggedInUserID() async throws(BMLTError) -> Int? { context.adminSession.userID }

    // MARK: - Requests

    private func create(_ meeting: BMLTMeeting) async throws(BMLTError) -> BMLTMeeting {
        let body = WireRESTMeeting.body(meeting, formats: formats, defaultDuration: info.defaultDuration, server: info)
        let reply = try await context.send("POST", "api/v1/meetings", body: WireJSONWriter.object(body), contentType: Self.json,
                                           headers: try await authorized())
        let created = try WireRESTMeeting.decode(try WireReply.json(reply, what: .newMeeting), formats: formats, what: .newMeeting)
        context.acknowledgeWrite()
        return created
    }

    private func write(_ method: String, _ id: Int, query: [URLQueryItem] = [], body: [(String, WireValue)]) async throws(BMLTError) {
        let reply = try await context.send(method, "api/v1/meetings/\(id)", query: query, body: WireJSONWriter.object(body),
                                           contentType: Self.json, headers: try await authorized())
        try WireReply.checkStatus(reply)
        context.acknowledgeWrite()
    }

    private func read(_ id: Int) async throws(BMLTError) -> BMLTMeeting {
        try WireRESTMeeting.decode(try await getJSON("api/v1/meetings/\(id)", what: .meeting(id: id)), formats: formats, what: .meeting(id: id))
    }

    private func getJSON(_ path: String, what: BMLTError.Subject) async throws(BMLTError) -> WireValue {
        try WireRESTEndpoint.json(try await context.get(path, headers: try await authorized()),
                                  path: String(path.dropFirst(path.hasPrefix("api/v1/") ? 7 : 0)), what: what, server: context.serverInfo)
    }

    /// The field changes the server confirmed: of the fields sent, those whose value the server now holds differs
    /// from the value before the edit.
    private func confirmed(_ keys: [String], before: BMLTMeeting?, after: BMLTMeeting) -> [BMLTFieldChange] {
        let sent = Set(keys)
        return WireMeetingFieldTable.differences(from: before, to: after).filter { sent.contains($0.key) }
    }

    private func headers(_ token: String) -> [String: String] {
        ["Authorization": "Bearer " + token, "Accept": Self.json]
    }

    /// Headers with a current token, refreshed first when it is about to expire.
    private func authorized() async throws(BMLTError) -> [String: String] {
        try await Self.authorized(context)
    }

    /// Bearer headers for `context`'s login, refreshing the token first when it is about to expire.
    static func authorized(_ context: OperationContext) async throws(BMLTError) -> [String: String] {
        let token = try await context.adminSession.bearerToken { old throws(BMLTError) in
            let reply = try await context.send("POST", "api/v1/auth/refresh",
                                               headers: ["Authorization": "Bearer " + old, "Accept": RESTAdmin.json], countsAsWrite: false)
            return try WireRESTAuth.token(try WireReply.json(reply, what: .tokenRefresh)).token
        }
        return ["Authorization": "Bearer " + token, "Accept": Self.json]
    }
}

/// Makes a draft's three format fields (objects, keys, ids) agree, using the server's formats, before it is sent.
enum AdminFormats {
    static func aligned(_ draft: BMLTMeetingDraft, formats: [BMLTFormat]) -> BMLTMeeting {
        var meeting = draft.meeting
        let original = draft.original
        if meeting.formatKeys != (original?.formatKeys ?? []) {
            meeting.formatIDs = meeting.formatKeys.compactMap { key in formats.first { $0.key == key }?.id }
        } else if meeting.formats != (original?.formats ?? []) {
            meeting.formatIDs = meeting.formats.map(\.id)
            meeting.formatKeys = meeting.formats.map(\.key)
        } else if meeting.formatIDs != (original?.formatIDs ?? []) {
            meeting.formatKeys = meeting.formatIDs.compactMap { id in formats.first { $0.id == id }?.key }
        }
        meeting.formats = meeting.formatIDs.compactMap { id in formats.first { $0.id == id } }
        return meeting
    }
}
