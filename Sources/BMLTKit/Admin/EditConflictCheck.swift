import Foundation

/// No edit lost between two administrators (issue 47): before an update is sent, every field the draft changes must
/// still hold, on the server, the value the draft was made from (or already the draft's own). Otherwise nothing is sent
/// and the save ends with `BMLTError.editConflict(_:)`; a meeting the server no longer holds ends it with
/// `BMLTError.meetingDeleted(_:)`, never with "the server failed" and never by making the meeting again.
///
/// The check is one read of the meeting (the admin read: `GET /api/v1/meetings/{id}`, 2.x `get_meetings`), sent right
/// before the write, after every local rule has passed: the window in which another change can still slip in is the
/// time between that read's answer and the write reaching the server (about one round trip). No generation offers a
/// conditional write (no ETag / If-Match on `/api/v1`, none in `json.php`), so that window cannot be closed. What the
/// write's answer and its read-back show of a change in the window is reported in `BMLTSaveResult.changedMeanwhile`
/// (and logged as a warning, naming the fields, never their values): see `meanwhile`.
enum EditConflictCheck {
    /// Reads the meeting right before its update and checks the draft's fields against it. Returns the meeting as the
    /// server held it; throws `.editConflict` (fields changed elsewhere) or `.meetingDeleted` (gone). `keys`: the fields
    /// the update sends. A draft with no original (made by hand from an id) has nothing to compare: only that the
    /// meeting still exists is checked.
    static func check(_ draft: BMLTMeetingDraft, sent: BMLTMeeting, keys: Set<String>,
                      context: OperationContext, interface: any AdminInterface) async throws(BMLTError) -> BMLTMeeting {
        let held: BMLTMeeting
        do {
            held = try await interface.meeting(id: sent.id)
        } catch .notFound {
            throw .meetingDeleted(await deletion(sent.id, context: context))
        }
        guard let original = draft.original else { return held }
        // A field the draft's source could not see is unknown, not changed by someone else (issue 57).
        let fields = conflicts(original: original, mine: sent, held: held, keys: keys.filter { !isUnknown($0, in: draft) })
        guard !fields.isEmpty else { return held }
        // The latest change that left one of the conflicting values (else the latest change at all).
        let log = await ChangeLogRecord.changes(of: sent.id, context: context).filter { $0.type != .deleted }
        let change = log.first { change in
            fields.contains { field in change.after.map { same(field.key, WireMeetingFieldTable.value(field.key, of: $0), field.theirs) } ?? false }
        } ?? log.first
        throw .editConflict(BMLTEditConflict(meetingID: sent.id, fields: fields, current: held,
                                             changedBy: change?.userName.flatMap { $0.isEmpty ? nil : $0 }, changedAt: change?.date))
    }

    /// The fields among `keys` whose value on the server is neither the draft's original nor the draft's own.
    static func conflicts(original: BMLTMeeting, mine: BMLTMeeting, held: BMLTMeeting, keys: Set<String>) -> [BMLTFieldConflict] {
        keys.sorted().compactMap { key in
            if same(key, held, original) || same(key, held, mine) { return nil }
            return BMLTFieldConflict(key: key, original: WireMeetingFieldTable.value(key, of: original),
                                     mine: WireMeetingFieldTable.value(key, of: mine), theirs: WireMeetingFieldTable.value(key, of: held))
        }
    }

    /// The fields a search leaves empty where the server holds a value, whoever asks: 3.x and 4.x blank every field
    /// whose template has `visibility == 1`, and `email_contact`, in every semantic search, a token or not
    /// (`server-truths/312-`/`427-GetSearchResults-hidden-fields-public.json` and `-with-bearer.json`, against
    /// `312-`/`427-api-v1-meetings-1314-admin.json`; bmlt-server `Http/Resources/Query/MeetingResource.php:90-94` and
    /// `getEmailContact`, `:283-288` at 4.2.7); 2.x does for a search made without the administrator's cookie
    /// (`search_results_csv.php:495-503`, tag 2.16.6). The stock hidden templates are the two contacts' names, phones
    /// and e-mails (`create_initial_schema.php:100-105`); a server that hides other fields of its own is edited from
    /// `editableMeeting(id:)`. `admin_notes` too: 4.2.7's searches list it empty for every meeting, public or with a
    /// token (`427-GetSearchResults-hidden-fields-*.json`), while the administration read carries it as `adminNotes`;
    /// whether a search blanks a note the meeting has is in no capture, so an empty one from a search is not taken as
    /// the server's (it only stops a false conflict: a draft that changes the note still sends it).
    static let hiddenFromSearches: Set<String> = ["contact_name_1", "contact_phone_1", "contact_email_1",
                                                  "contact_name_2", "contact_phone_2", "contact_email_2", "email_contact",
                                                  "admin_notes"]

