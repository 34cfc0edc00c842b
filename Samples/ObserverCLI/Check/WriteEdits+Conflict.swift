import BMLTKit
import Foundation

extension WriteEdits {
    /// A second login (the same user, a second session) changes the published meeting's comments; the first login then
    /// saves its draft made before that change: BMLTKit must refuse it as an edit conflict, send nothing, and the second
    /// login's value must stand.
    func conflict(_ made: WriteChecks.Made, password: String) async throws {
        try await runner.run("edit-conflict", "a second login's change and the edit conflict it must give", .write) {
            guard let target = made.published, let user = sandbox.credentials?.user else { return .skipped("the published meeting was not made") }
            guard let stale = try await read(target.id, on: connection) else { return .failed("#\(target.id) is gone", advice: "Look at the change log.") }
            let second = BMLTConnection(rootServerURL: connection.rootServerURL, configuration: connection.configuration)
            sandbox.logins.append(second)
            try await second.login(username: user, password: password)
            guard let seen = try await read(target.id, on: second) else { return .failed("the second login cannot read #\(target.id)", advice: "Look at its permissions.") }
            var theirs = seen.editable()
            theirs.comments = "Changed by a second login (\(sandbox.mark))."
            _ = try await sandbox.write { try await second.saveAndWait(theirs) }
            try? await second.logoutAndWait()
            var mine = stale.editable()
            mine.comments = "Changed by the first login (\(sandbox.mark))."
            do {
                _ = try await sandbox.write { try await connection.saveAndWait(mine) }
            } catch BMLTError.editConflict(let conflict) {
                let held = try await read(target.id, on: connection)
                let field = conflict.fields.first { $0.key == "comments" }
                guard field?.theirs?.trimmingCharacters(in: .whitespaces) == theirs.comments, held?.comments == theirs.comments else {
                    return .failed("an edit conflict, but it names " + conflict.fields.map { "\($0.key) (theirs “\($0.theirs ?? "")”)" }.joined(separator: ", ")
                                   + "; the server holds “\(held?.comments ?? "nothing")”",
                                   advice: "Report it with the server's answers (--verbose).")
                }
                let who = conflict.changedBy.map { ", changed by \($0)" } ?? ""
                return .passed("the second login's comments stood; the first login's stale save was refused as an edit conflict "
                               + "(original, mine, theirs\(who)) and sent nothing")
            }
            let held = try await read(target.id, on: connection)
            return .failed("the first login's stale save went through: the second login's change was lost (the server holds “\(held?.comments ?? "")”)",
                           advice: "Two administrators editing one meeting lose each other's changes on this server through BMLTKit: report it "
                               + "with the server's answers (--verbose).")
        }
    }

    /// Deletes both meetings (gone from every search), then restores the published one from its deletion — 2.x under
    /// its own id, 3.x/4.x created again by BMLTKit from the deletion record with a new id — and deletes it again.
    func deleteAndRestore(_ made: WriteChecks.Made) async throws {
        let targets = [made.published, made.unpublished].compactMap { $0 }
        try await runner.run("delete", "delete", .write) {
            guard !targets.isEmpty else { return .skipped("no meeting was made") }
            for meeting in targets {
                try await sandbox.write { try await connection.deleteMeetingAndWait(id: meeting.id) }
                sandbox.deleted(meeting.id)
            }
            var left: [BMLTMeeting] = []
            for meeting in targets {
                if try await read(meeting.id, on: connection) != nil { left.append(meeting) }
            }
            guard left.isEmpty else {
                return .failed("still held after its deletion: " + left.map { "#\($0.id)" }.joined(separator: ", "),
                               advice: "Report it with the server's answers (--verbose); the clean-up tries again.")
            }
            return .passed(targets.map { "#\($0.id)" }.joined(separator: " and ") + " deleted, gone from the login's searches")
        }
        try await runner.run("restore", "restore a deleted meeting", .write) {
            guard let meeting = made.published else { return .skipped("the published meeting was not made") }
            guard let deletion = try await connection.deletedMeetings(serviceBodyIDs: [sandbox.serviceBodyID])
                .first(where: { $0.meetingID == meeting.id }) else {
                return .failed("#\(meeting.id)'s deletion is not in the server's list of deleted meetings",
                               advice: "Apps cannot restore meetings on this server: look at its change log (bmlt-observer --server URL deleted).")
            }
            let restored = try await sandbox.write { try await connection.restoreDeletedMeetingAndWait(deletion) }
            sandbox.made(restored)
            let how = restored.id == meeting.id ? "under its own id (the server's restore)"
                : "as #\(restored.id) (BMLTKit made it again from its deletion record: this generation has no restore)"
            let wrong = MeetingFields.mismatches(wanted: meeting, held: restored, only: ["name", "weekday", "start", "street"])
            try await sandbox.write { try await connection.deleteMeetingAndWait(id: restored.id) }
            sandbox.deleted(restored.id)
            guard wrong.isEmpty else {
                return .failed("#\(meeting.id) restored \(how), unlike what was deleted: " + wrong.joined(separator: "; "),
                               advice: "Report it with the server's answers (--verbose).")
            }
            return .passed("#\(meeting.id) restored \(how), then deleted again")
        }
    }
}
