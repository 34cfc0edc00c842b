import BMLTDemoServer
import BMLTKit
import Foundation

/// `check`'s options, read and refused before anything is sent: writes only with `--service-body` (and `--user`, but on
/// the demo server), a spacing that is a number.
struct CheckSettings {
    /// The administrator, when writes or a login are checked.
    var user: String?
    /// The sandbox service body: the only one written in.
    var serviceBodyID: Int?
    /// `--plan`: print what would be sent, send nothing.
    var plan: Bool
    /// The pause between two writes.
    var spacing: Double
    /// The most one request may take (`--timeout`, else 30 s).
    var requestTimeout: Double

    /// At most this many writes (creations, edits, deletions, restorations) in one run.
    static let writeBudget = 20

    init(_ line: ParsedCommandLine, isDemo: Bool, timeout: Double?) throws {
        guard line.value("cache") == nil else {
            throw UsageError("check asks the server itself: --cache would answer some checks from answers kept earlier; leave it out")
        }
        user = line.value("user")
        plan = line.flag("plan")
        requestTimeout = timeout ?? 30
        if let text = line.value("service-body") {
            serviceBodyID = try SearchCommand.integer(text, "--service-body")
            if user == nil {
                guard isDemo else {
                    throw UsageError("--service-body needs --user: an administrator who may edit that service body "
                                     + "(the password comes from BMLT_PASSWORD or a prompt)")
                }
                user = BMLTDemoServer.adminUsername
            }
        }
        if let text = line.value("write-spacing") {
            guard let seconds = Double(text), seconds >= 0, seconds <= 60 else { throw UsageError("--write-spacing needs seconds from 0 to 60") }
            guard serviceBodyID != nil else { throw UsageError("--write-spacing is for writes: give --service-body ID too") }
            spacing = seconds
        } else {
            spacing = 1
        }
    }

    /// Whether the checks that write run (a sandbox service body was given).
    var writes: Bool { serviceBodyID != nil }
}
