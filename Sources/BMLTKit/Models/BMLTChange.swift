import Foundation

/// One entry of a root server's change history: who changed which meeting when, with the meeting as it was
/// before and after.
public struct BMLTChange: Sendable, Hashable, Codable, Identifiable {
    /// The change's id.
    public var id: Int
    /// When the change was made.
    public var date: Date?
    /// What kind of change it was.
    public var type: BMLTChangeType
    /// The meeting changed.
    public var meetingID: Int?
    /// The meeting's name at the time.
    public var meetingName: String?
    /// The user who made the change.
    public var userID: Int?
    /// The user's name.
    public var userName: String?
    /// The meeting's service body.
    public var serviceBodyID: Int?
    /// The service body's name.
    public var serviceBodyName: String?
    /// Whether the meeting still exists (`false` for a meeting deleted since).
    public var meetingExists: Bool?
    /// The server's description of the change.
    public var details: String?
    /// The meeting before the change (absent for a creation).
    public var before: BMLTMeeting?
    /// The meeting after the change (absent for a deletion).
    public var after: BMLTMeeting?

    /// A change value.
    public init(id: Int, date: Date? = nil, type: BMLTChangeType, meetingID: Int? = nil, meetingName: String? = nil,
                userID: Int? = nil, userName: String? = nil, serviceBodyID: Int? = nil, serviceBodyName: String? = nil,
                meetingExists: Bool? = nil, details: String? = nil, before: BMLTMeeting? = nil, after: BMLTMeeting? = nil) {
        self.id = id
        self.date = date
        self.type = type
        self.meetingID = meetingID
        self.meetingName = meetingName
        self.userID = userID
        self.userName = userName
        self.serviceBodyID = serviceBodyID
        self.serviceBodyName = serviceBodyName
        self.meetingExists = meetingExists
        self.details = details
        self.before = before
        self.after = after
    }
}

/// The kind of a change.
public enum BMLTChangeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A meeting was created (`comdef_change_type_new`).
    case created = "comdef_change_type_new"
    /// A meeting was deleted (`comdef_change_type_delete`).
    case deleted = "comdef_change_type_delete"
    /// A meeting was changed (`comdef_change_type_change`).
    case changed = "comdef_change_type_change"
    /// A meeting was rolled back to an earlier state (`comdef_change_type_rollback`).
    case rolledBack = "comdef_change_type_rollback"
    /// A kind this version of BMLTKit does not know.
    case other = "other"
}

/// One field of a meeting as changed by a save: its wire key and the text before and after.
public struct BMLTFieldChange: Sendable, Hashable, Codable {
    /// The field's wire key, e.g. "meeting_name".
    public var key: String
    /// The value before; `nil` when it was empty.
    public var before: String?
    /// The value after; `nil` when it is now empty.
    public var after: String?

    /// A field change.
    public init(key: String, before: String?, after: String?) {
        self.key = key
        self.before = before
        self.after = after
    }
}

/// What a meeting search returns: the meetings, and the formats they use (when asked for).
public struct BMLTSearchResults: Sendable, Hashable, Codable {
    /// The meetings found.
    public var meetings: [BMLTMeeting]
    /// The formats used by those meetings (empty for a meetings-only search).
    public var formats: [BMLTFormat]
    /// How many entries of the format list the reply carried beside its meetings could not be read and were left
    /// out (entries without a usable id or key, or not objects; a `formats` value that is not a list at all —
    /// `null`, an object, text — counts as one). The meetings are never lost to it: they keep the format keys and ids
    /// they carry, resolved against what could be read and the server's formats. 0 for a reply whose list was whole.
    /// ```swift
    /// let results = try await connection.meetings(matching: criteria)
    /// if results.skippedFormats > 0 { print("\(results.skippedFormats) format entries were unreadable") }
    /// ```
    public var skippedFormats: Int = 0
    /// The server's time when it answered (its reply's `Date` header): where a refresh reads the change log from
    /// (`meetings(matching:updating:)`). `nil` for results whose reply had no readable `Date` header, for results made
    /// by hand or served by the response cache, and for results decoded from an encoding made before it existed.
    /// ```swift
    /// let results = try await connection.meetings(matching: criteria)
    /// if let serverDate = results.serverDate { print("as the server had it at", serverDate) }
    /// ```
    public var serverDate: Date?
    /// What a refresh changed (`meetings(matching:updating:)`): the meetings added, changed and removed since the
    /// previous results; `nil` when the whole list was downloaded.
    /// ```swift
    /// let fresh = try await connection.meetings(matching: criteria, updating: previous)
    /// if let delta = fresh.delta { print(delta.added.count, "new,", delta.removed.count, "gone") }
    /// ```
    public var delta: BMLTSearchDelta?
    /// The server and search the results answer (root URL and query), for refusing to update them from another.
    var origin: String?
    /// What a whole download of the list costs: the bytes of the reply (or replies) that made it; a refreshed list
    /// carries its download's, scaled to its length (`RefreshCost`).
    var bodyBytes: Int?
    /// The bytes of the change log the refresh that made the list read (`nil` after a download).
    var changeLogBytes: Int?
    /// The newest change record the refresh that made the list read (`change_id`; `nil` after a download): the next
    /// refresh keeps every record after it, whatever its date says (`ChangeLogRead`).
    var lastChangeID: Int?

