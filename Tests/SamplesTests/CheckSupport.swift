import CaptureReplay
import Foundation
@testable import ObserverCLI

/// What `bmlt-observer --json check` printed, by check: one record a line (`"event": "check"`), and the result.
struct CheckRun {
    let run: ObserverRun

    /// Every check record, in order.
    var records: [[String: Any]] { run.objects.compactMap { $0 }.filter { $0["event"] as? String == "check" } }
    /// A check's record by its id (`search-by-ids`).
    func record(_ id: String) -> [String: Any]? { records.first { $0["check"] as? String == id } }
    func status(_ id: String) -> String? { record(id)?["status"] as? String }
    func detail(_ id: String) -> String { record(id)?["detail"] as? String ?? "" }
    /// The ids of the checks that did not hold.
    var failed: [String] { records.filter { $0["status"] as? String == "failed" }.compactMap { $0["check"] as? String } }
    /// Every line (records and result) is one JSON object.
    var allLinesAreJSON: Bool { !run.lines.isEmpty && run.objects.allSatisfy { $0 != nil } }
    /// What to show when a test fails: each record's status and detail, and standard error.
    var summary: String {
        records.map { "\($0["status"] ?? "?") \($0["check"] ?? "?"): \($0["detail"] ?? "")" }.joined(separator: "\n") + "\n" + run.errors
    }
}

/// Runs `bmlt-observer --json check ARGUMENTS` against `root` (the demo server when nil), with `BMLT_PASSWORD` when given.
@MainActor
func runCheck(_ root: URL?, _ arguments: [String] = [], password: String? = nil) async -> CheckRun {
    let server = root.map { ["--server", $0.absoluteString] } ?? []
    return CheckRun(run: await observe(server + ["--json", "check"] + arguments,
                                       environment: password.map { ["BMLT_PASSWORD": $0] } ?? [:]))
}
