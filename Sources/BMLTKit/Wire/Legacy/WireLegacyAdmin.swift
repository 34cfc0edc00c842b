import Foundation

/// The legacy admin interface's replies (`local_server/server_admin/json.php`, root server 2.x).
///
/// The server builds XML, converts it with `json_encode(…, JSON_NUMERIC_CHECK)` and patches the result with
/// regular expressions, so: numbers arrive as JSON numbers (ids, postal codes), empty fields are left out, a
/// list of one is a bare object and a longer one `{"row":[…]}` (or an array under the element's name),
/// `@attributes` sometimes survive and sometimes are flattened, and refusals are the text `NOT AUTHORIZED` (no
/// session) or the JSON `["NOT AUTHORIZED"]` (this login may not do that). Everything is decoded leniently here;
/// a reply that still cannot be understood is a `malformedResponse`, never a silent success.
enum WireLegacyAdmin {
    /// The reply to `admin_action=login`: `OK`, or `NOT AUTHORIZED` for a wrong name or password (and, on
    /// 2.x, always for the server administrator account).
    static func login(_ reply: HTTPReply) throws(BMLTError) {
        try WireReply.checkStatus(reply)
        switch reply.text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "OK": return
        case "NOT AUTHORIZED":
            throw .unauthorized(message: "the user name or password was not accepted (root server 2.x also refuses the server administrator account here)")
        default:
            throw .malformedResponse(what: .login, detail: .unexpectedShape(expected: "OK | NOT AUTHORIZED"))
        }
    }

    /// The reply to `admin_action=logout`: `BYE` (or `NOT AUTHORIZED` when the session had already ended).
    static func logout(_ reply: HTTPReply) throws(BMLTError) {
        try WireReply.checkStatus(reply)
        switch reply.text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "BYE", "NOT AUTHORIZED": return
        default: throw .malformedResponse(what: .logout, detail: .unexpectedShape(expected: "BYE"))
        }
    }

    /// Any other action's reply as JSON, with the interface's refusals turned into errors.
    static func json(_ reply: HTTPReply, what: BMLTError.Subject) throws(BMLTError) -> WireValue {
        try WireReply.checkStatus(reply)
        let text = reply.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text == "NOT AUTHORIZED" || text == "<h1>NOT AUTHORIZED</h1>" {
            throw .unauthorized(message: "the administrator session has ended")
        }
        if text == "BAD ADMIN ACTION" {
            throw .unsupported(.legacyAdminAction)
        }
        let value = try WireReply.json(reply, what: what)
        if let only = value.array, only.count == 1, let word = only[0].string {
            switch word {
            case "NOT AUTHORIZED": throw .forbidden(message: "the root server does not allow this login to do that")
            case "BAD ADMIN ACTION": throw .unsupported(.legacyAdminAction)
            default: throw .malformedResponse(what: what, detail: .unexpectedAnswer(word))
            }
        }
        return value
    }

    /// The elements of a list that may be one bare object, `{"row":[…]}`, `{"<element>":…}` or an array.
    /// `isEntry` tells a single entry from a wrapper.
    static func entries(_ value: WireValue, element: String? = nil, isEntry: (WireValue) -> Bool) -> [WireValue]? {
        switch value {
        case .array(let elements): return elements.allSatisfy { $0.object != nil } ? elements : nil
        case .object(let members):
            if members.isEmpty { return [] }
            if isEntry(value) { return [value] }
            for key in ["row", element].compactMap({ $0 }) {
                if let inner = members[key] { return entries(inner, isEntry: isEntry) }
            }
            return nil
        case .string(let text) where text.isEmpty: return []
        default: return nil
        }
    }

    /// `get_permissions`: `{"service_body":{"id","name","permissions"}}` or a list of them; none is an empty list.
    static func permissions(_ value: WireValue) throws(BMLTError) -> [BMLTPermission] {
        guard let list = entries(value, element: "service_body", isEntry: { $0["permissions"] != nil }) else {
            throw .malformedResponse(what: .permissions, detail: .unexpectedShape(expected: "[{service_body}]"))
        }
        return list.compactMap { entry in
            guard let id = entry["id"]?.int ?? entry["@attributes"]?["id"]?.int else { return nil }
            let raw = entry["permissions"]?.int ?? entry["@attributes"]?["permissions"]?.int ?? 1
            let level = BMLTPermissionLevel(rawValue: min(3, max(1, raw))) ?? .observer
            return BMLTPermission(serviceBodyID: id, serviceBodyName: entry["name"]?.string, level: level)
        }
    }

    /// `get_user_info`: `{"current_user":{"id","name","type"}}` (type 1 server admin, 2 service body admin,
    /// 4 deactivated, 5 observer).
    static func user(_ value: WireValue) -> BMLTUser? {
        let current = value["current_user"] ?? value
        guard let id = current["id"]?.int else { return nil }
        let role: BMLTUserRole = switch current["type"]?.int {
        case 1: .serverAdministrator
        case 2: .serviceBodyAdministrator
        case 4: .deactivated
        case 5: .observer
        default: .unknown
        }
        return BMLTUser(id: id, displayName: current["name"]?.string, role: role)
    }

    /// `modify_meeting` / `add_meeting`: the meeting's id and the field changes the server made, each with the
    /// old and new text (a side left out by the server was empty).
    static func fieldChanges(_ value: WireValue, what: BMLTError.Subject) throws(BMLTError) -> (meetingID: Int, changes: [BMLTFieldChange]) {
        guard let id = (value["changeMeeting"] ?? value["newMeeting"])?["id"]?.int else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "{changeMeeting | newMeeting: {id}}"))
        }
        var changes: [BMLTFieldChange] = []
        func add(_ entry: WireValue, key: String?) {
            guard let key = key ?? entry["@attributes"]?["key"]?.string ?? entry["key"]?.string else { return }
            changes.append(BMLTFieldChange(key: key, before: entry["oldValue"]?.string, after: entry["newValue"]?.string))
        }
        switch value["field"] {
        case .array(let fields)?:
            for field in fields { add(field, key: nil) }
        case .object(let members)? where members["oldValue"] == nil && members["newValue"] == nil:
            // One field, flattened: {"field":{"key":"published"},"oldValue":1}
            add(value, key: members["key"]?.string ?? members["@attributes"]?["key"]?.string)
        case .object?:
            if let field = value["field"] { add(field, key: nil) }
        default:
            break
        }
        return (id, changes)
    }

    /// The meeting id in a `delete_meeting`, `restore_deleted_meeting` or `rollback_meeting_to_before_change` reply.
    static func meetingID(_ value: WireValue, what: BMLTError.Subject) throws(BMLTError) -> Int {
        guard let id = value["meeting_id"]?.int ?? value["meetingId"]?.int ?? value["@attributes"]?["id"]?.int, id > 0 else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "{id}"))
        }
        return id
    }

    /// `get_meetings`: meetings as the admin sees them (unpublished ones and hidden fields included).
    static func meetings(_ value: WireValue, formats: [BMLTFormat], what: BMLTError.Subject) throws(BMLTError) -> [BMLTMeeting] {
        guard let list = entries(value, isEntry: { $0["id_bigint"] != nil }) else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "[{meeting}]"))
        }
        return list.compactMap { entry in entry.object.flatMap { WireMeetingFieldTable.meeting(from: $0, formats: formats) } }
    }

    /// A form body (`application/x-www-form-urlencoded`): names and values fully percent-encoded, so `&`, `=`,
    /// `+` and non-ASCII text in a password or a meeting field arrive intact.
    static func form(_ items: [(String, String)]) -> Data {
        Data(items.map { formEncode($0.0) + "=" + formEncode($0.1) }.joined(separator: "&").utf8)
    }

    private static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? ""
    }

    private static let formAllowed: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._*")
        return allowed
    }()
}
