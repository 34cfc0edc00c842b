import Foundation

/// The REST administration resources (`/api/v1/formats`, `servicebodies`, `users`, `settings`, `rootservers`)
/// ↔ BMLTKit's value types. Members in the order the spec lists them; unknown members ignored; missing
/// optional members absent.
enum WireRESTResources {
    // MARK: Formats

    static func format(_ value: WireValue) -> BMLTAdminFormat? {
        guard let members = value.object, let id = members["id"]?.int else { return nil }
        let translations = (members["translations"]?.array ?? []).compactMap { entry -> BMLTAdminFormat.Translation? in
            guard let object = entry.object, let language = object["language"]?.string else { return nil }
            return BMLTAdminFormat.Translation(key: object["key"]?.rawString ?? "", name: object["name"]?.rawString ?? "",
                                               description: object["description"]?.rawString ?? "", language: language)
        }
        return BMLTAdminFormat(id: id, worldID: members["worldId"]?.string, type: members["type"]?.string.flatMap(WireFormat.formatType),
                               translations: translations)
    }

    static func body(_ format: BMLTAdminFormat) -> [(String, WireValue)] {
        [
            ("worldId", format.worldID.map(WireValue.string) ?? .null),
            ("type", format.type.map { .string($0.restName) } ?? .null),   // REST's vocabulary, whichever was given
            ("translations", .array(format.translations.map { translation in
                .object(["key": .string(translation.key), "name": .string(translation.name),
                         "description": .string(translation.description), "language": .string(translation.language)])
            })),
        ]
    }

    // MARK: Service bodies

    static func serviceBody(_ value: WireValue) -> BMLTAdminServiceBody? {
        guard let members = value.object, let id = members["id"]?.int else { return nil }
        let parent = members["parentId"]?.int
        return BMLTAdminServiceBody(
            id: id, parentID: parent == 0 ? nil : parent, name: members["name"]?.rawString ?? "",
            description: members["description"]?.rawString ?? "", type: members["type"]?.rawString ?? "",
            adminUserID: members["adminUserId"]?.int ?? 0,
            assignedUserIDs: (members["assignedUserIds"]?.array ?? []).compactMap(\.int),
            url: members["url"]?.rawString ?? "", helpline: members["helpline"]?.rawString ?? "",
            email: members["email"]?.rawString ?? "", worldID: members["worldId"]?.rawString ?? "")
    }

    static func body(_ body: BMLTAdminServiceBody) -> [(String, WireValue)] {
        [
            ("parentId", body.parentID.map { .integer(Int64($0)) } ?? .null),
            ("name", .string(body.name)), ("description", .string(body.description)), ("type", .string(body.type)),
            ("adminUserId", .integer(Int64(body.adminUserID))),
            ("assignedUserIds", .array(body.assignedUserIDs.map { .integer(Int64($0)) })),
            ("url", .string(body.url)), ("helpline", .string(body.helpline)), ("email", .string(body.email)),
            ("worldId", .string(body.worldID)),
        ]
    }

    static func editor(_ value: WireValue) -> BMLTServiceBodyEditor? {
        guard let members = value.object, let id = members["userId"]?.int else { return nil }
        return BMLTServiceBodyEditor(userID: id, displayName: members["displayName"]?.rawString ?? "",
                                     isReadOnly: members["readOnly"]?.bool ?? false)
    }

    // MARK: Users

    static func user(_ value: WireValue) -> BMLTAdminUser? {
        guard let members = value.object, let id = members["id"]?.int else { return nil }
        return BMLTAdminUser(id: id, username: members["username"]?.rawString ?? "", type: members["type"]?.rawString ?? "",
                             displayName: members["displayName"]?.rawString ?? "", description: members["description"]?.rawString ?? "",
                             email: members["email"]?.rawString ?? "", ownerID: members["ownerId"]?.int,
                             lastLoginAt: members["lastLoginAt"]?.string)
    }

    /// A user's body; the password, when given, is the last member (and only ever in a body).
    static func body(_ user: BMLTAdminUser, password: String?) -> [(String, WireValue)] {
        var members: [(String, WireValue)] = [
            ("username", .string(user.username)), ("type", .string(user.type)), ("displayName", .string(user.displayName)),
            ("description", .string(user.description)), ("email", .string(user.email)),
            ("ownerId", user.ownerID.map { .integer(Int64($0)) } ?? .null),
        ]
        if let password { members.append(("password", .string(password))) }
        return members
    }

    // MARK: Settings and root servers

    static func settings(_ value: WireValue) -> BMLTServerSettings? {
        guard let members = value.object else { return nil }
        return BMLTServerSettings(values: members.mapValues(json))
    }

    static func json(_ value: WireValue) -> BMLTJSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array(let elements): .array(elements.map(json))
        case .object(let members): .object(members.mapValues(json))
        }
    }

    static func wire(_ value: BMLTJSONValue) -> WireValue {
        switch value {
        case .string(let text): .string(text)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .integer(Int64(number)) : .double(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array(let elements): .array(elements.map(wire))
        case .object(let members): .object(members.mapValues(wire))
        }
    }

    static func rootServer(_ value: WireValue) -> BMLTRootServer? { WireRootServer.decode(value) }

    // MARK: Lists

    /// A list reply decoded entry by entry; an entry that is not the expected object is an error, not a gap.
    static func list<Value>(_ value: WireValue, what: BMLTError.Subject, _ decode: (WireValue) -> Value?) throws(BMLTError) -> [Value] {
        guard let entries = value.array else { throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "[…]")) }
        var values: [Value] = []
        for entry in entries {
            guard let decoded = decode(entry) else { throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "[{id}]")) }
            values.append(decoded)
        }
        return values
    }

    /// One object reply.
    static func one<Value>(_ value: WireValue, what: BMLTError.Subject, _ decode: (WireValue) -> Value?) throws(BMLTError) -> Value {
        guard let decoded = decode(value) else { throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "{id}")) }
        return decoded
    }

    /// The members of `edited` whose value differs from `original` (a PATCH body).
    static func changes(_ edited: [(String, WireValue)], from original: [(String, WireValue)]) -> [(String, WireValue)] {
        let before = Dictionary(original, uniquingKeysWith: { first, _ in first })
        return edited.filter { before[$0.0] != $0.1 }
    }
}
