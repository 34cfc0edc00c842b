import Foundation

/// Every sentence about a write's outcome when its answer was lost (issue 41), in one place for the string tables:
/// what `BMLTError.writeOutcomeUnknown(_:)` and `BMLTMeetingDeletion` say. None says "Try again": these writes are
/// not known not to have happened.
enum WriteOutcomeSentences {
    /// The write, as the sentence names it.
    static func name(_ write: BMLTUnknownWriteOutcome.Write, id: Int?) -> String {
        let meeting = id.map { "meeting \($0)" } ?? "the meeting"
        switch write {
        case .createMeeting: return "creating a meeting"
        case .saveMeeting: return "saving \(meeting)"
        case .deleteMeeting: return "deleting \(meeting)"
        case .restoreMeeting: return "restoring \(meeting)"
        case .rollbackMeeting: return "rolling back \(meeting)"
        case .createFormat: return "creating a format"
        case .createServiceBody: return "creating a service body"
        case .createUser: return "creating a user"
        case .serverAdministration: return "this server administration change"
        case .contactMessage: return "the message to the meeting's contact"
        }
    }

    /// How the answer was lost, in a few words.
    static func loss(_ error: BMLTError) -> String {
        switch error {
        case .timeout: return "the server did not answer in time"
        case .httpStatus(let code, _): return "the server or a proxy in front of it answered HTTP status \(code)"
        case .transport(let code, let description): return "\(description) (code \(code))"
        case .brokenReply, .malformedResponse: return "its reply could not be read"
        default: return "its answer was lost"
        }
    }

    /// `BMLTError.writeOutcomeUnknown(_:)`'s sentence.
    static func unknown(_ open: BMLTUnknownWriteOutcome) -> String {
        let what = name(open.write, id: open.meetingID)
        let head = "The answer to \(what) was lost (\(loss(open.loss)))"
        let item = open.write == .createFormat ? "formats" : open.write == .createServiceBody ? "service bodies"
            : open.write == .createUser ? "users" : "meetings"
        switch open.finding {
        case .lookUpFailed(let error):
            return head + ", and what the server now holds could not be looked up either (\(loss(error))). It may have been "
                + "done: when the server can be reached, read its \(item) (or the change list) before doing it again."
        case .severalCandidates(let ids):
            return head + ". The change list shows several new meetings made by this login since then that match it ("
                + ids.map(String.init).joined(separator: ", ") + "); none was picked. Check them and delete any duplicate."
        case .changedElsewhere(let keys):
            return head + ". The server now holds other values than those sent for " + keys.joined(separator: ", ")
                + ": someone else may have changed the meeting in between. Read it again and decide what it should hold."
        case .loginExpired:
            return head + ", and the login ended before BMLTKit could look up what the server holds. Log in, then read the "
                + "\(item) (or the change list) before doing it again."
        case .doneButUnread(let id, let error):
            return head + ". The server did it" + (id.map { " (\(item == "meetings" ? "meeting" : "id") \($0))" } ?? "")
                + ", but it could not be read back (\(loss(error))). Read it again to see what the server holds."
        case .noRecordButSimilar(let ids):
            return head + ". The change list has no record of it, but the service body holds meetings like it ("
                + ids.map(String.init).joined(separator: ", ") + "). Check them before creating it again."
        case .notLookedUp:
            return head + ". It may have been done: check what the server holds before doing it again."
        }
    }

    /// `BMLTMeetingDeletion`'s sentence.
    static func deletion(_ done: BMLTMeetingDeletion) -> String {
        guard done.wasAlreadyDeleted else { return "Meeting \(done.meetingID) was deleted." }
        var by: [String] = []
        if let user = done.deletion?.userName, !user.isEmpty { by.append("by \(user)") }
        if let date = done.deletion?.date { by.append(ISO8601DateFormatter().string(from: date)) }
        return "Meeting \(done.meetingID) was already deleted" + (by.isEmpty ? "" : " (" + by.joined(separator: ", ") + ")") + "."
    }
}
