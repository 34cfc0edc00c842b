import Foundation

/// An editable copy of a meeting: change its fields, then `connection.save(draft)`.
///
/// A value type: editing a draft changes nothing on the server or in the stores until it is saved, and only
/// the fields that differ from the meeting it was made from are sent. Every field of `BMLTMeeting` can be
/// read and set directly on the draft (`draft.name`, `draft.weekday`, `draft.startTime`, …).
/// ```swift
/// var draft = meeting.editable()
/// draft.name = "Tuesday Night Hope"
/// draft.startTime = BMLTTimeOfDay(hour: 19, minute: 30)
/// connection.save(draft)                       // → .bmltMeetingSaved with the field changes
///
/// var fresh = BMLTMeetingDraft(serviceBodyID: 1002)  // id 0: saving creates it → .bmltMeetingAdded
/// fresh.name = "New Beginnings"
/// ```
@dynamicMemberLookup
public struct BMLTMeetingDraft: Sendable, Hashable, Codable {
    /// The meeting as the server had it when the draft was made; `nil` for a new meeting.
    public internal(set) var original: BMLTMeeting?
    /// The meeting as edited.
    public var meeting: BMLTMeeting
    /// For a copy made with `init(copyOf:)` (a new meeting), the meeting it was copied from, as it was read;
    /// `nil` otherwise. A server generation that cannot take a field (2.x's `venue_type`) is not sent the
    /// copy's unchanged value of it.
    /// ```swift
    /// let copy = BMLTMeetingDraft(copyOf: meeting)
    /// print(copy.copiedFrom?.id == meeting.id)     // true; copy.id == 0
    /// ```
    public internal(set) var copiedFrom: BMLTMeeting?
    /// This draft's write identity (made with the draft, kept by copies of the value and by `Codable`): saving a new
    /// meeting's draft again after an open outcome looks for the first attempt's meeting before it creates one (see
    /// `recordOpenOutcome(_:)`). A host that wants another meeting makes a new draft, or asks this one for
    /// `anotherMeeting()` (a "Save & New" form, a template): a copy of the value saved after a creation edits that meeting.
    /// ```swift
    /// let again = draft                                  // the same identity: the same meeting
    /// print(again.writeIdentity == draft.writeIdentity)  // true
    /// ```
    public internal(set) var writeIdentity = UUID()
    /// When this draft's first creation attempt whose outcome stayed open began (`recordOpenOutcome(_:)`), or `nil`.
    /// ```swift
    /// if draft.openAttemptStarted != nil { print("saving looks for the first attempt's meeting first") }
    /// ```
    public internal(set) var openAttemptStarted: Date?
    /// Whether `original` is the meeting as the administration interface read it (`editableMeeting(id:)`,
    /// `BMLTSaveResult.draft`): every field as the server holds it, hidden ones included. A draft made from a search
    /// (`meeting.editable()`) may hold nothing for a field the search hides (issue 57): the edit check treats such a
    /// field as unknown, never as changed by someone else. Kept by copies and by `Codable`; not compared by `==`.
    var originalIsAdminRead = false

    /// A draft of a new meeting in the given service body (id 0: saving it creates the meeting).
    public init(serviceBodyID: Int) {
        original = nil
        meeting = BMLTMeeting(id: 0, serviceBodyID: serviceBodyID)
    }

    /// A draft of an existing meeting, unchanged so far.
    public init(_ meeting: BMLTMeeting) {
        original = meeting
        self.meeting = meeting
    }

    /// A draft of a new meeting made from an existing one ("save as copy"): id 0, unpublished (new meetings
    /// always are), everything else kept (formats, times, location, virtual fields, contacts, custom fields),
    /// nothing the server computes (distances, the root server's address and id, the service body's name).
    /// Saving it creates the meeting (`.bmltMeetingAdded`, its new id in `BMLTSaveResult.meeting.id`).
    /// On 2.x the copy's venue type is not sent (json.php cannot take it; the new meeting keeps the VM/HY formats).
    /// ```swift
    /// var copy = BMLTMeetingDraft(copyOf: meeting)
    /// copy.weekday = .thursday
    /// let created = try await connection.saveAndWait(copy).meeting   // created.id is the new meeting's id
    /// ```
    public init(copyOf source: BMLTMeeting) {
        original = nil
        copiedFrom = source
        meeting = Self.newMeeting(copying: source)
    }

    /// `source` as a new meeting: no id, unpublished, none of the values the server computes.
    static func newMeeting(copying source: BMLTMeeting) -> BMLTMeeting {
        var copy = source
        copy.id = 0
        copy.isPublished = false
        copy.distanceInKilometers = nil
        copy.distanceInMiles = nil
        copy.rootServerURI = nil
        copy.rootServerID = nil
        copy.serviceBodyName = nil
        for key in WireMeetingFieldTable.computedKeys { copy.extraFields[key] = nil }
        return copy
    }