    /// Search results.
    /// ```swift
    /// let results = BMLTSearchResults(meetings: [BMLTMeeting(id: 1, serviceBodyID: 2)])
    /// ```
    public init(meetings: [BMLTMeeting] = [], formats: [BMLTFormat] = []) {
        self.meetings = meetings
        self.formats = formats
    }

    /// Search results with a count of unreadable format entries (see `skippedFormats`).
    /// ```swift
    /// let results = BMLTSearchResults(meetings: [], formats: [], skippedFormats: 11)
    /// ```
    public init(meetings: [BMLTMeeting], formats: [BMLTFormat], skippedFormats: Int) {
        self.meetings = meetings
        self.formats = formats
        self.skippedFormats = max(0, skippedFormats)
    }

    private enum CodingKeys: String, CodingKey {
        case meetings, formats, skippedFormats, serverDate, delta, origin, bodyBytes, changeLogBytes, lastChangeID
    }

    /// Decodes results encoded by any version (those before `skippedFormats` have none: 0; those before `serverDate`
    /// have no server time, delta or origin: a refresh of them downloads the whole list).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        meetings = try container.decode([BMLTMeeting].self, forKey: .meetings)
        formats = try container.decode([BMLTFormat].self, forKey: .formats)
        skippedFormats = try container.decodeIfPresent(Int.self, forKey: .skippedFormats) ?? 0
        serverDate = try? container.decodeIfPresent(Date.self, forKey: .serverDate)
        delta = try? container.decodeIfPresent(BMLTSearchDelta.self, forKey: .delta)
        origin = try? container.decodeIfPresent(String.self, forKey: .origin)
        bodyBytes = try? container.decodeIfPresent(Int.self, forKey: .bodyBytes)
        changeLogBytes = try? container.decodeIfPresent(Int.self, forKey: .changeLogBytes)
        lastChangeID = try? container.decodeIfPresent(Int.self, forKey: .lastChangeID)
    }

    /// Encodes the results with their server time, delta and origin (and what their next refresh weighs: the bytes of
    /// their download and change log, the last change record read).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(meetings, forKey: .meetings)
        try container.encode(formats, forKey: .formats)
        try container.encode(skippedFormats, forKey: .skippedFormats)
        try container.encodeIfPresent(serverDate, forKey: .serverDate)
        try container.encodeIfPresent(delta, forKey: .delta)
        try container.encodeIfPresent(origin, forKey: .origin)
        try container.encodeIfPresent(bodyBytes, forKey: .bodyBytes)
        try container.encodeIfPresent(changeLogBytes, forKey: .changeLogBytes)
        try container.encodeIfPresent(lastChangeID, forKey: .lastChangeID)
    }

    /// Results are equal when they hold the same list: the same meetings in the same order, the same formats and the
    /// same count of unreadable format entries. When and how they were read (`serverDate`, `delta`) does not count: a
    /// refreshed list equals a new download of it.
    public static func == (lhs: BMLTSearchResults, rhs: BMLTSearchResults) -> Bool {
        lhs.meetings == rhs.meetings && lhs.formats == rhs.formats && lhs.skippedFormats == rhs.skippedFormats
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(meetings)
        hasher.combine(formats)
        hasher.combine(skippedFormats)
    }
}
