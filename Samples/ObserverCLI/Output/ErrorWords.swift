import BMLTKit
import Foundation

/// A failure the CLI itself found (exit 1), said as it is: e.g. "meeting 310 is not deleted, so there is
/// nothing to restore".
struct CLIFailure: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
    init(_ message: String) { self.message = message }
}

/// Errors in the CLI's words: the library's sentences name its own settings (`allowsInsecureHTTP`,
/// `BMLTConfiguration`'s timeout); here they name the flags a user types (`--insecure`, `--timeout`).
///
/// The CLI speaks English whatever `LANG` says: its own sentences, its help and its flags are English, so the
/// library's sentences are taken in English too (`error.description`) rather than mixing two languages in one run.
enum ErrorWords {
    /// A short code for a library error (its case name, e.g. `timeout`, `insecureURLRefused`).
    static func code(_ error: BMLTError) -> String {
        // A case with a payload is named by its mirror; the two without one are named here (a new case still
        // gets a code: its mirror's, or "error").
        if let label = Mirror(reflecting: error).children.first?.label { return label }
        switch error {
        case .timeout: return "timeout"
        case .cancelled: return "cancelled"
        default: return "error"
        }
    }

    /// The sentence printed on standard error for `error` (a `BMLTError`, a `CLIFailure`, or anything else).
    /// `timeout` is `--timeout`; `deadline` is `BMLT_OBSERVER_DEADLINE` (the whole call's time, retries kept).
    static func sentence(_ error: any Error, timeout: Double?, deadline: Double? = nil) -> String {
        if let failure = error as? CLIFailure { return failure.message }
        guard let error = error as? BMLTError else { return String(describing: error) }
        switch error {
        case .insecureURLRefused(let host):
            return "The connection to \(host) would not be encrypted (http://). Use https://, or add --insecure if you really mean it."
        case .timeout:
            let budget = timeout.map { "within --timeout \(number($0)) s" }
                ?? deadline.map { "within BMLT_OBSERVER_DEADLINE \(number($0)) s" } ?? "in time (30 s a request by default)"
            return "The server did not answer \(budget). Try again, or give a longer --timeout SECONDS."
        case .invalidURL(let text):
            return "“\(text)” is not a root server URL. Give --server the address of the folder that holds client_interface, e.g. https://example.org/main_server."
        case .notARootServer(let reason):
            return "This address does not answer like a BMLT root server: \(reason). Check the --server URL."
        case .transport:
            return error.description   // BMLTKit's own sentence (in English), from the URLError code
        case .serverFailedOnWrite:
            return error.description   // a write the server failed on: BMLTKit's own sentence
        case .editConflict(let conflict):
            // Nothing was sent: the three values of each field, then how to save over them knowingly.
            let fields = conflict.fields.map { field in
                "  \(field.key): original \(quoted(field.original)), mine \(quoted(field.mine)), theirs \(quoted(field.theirs))"
            }
            return ([conflict.description] + fields
                    + ["Read it again (bmlt-observer meeting \(conflict.meetingID)) and run the edit again to put these values over theirs."])
                .joined(separator: "\n")
        case .meetingDeleted(let gone):
            return gone.description + " (To see it: bmlt-observer deleted.)"
        case .httpStatus(let code, let message):
            let said = message.map { ": “\($0)”" } ?? ""
            return "The server answered with HTTP status \(code)\(said). Try again later, or check the --server URL."
        case .responseTooLarge(let limit):
            return "The server's answer was larger than \(limit / 1_048_576) MiB. Narrow the search (--service-body, --weekday, --near)."
        case .writeOutcomeUnknown(let open):
            // Neither done nor failed: what to look at before running the write again.
            let meetingWrites: [BMLTWriteKind] = [.createMeeting, .saveMeeting, .deleteMeeting, .restoreMeeting, .rollbackMeeting]
            let id = meetingWrites.contains(open.writeKind) ? open.itemID : nil
            let check = id.map { "bmlt-observer meeting \($0)" } ?? "bmlt-observer changes"
            return open.description + " (To look: \(check).)"
        case .unauthorized(let message):
            let said = message.map { ": “\($0)”" } ?? ""
            return "The server refused the login\(said). Check --user and the password (BMLT_PASSWORD or the prompt)."
        default:
            return error.description
        }
    }

    /// A field's value as the conflict lines show it: quoted, or "(empty)".
    static func quoted(_ value: String?) -> String {
        value.map { "“\($0)”" } ?? "(empty)"
    }

    static func number(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 && value == value.rounded() ? String(Int(value)) : String(value)
    }
}
