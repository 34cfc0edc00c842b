import Foundation

/// One of the two administration interfaces a root server offers: REST `/api/v1` (3.x, 4.x) or the legacy
/// `json.php` (2.x). Both answer with the same clean values; the operations in `BMLTConnection+Admin` never
/// know which one they talk to.
protocol AdminInterface: Sendable {
    /// Logs in; returns who logged in and what they may do.
    func login(username: String, password: String) async throws(BMLTError) -> AdminLogin
    /// Ends the login on the server (the local session is closed by the caller whatever happens).
    func logout() async throws(BMLTError)
    /// Reads the login's user and permissions again.
    func permissions() async throws(BMLTError) -> AdminLogin
    /// Saves a draft: sends only what changed (all fields for a new meeting) and reads the meeting back.
    func save(_ draft: BMLTMeetingDraft, options: BMLTSaveOptions) async throws(BMLTError) -> BMLTSaveResult
    /// Deletes a meeting.
    func delete(meetingID: Int) async throws(BMLTError)
    /// Brings a deleted meeting back; returns it as the server now holds it.
    func restore(_ deletion: BMLTChange) async throws(BMLTError) -> BMLTMeeting
    /// Puts a meeting back as it was before a change; returns it and what changed.
    func rollback(meetingID: Int, toBefore change: BMLTChange) async throws(BMLTError) -> BMLTSaveResult

    // The look-up after a lost answer (`WriteLookUp`): reads only.

    /// A meeting as the administrator sees it (unpublished meetings and hidden fields included); `.notFound` when
    /// the server does not hold it.
    func meeting(id: Int) async throws(BMLTError) -> BMLTMeeting
    /// The meetings of a service body as the administrator sees them (unpublished ones included).
    func meetings(serviceBodyID: Int) async throws(BMLTError) -> [BMLTMeeting]
    /// The id of the logged-in user, asked of the server where the interface does not keep it (`.unauthorized` when
    /// the login has ended); `nil` when the server does not say.
    func loggedInUserID() async throws(BMLTError) -> Int?
    /// Why this interface would send nothing for an edit of an existing meeting, known before anything is read or
    /// sent (REST: only fields the server neither stores nor defines were edited); `nil` when it would send.
    func refusal(ofEdit draft: BMLTMeetingDraft) -> BMLTError?
    /// Of the fields an edit changes, those this interface never sends (REST: fields the server neither stores nor
    /// defines): the edit-conflict check leaves them out.
    func unsentKeys(ofEdit draft: BMLTMeetingDraft, keys: Set<String>) -> Set<String>
}

extension AdminInterface {
    func refusal(ofEdit draft: BMLTMeetingDraft) -> BMLTError? { nil }
    func unsentKeys(ofEdit draft: BMLTMeetingDraft, keys: Set<String>) -> Set<String> { [] }
}

/// Who logged in and what they may do.
struct AdminLogin: Sendable {
    var user: BMLTUser?
    var permissions: [BMLTPermission]
}

/// What a save, creation or rollback did: the meeting as the server now holds it, and the fields that changed.
public struct BMLTSaveResult: Sendable, Hashable, Codable {
    /// The meeting as the server holds it after the save (read back from the server).
    public var meeting: BMLTMeeting
    /// The fields the server changed, by wire key, with their text before and after.
    public var fieldChanges: [BMLTFieldChange]
    /// Whether the save created a new meeting (its new id is `meeting.id`): the result that reports a creation, once
    /// per meeting — the save that made it, or, when that save ended in an open outcome, the save of the same draft
    /// that found it. The same draft saved again afterwards reports a save (`false`).
    public var wasCreated: Bool
    /// For an update: what the write's answer and its read-back show changed on the server between the edit-conflict
    /// check and the read-back other than by this save (another administrator's change that slipped into that window;
    /// see "Two admins, one meeting" in the Administration article); `[]` when nothing did. `nil` when no check was
    /// made (a creation, a rollback).
    /// ```swift
    /// let saved = try await connection.saveAndWait(draft)
    /// for field in saved.changedMeanwhile ?? [] { print(field.key, field.original ?? "", field.theirs ?? "") }
    /// ```
    public var changedMeanwhile: [BMLTFieldConflict]? = nil