    /// Whether the draft's source may not have seen `key`: a field searches hide, empty in an original that is not the
    /// administration read. Such a field is not compared (its value on the server before this save is unknown to the
    /// draft: saving it overwrites whatever is there, as the person asked).
    static func isUnknown(_ key: String, in draft: BMLTMeetingDraft) -> Bool {
        guard !draft.originalIsAdminRead, hiddenFromSearches.contains(key), let original = draft.original else { return false }
        return WireMeetingFieldTable.value(key, of: original) == nil
    }

    /// Whether `key` holds the same in two meetings as the servers store it (`same(_:_:_:)`); formats by what they
    /// are — their shared ids — when both meetings carry them: the keys are words of a language (2.x writes them in the
    /// request's `lang_enum`, `search_results_csv.php:459-475`; a search and an admin read need not use the same one).
    static func same(_ key: String, _ one: BMLTMeeting, _ other: BMLTMeeting) -> Bool {
        if key == "formats" || key == "format_shared_id_list", let ids = formatIDs(one), let otherIDs = formatIDs(other) {
            return ids == otherIDs
        }
        return same(key, WireMeetingFieldTable.value(key, of: one), WireMeetingFieldTable.value(key, of: other))
    }

    /// A meeting's formats as a set of shared ids, when every format it names has its id (`nil`: keys only).
    static func formatIDs(_ meeting: BMLTMeeting) -> Set<Int>? {
        guard !meeting.formatIDs.isEmpty || meeting.formatKeys.isEmpty, meeting.formatIDs.count >= Set(meeting.formatKeys).count else { return nil }
        return Set(meeting.formatIDs)
    }

    /// A write refused in a way that can mean the meeting is gone — REST 404, 2.16.6's HTTP 500 (`modify_meeting`
    /// calls `GetID()` on the null it gets for a deleted meeting), a 2.x `ERROR` — reported as `.meetingDeleted` when a
    /// read confirms the server no longer holds it; any other error, or a meeting still there, unchanged.
    static func deletedInstead(of error: BMLTError, meetingID: Int, context: OperationContext,
                               interface: any AdminInterface) async -> BMLTError {
        switch error {
        case .notFound, .httpStatus(500, _), .serverFailedOnWrite, .malformedResponse(_, .unexpectedAnswer("ERROR")): break
        default: return error
        }
        do {
            _ = try await interface.meeting(id: meetingID)
            return error
        } catch .notFound {
            return .meetingDeleted(await deletion(meetingID, context: context))
        } catch {
            return error
        }
    }

    /// The meeting's deletion, with who and when from the change log where it says.
    static func deletion(_ meetingID: Int, context: OperationContext) async -> BMLTDeletedMeeting {
        let record = await ChangeLogRecord.changes(of: meetingID, context: context).first { $0.type == .deleted }
        return BMLTDeletedMeeting(meetingID: meetingID, deletedBy: record?.userName.flatMap { $0.isEmpty ? nil : $0 },
                                  deletedAt: record?.date, deletion: record)
    }