    /// Reads and writes any field of the edited meeting: `draft.name = "…"`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<BMLTMeeting, Value>) -> Value {
        get { meeting[keyPath: keyPath] }
        set { meeting[keyPath: keyPath] = newValue }
    }

    /// Whether saving creates a new meeting (the id is 0).
    public var isNew: Bool { meeting.id == 0 }

    /// The fields edited so far, by wire key, each with the value before and after (every filled field of
    /// a new meeting). Format keys, ids and objects count as the one field `formats`.
    public var changes: [BMLTFieldChange] {
        WireMeetingFieldTable.differences(from: isNew ? nil : original, to: Self.formatsAligned(meeting, original))
    }

    /// Whether anything differs from the meeting the draft was made from.
    public var hasChanges: Bool { !changes.isEmpty }

    /// Sets the formats (objects, keys and ids together).
    public mutating func setFormats(_ formats: [BMLTFormat]) {
        meeting.formats = formats
        meeting.formatKeys = formats.map(\.key)
        meeting.formatIDs = formats.map(\.id)
    }

    /// Puts back the values the change replaced: every field whose value differs between the change's before- and
    /// after-image (all of the before-image for a deletion). Fields the change did not alter keep their current
    /// values, local edits included. Local only: save the draft to apply it.
    public mutating func revert(toBefore change: BMLTChange) {
        guard let before = change.before else { return }
        apply(before, keys: WireMeetingFieldTable.keys(before, change.after).filter { key in
            let old = WireMeetingFieldTable.value(key, of: before)
            guard let after = change.after else { return old != nil }
            return old != WireMeetingFieldTable.value(key, of: after)
        })
    }

    /// Takes every field the change's images hold from its before-image (what the server's own rollback does:
    /// the meeting as it was, also where later changes touched fields this change did not).
    mutating func takeBeforeImage(of change: BMLTChange) {
        guard let before = change.before else { return }
        apply(before, keys: WireMeetingFieldTable.keys(before, change.after).filter { key in
            WireMeetingFieldTable.value(key, of: before) != nil
                || change.after.map { WireMeetingFieldTable.value(key, of: $0) != nil } == true
        })
    }

    private mutating func apply(_ before: BMLTMeeting, keys: [String]) {
        for key in keys where key != "id_bigint" && key != "root_server_uri" {
            WireMeetingFieldTable.set(key, WireMeetingFieldTable.value(key, of: before), in: &meeting)
            // The before-image's exact `prompt#@-@#value` text comes back with its value (written back as it was).
            if before.promptStorage?[key] != nil || meeting.promptStorage?[key] != nil {
                meeting.fieldPrompts[key] = before.promptStorage?[key]
            }
        }
        if keys.contains("formats") || keys.contains("format_shared_id_list") {
            meeting.formats = before.formats
            meeting.formatKeys = before.formatKeys
            meeting.formatIDs = before.formatIDs
        }
    }

    /// Undoes every edit: back to the meeting as the server had it (an empty new meeting for a new draft). Local only.
    public mutating func revertToServerState() {
        meeting = original ?? copiedFrom.map(Self.newMeeting(copying:)) ?? BMLTMeeting(id: 0, serviceBodyID: meeting.serviceBodyID)
    }

    /// Undoes the edit of one field (by wire key, e.g. "meeting_name"). Local only.
    public mutating func revert(field key: String) {
        if key == "formats" || key == "format_shared_id_list" {
            meeting.formats = original?.formats ?? []
            meeting.formatKeys = original?.formatKeys ?? []
            meeting.formatIDs = original?.formatIDs ?? []
            return
        }
        WireMeetingFieldTable.set(key, original.flatMap { WireMeetingFieldTable.value(key, of: $0) }, in: &meeting)
    }

    /// The draft after a save: the server's meeting (its admin read) becomes the new original.
    mutating func markSaved(as meeting: BMLTMeeting) {
        original = meeting
        copiedFrom = nil
        self.meeting = meeting
        originalIsAdminRead = true
    }

    /// `meeting` with its format keys made to follow whichever format field was edited (ids or objects), so a
    /// change to any of the three shows as one change of `formats`.
    static func formatsAligned(_ meeting: BMLTMeeting, _ original: BMLTMeeting?) -> BMLTMeeting {
        var aligned = meeting
        let keysEdited = meeting.formatKeys != (original?.formatKeys ?? [])
        if !keysEdited {
            if meeting.formats != (original?.formats ?? []) {
                aligned.formatKeys = meeting.formats.map(\.key)
            } else if meeting.formatIDs != (original?.formatIDs ?? []) {
                let byID = Dictionary((original?.formats ?? meeting.formats).map { ($0.id, $0.key) }, uniquingKeysWith: { a, _ in a })
                aligned.formatKeys = meeting.formatIDs.map { byID[$0] ?? String($0) }
            }
        }
        return aligned
    }
}

extension BMLTMeeting {
    /// An editable copy of this meeting (`connection.save(draft)` sends what changed).
    public func editable() -> BMLTMeetingDraft { BMLTMeetingDraft(self) }

    /// A draft of a new meeting copied from this one ("save as copy"): `BMLTMeetingDraft(copyOf:)`.
    /// ```swift
    /// var copy = meeting.editableCopy()            // id 0, unpublished, everything else kept
    /// copy.name += " (Saturday)"
    /// connection.save(copy)                        // → .bmltMeetingAdded with the new id
    /// ```
    public func editableCopy() -> BMLTMeetingDraft { BMLTMeetingDraft(copyOf: self) }
}