    /// A draft of the meeting as saved, to go on editing it: its original is the meeting as the server holds it after
    /// the save (the administration interface's read, hidden fields included), so the next save sends only what is
    /// changed from here and its edit check compares like with like. A form that keeps its draft after Save keeps this
    /// one (saving the old one again works too: see "Saving a created draft again" in the Administration article).
    /// ```swift
    /// var draft = try await connection.saveAndWait(draft).draft   // id is the meeting's, original as saved
    /// draft.comments = "Second floor"
    /// ```
    public var draft: BMLTMeetingDraft {
        var draft = BMLTMeetingDraft(meeting)
        draft.markSaved(as: meeting)
        return draft
    }

    /// A save result.
    public init(meeting: BMLTMeeting, fieldChanges: [BMLTFieldChange], wasCreated: Bool) {
        self.meeting = meeting
        self.fieldChanges = fieldChanges
        self.wasCreated = wasCreated
    }
}

/// Chooses the interface for a connection's server, validating the server first when that has not happened.
enum AdminGateway {
    /// The interface to use, and the validation done on the way (to be stored by the operation's success).
    struct Route: Sendable {
        var interface: any AdminInterface
        var kind: AdminSession.Interface
        var validation: ServerValidation?
        /// The server info the choice was made from, and the server's formats.
        var info: BMLTServerInfo
        var formats: [BMLTFormat]
    }

    /// REST when the server has it, the legacy interface when that is all it has; `.unsupported` naming
    /// `what` otherwise (no request is sent to the admin interface).
    static func route(_ context: OperationContext, for what: BMLTError.Subject) async throws(BMLTError) -> Route {
        var validation: ServerValidation?
        var formats = context.serverFormats
        let info: BMLTServerInfo
        if let known = context.serverInfo {
            info = known
        } else {
            let fresh = try await ServerValidator.validate(context)
            validation = fresh
            info = fresh.info
            formats = fresh.formats
        }
        let capabilities = validation?.capabilities ?? ServerValidator.capabilities(of: info)
        if capabilities.contains(.restAdmin) {
            return Route(interface: RESTAdmin(context: context, formats: formats, info: info), kind: .rest, validation: validation,
                         info: info, formats: formats)
        }
        if capabilities.contains(.legacyAdmin) {
            return Route(interface: LegacyAdmin(context: context, formats: formats, info: info), kind: .legacy, validation: validation,
                         info: info, formats: formats)
        }
        throw .unsupported(.administration(what, serverVersion: info.version))
    }

    /// The interface of the open login: the same generation must still be open when the reply comes back.
    static func loggedIn(_ context: OperationContext, for what: BMLTError.Subject) async throws(BMLTError) -> (route: Route, generation: Int) {
        let generation = context.adminSession.generation
        guard let open = context.adminSession.interface else {
            throw .unauthorized(message: nil)                 // no login yet: "log in again" says what to do
        }
        let route = try await route(context, for: what)
        guard route.kind == open else { throw .unauthorized(message: nil) }
        return (route, generation)
    }

    /// Runs an admin call; a 401 (or the legacy `NOT AUTHORIZED`) ends the login it was made with.
    static func guarded<Value>(_ context: OperationContext, generation: Int,
                               _ body: () async throws(BMLTError) -> Value) async throws(BMLTError) -> Value {
        do {
            return try await body()
        } catch .unauthorized(let message) {
            if context.adminSession.end(ifGeneration: generation) { context.transport.cookies.removeAll() }
            throw .unauthorized(message: message)
        }
    }
}
