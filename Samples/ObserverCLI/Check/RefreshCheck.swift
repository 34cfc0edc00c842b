import BMLTKit
import Foundation

/// A list brought up to date from the change log (`meetings(matching:updating:)`) must equal a new download, meeting
/// for meeting and in the server's order; its cost is said beside the download's.
@MainActor
enum RefreshCheck {
    static func verdict(_ connection: BMLTConnection, criteria: BMLTSearchCriteria, previous: BMLTSearchResults,
                        tally: RequestTally, what: String) async throws -> Verdict {
        let start = tally.snapshot.bytes
        let fresh = try await connection.meetings(matching: criteria, updating: previous)
        let refreshed = tally.snapshot.bytes - start
        let download = try await connection.meetings(matching: criteria)
        let downloaded = tally.snapshot.bytes - start - refreshed
        let cost = fresh.delta == nil ? "downloaded whole (\(CheckRecord.size(refreshed)))"
            : "\(CheckRecord.size(refreshed)) against the download's \(CheckRecord.size(downloaded))"
                + (refreshed > downloaded ? " (more than downloading it again)" : "")
        let delta = fresh.delta.map { " (+\($0.added.count) ~\($0.changed.count) −\($0.removed.count))" } ?? ""
        var facts: [String: Any] = ["count": fresh.meetings.count, "refreshBytes": refreshed, "downloadBytes": downloaded]
        facts["delta"] = fresh.delta.map { ["added": $0.added, "changed": $0.changed, "removed": $0.removed] }
        let freshIDs = fresh.meetings.map(\.id), downloadIDs = download.meetings.map(\.id)
        guard freshIDs == downloadIDs else {
            let missing = Set(downloadIDs).subtracting(freshIDs).sorted(), extra = Set(freshIDs).subtracting(downloadIDs).sorted()
            let order = missing.isEmpty && extra.isEmpty ? "the same meetings in another order" : ReadChecks.difference(missing: missing, extra: extra)
            return .failed("\(what) brought up to date holds \(plural(freshIDs.count, "meeting")), a new download \(counted(downloadIDs.count)): \(order)",
                           advice: "Apps that refresh lists from the change log show a list the server does not — a BMLTKit bug: report "
                               + "it with the --verbose output; meanwhile download the list whole (meetings(matching:)) instead of "
                               + "updating it.", facts)
        }
        let differing = zip(fresh.meetings, download.meetings).filter { $0 != $1 }
        guard differing.isEmpty else {
            let first = differing[0]
            let a = JSONRecords.meeting(first.0), b = JSONRecords.meeting(first.1)
            let fields = Set(a.keys).union(b.keys).filter { "\(a[$0] ?? "")" != "\(b[$0] ?? "")" }.sorted()
            return .failed("\(plural(differing.count, "meeting")) differ from a new download (e.g. #\(first.0.id): "
                           + fields.prefix(5).joined(separator: ", ") + ")",
                           advice: "Apps that refresh lists from the change log show stale values: download the list whole instead.", facts)
        }
        return .passed("\(plural(freshIDs.count, "meeting")), equal to a new download; \(cost)\(delta)", facts)
    }
}