    /// What changed on the server between the check and the read-back other than by this save:
    /// - a field this save did not send whose value differs between the check and the read-back (another change, kept;
    ///   fields the server derives from the ones sent — 4.x's formats from the venue type, coordinates and time zone
    ///   from the address — are left out);
    /// - a field it sent that does not hold the value sent (another change after the write);
    /// - on 2.x, a field whose value just before the write, as `modify_meeting`'s answer gives it (`oldValue`), was
    ///   neither the one checked nor the draft's original: another change in the window, overwritten by this save.
    /// On 3.x/4.x a change in the window to a field this save also sends is overwritten without a trace in the
    /// answer (a 204) or the read-back: only the change log shows it. `original`: the value read at the check.
    static func meanwhile(checked: BMLTMeeting, draftOriginal: BMLTMeeting?, sent: BMLTMeeting, keys: Set<String>,
                          result: BMLTSaveResult, legacy: Bool) -> [BMLTFieldConflict] {
        var found: [String: BMLTFieldConflict] = [:]
        let derived = derivedKeys(of: keys)
        for change in WireMeetingFieldTable.differences(from: checked, to: result.meeting)
        where !keys.contains(change.key) && !derived.contains(change.key) && !same(change.key, checked, result.meeting) {
            found[change.key] = BMLTFieldConflict(key: change.key, original: change.before, mine: nil, theirs: change.after)
        }
        for key in keys {
            let wanted = WireMeetingFieldTable.value(key, of: sent)
            let now = WireMeetingFieldTable.value(key, of: result.meeting)
            let before = WireMeetingFieldTable.value(key, of: checked)
            if !same(key, result.meeting, sent) {
                found[key] = BMLTFieldConflict(key: key, original: before, mine: wanted, theirs: now)
            } else if legacy, let overwritten = result.fieldChanges.first(where: { $0.key == key })?.before,
                      !same(key, overwritten, before), !same(key, overwritten, draftOriginal.flatMap { WireMeetingFieldTable.value(key, of: $0) }) {
                found[key] = BMLTFieldConflict(key: key, original: before, mine: wanted, theirs: overwritten)
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// The fields a server may change by itself when `keys` are saved.
    static func derivedKeys(of keys: Set<String>) -> Set<String> {
        var derived: Set<String> = []
        if keys.contains("venue_type") { derived.insert("formats") }
        if keys.contains("formats") { derived.insert("venue_type") }
        if keys.contains(where: { $0.hasPrefix("location_") }) { derived.formUnion(["latitude", "longitude", "time_zone"]) }
        if keys.contains("latitude") || keys.contains("longitude") { derived.insert("time_zone") }
        return derived
    }

    /// Whether two wire values are the same as the servers store them: text trimmed (3.x/4.x trim what they receive),
    /// format lists as sets, times and durations whatever their form (`19:00`, `19:00:00`), numbers as numbers.
    static func same(_ key: String, _ one: String?, _ other: String?) -> Bool {
        let a = (one ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let b = (other ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if a == b { return true }
        switch key {
        case "formats", "format_shared_id_list":
            func set(_ text: String) -> Set<String> {
                Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            }
            return set(a) == set(b)
        case "start_time", "duration_time":
            guard let x = WireTime.duration(a), let y = WireTime.duration(b) else { return false }
            return x == y
        case "latitude", "longitude":
            guard let x = Double(a), let y = Double(b) else { return false }
            return abs(x - y) < 1e-7
        case "weekday_tinyint", "service_body_bigint", "venue_type", "shared_group_id_bigint":
            guard let x = Int(a), let y = Int(b) else { return false }
            return x == y
        case "published":
            return (["1", "true"].contains(a.lowercased())) == (["1", "true"].contains(b.lowercased()))
        default:
            return false
        }
    }
}

/// The change log's records of one meeting, newest first, read as a best effort: empty when the log has none, cannot
/// be read, or does not answer within a few seconds. It never changes a verdict (it only names who and when). The read
/// is bounded to the last year (2.x reads every change of the server when no date is given).
enum ChangeLogRecord {
    static let patience: TimeInterval = 5

    static func changes(of meetingID: Int, context: OperationContext) async -> [BMLTChange] {
        await withTaskGroup(of: [BMLTChange]?.self) { group -> [BMLTChange] in
            group.addTask {
                let day: TimeInterval = 86_400
                let query = [URLQueryItem(name: "start_date", value: WireChange.day(Date().addingTimeInterval(-365 * day))),
                             URLQueryItem(name: "end_date", value: WireChange.day(Date().addingTimeInterval(day))),
                             URLQueryItem(name: "meeting_id", value: String(meetingID))]
                do throws(BMLTError) {
                    let value = try await context.semantic("GetChanges", query, what: .changes)
                    return try WireChange.decodeList(value, formats: WireFormatTable(context.serverFormats))
                        .filter { $0.meetingID == meetingID }
                        .sorted { ($0.date ?? .distantPast, $0.id) > ($1.date ?? .distantPast, $1.id) }
                } catch {
                    return []
                }
            }
            group.addTask {
                try? await Wait.sleep(seconds: patience)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }
}
