import BMLTKit
import Foundation

/// One field of every kind changed on the check's own meetings (text, day, time, duration, coordinates, formats, venue,
/// published, a field hidden from the public), each a save of its own read back; the edit conflict a second login's
/// change must give; delete and restore. Every write goes through `WriteSandbox.write` (the budget, the spacing).
@MainActor
struct WriteEdits {
    let runner: CheckRunner
    let connection: BMLTConnection
    let findings: CheckFindings
    let sandbox: WriteSandbox

    /// One kind of edit: the field it changes (`MeetingFields`) and how.
    struct Edit {
        let id: String
        let title: String
        let fields: Set<String>
        /// Made on the unpublished meeting (publishing it) rather than the published one.
        var onUnpublished = false
        /// Changes a field the server's searches blank (a contact): an edit conflict on it is the false conflict of a
        /// draft that did not know the field (review R2), said with its own advice. Every edit's draft is made from
        /// the login's search, as apps make drafts from their searches.
        var hiddenField = false
        let apply: @MainActor (inout BMLTMeetingDraft, BMLTConnection, CheckFindings) -> Void
    }

    static let edits: [Edit] = [
        Edit(id: "edit-text", title: "change a text (the name)", fields: ["name"]) { draft, _, _ in draft.name += " (edited)" },
        Edit(id: "edit-weekday", title: "change the day", fields: ["weekday"]) { draft, _, _ in draft.weekday = .thursday },
        Edit(id: "edit-start", title: "change the start time", fields: ["start"]) { draft, _, _ in draft.startTime = BMLTTimeOfDay(hour: 20, minute: 45) },
        Edit(id: "edit-duration", title: "change the duration", fields: ["duration"]) { draft, _, _ in draft.duration = 50 * 60 },
        Edit(id: "edit-coordinates", title: "change the coordinates", fields: ["coordinates"]) { draft, _, _ in
            guard let point = draft.coordinate else { return }
            draft.coordinate = BMLTCoordinate(latitude: point.latitude + 0.001, longitude: point.longitude + 0.001)
        },
        Edit(id: "edit-formats", title: "change the formats", fields: ["formats"]) { draft, connection, findings in
            let known = formats(connection, findings)
            guard known.count > 1 else { return }
            let present = Set(draft.formatIDs)
            if let added = known.first(where: { !present.contains($0.id) }) {
                draft.setFormats(known.filter { present.contains($0.id) } + [added])
            }
        },
        Edit(id: "edit-venue", title: "change the venue type (hybrid, with a link)", fields: ["venue", "virtual link"]) { draft, _, _ in
            draft.venueType = .hybrid
            draft.virtualMeetingLink = "https://example.org/bmlt-observer-check"
        },
        Edit(id: "edit-published", title: "publish the unpublished meeting", fields: ["published"], onUnpublished: true) { draft, _, _ in
            draft.isPublished = true
        },
        Edit(id: "edit-hidden", title: "change a hidden field (a contact) in a draft made from a search", fields: ["contact name"],
             hiddenField: true) { draft, _, _ in
            draft.contactName1 = (draft.contactName1 ?? "") + " (edited)"
        },
    ]

    static var titles: [(String, String)] { edits.map { ($0.id, $0.title) } }

    /// The server's formats a test meeting may carry (in the server's language, none that follows from the venue type).
    static func formats(_ connection: BMLTConnection, _ findings: CheckFindings) -> [BMLTFormat] {
        let language = findings.info?.nativeLanguage ?? "en"
        let usable = connection.server.formats.filter { $0.language == language && !["VM", "HY", "TC"].contains($0.key.uppercased()) }
        let open = usable.filter { $0.key.uppercased() == "O" }
        return open + usable.filter { $0.key.uppercased() != "O" }.sorted { $0.id < $1.id }
    }

    /// The meeting as the login sees it now (published or not); nil when the server no longer holds it.
    func read(_ id: Int, on reader: BMLTConnection) async throws -> BMLTMeeting? {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [id]
        criteria.publishedStatus = .both
        return try await reader.meetings(matching: criteria, extent: .meetingsOnly).meetings.first { $0.id == id }
    }

    func run(_ made: WriteChecks.Made) async throws {
        for edit in Self.edits {
            guard let target = edit.onUnpublished ? made.unpublished : made.published else {
                runner.skip(edit.id, edit.title, .write, because: "the meeting to change was not made")
                continue
            }
            if edit.id == "edit-venue" && findings.isLegacy {
                runner.skip(edit.id, edit.title, .write, because: "2.x's json.php cannot change the venue type (2.16.6 answers HTTP 500): BMLTKit refuses it before sending")
                continue
            }
            try await runner.run(edit.id, edit.title, .write) {
                let current = try await read(target.id, on: connection)

                guard let current else { return .failed("#\(target.id) is gone", advice: "Look at the service body's change log (bmlt-observer --server URL changes).") }
                var draft = current.editable()
                edit.apply(&draft, connection, findings)
                guard draft.hasChanges else { return .skipped("nothing to change (the server lists too few formats)") }
                let saved: BMLTSaveResult
                do {
                    saved = try await sandbox.write { try await connection.saveAndWait(draft) }
                } catch BMLTError.editConflict(let conflict) where edit.hiddenField {
                    return .failed("BMLTKit refused the save as an edit conflict on " + conflict.fields.map(\.key).joined(separator: ", ")
                                   + " though no one else changed #\(target.id): the search shows that field empty where the server holds a value",
                                   advice: "Apps that edit a contact of a meeting they found by a search get a false edit conflict on this server "
                                       + "(its searches blank hidden fields, even for an administrator). BMLTKit treats a field a search left "
                                       + "blank as unknown, so this is a BMLTKit bug: report it with the --verbose output; meanwhile start "
                                       + "edits from connection.editableMeeting(id:), which reads every field.")
                }
                if edit.onUnpublished { made.unpublished = saved.meeting } else { made.published = saved.meeting }
                let wrong = MeetingFields.mismatches(wanted: draft.meeting, held: saved.meeting, only: edit.fields)
                guard wrong.isEmpty else {
                    return .failed("#\(target.id): " + wrong.joined(separator: "; "),
                                   advice: "Apps would show values nobody saved: report it with the server's answers (--verbose).")
                }
                let shown = edit.fields.sorted().compactMap { field in MeetingFields.value(field, of: saved.meeting).map { "\(field) “\($0)”" } }
                return .passed("#\(target.id) holds " + shown.joined(separator: ", ") + (edit.hiddenField ? " (the draft made from a search, as apps make them)" : ""))
            }
        }
    }
}
