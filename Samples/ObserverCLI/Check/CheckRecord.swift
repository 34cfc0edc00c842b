import Foundation

/// One check's outcome, as `check` prints it: ✔ / ✘ / `skipped: why`, with the time it took and the bytes of the
/// server's answers; `--json` prints it as one record (`"event": "check"`).
struct CheckRecord {
    enum Status: String {
        case passed, failed, skipped
    }

    /// Which part of the check it belongs to.
    enum Group: String {
        /// Read-only checks (anyone may run them).
        case read
        /// The server's ways: what it does differently, each named as found.
        case way
        /// Checks that write, with an administrator, in the sandbox service body.
        case write
    }

    /// A stable name (`search-by-ids`), for scripts.
    var id: String
    /// The name people read (`search by ids`).
    var title: String
    var group: Group
    var status: Status
    /// What was found (a failure: what went wrong; skipped: why).
    var detail: String
    /// For a failure: what the person should do.
    var advice: String?
    var seconds: Double
    /// The bytes of the answers received (BMLTKit's requests and the check's own).
    var bytes: Int
    /// The requests sent.
    var requests: Int
    /// More fields for `--json` (counts, the way found, ids).
    var facts: [String: Any] = [:]

    /// The `--json` record.
    var json: [String: Any] {
        var o = facts
        o["event"] = "check"
        o["check"] = id
        o["title"] = title
        o["group"] = group.rawValue
        o["status"] = status.rawValue
        o["detail"] = detail
        o["advice"] = advice
        o["seconds"] = (seconds * 1000).rounded() / 1000
        o["bytes"] = bytes
        o["requests"] = requests
        return o
    }

    /// The lines people read: `✔ title: detail (0.12 s, 3.4 KB)`, a failure's advice below it.
    var lines: [String] {
        let measure = " (" + Self.time(seconds) + ", " + Self.size(bytes) + ")"
        switch status {
        case .passed: return ["✔ \(title): \(detail)\(measure)"]
        case .failed: return ["✘ \(title): \(detail)\(measure)"] + (advice.map { ["    what to do: \($0)"] } ?? [])
        case .skipped: return ["– \(title): skipped: \(detail)"]
        }
    }

    static func time(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

    /// `812 B`, `3.4 KB`, `1.6 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// What a check found: it held (with what was seen), it did not (with what to do), or it could not be made (why).
struct Verdict {
    var status: CheckRecord.Status
    var detail: String
    var advice: String?
    var facts: [String: Any] = [:]

    static func passed(_ detail: String, _ facts: [String: Any] = [:]) -> Verdict {
        Verdict(status: .passed, detail: detail, facts: facts)
    }

    static func failed(_ detail: String, advice: String, _ facts: [String: Any] = [:]) -> Verdict {
        Verdict(status: .failed, detail: detail, advice: advice, facts: facts)
    }

    static func skipped(_ why: String, _ facts: [String: Any] = [:]) -> Verdict {
        Verdict(status: .skipped, detail: why, facts: facts)
    }
}

/// A number with thousands separators, as people read it (`1,512`).
func counted(_ number: Int) -> String {
    let digits = String(abs(number))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return (number < 0 ? "-" : "") + out
}

/// "1 meeting", "3 meetings".
func plural(_ count: Int, _ noun: String, _ nouns: String? = nil) -> String {
    "\(counted(count)) " + (count == 1 ? noun : nouns ?? noun + "s")
}
