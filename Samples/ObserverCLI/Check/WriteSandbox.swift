import BMLTKit
import Foundation

/// The safety rules of the checks that write: only in the sandbox service body; at most `CheckSettings.writeBudget`
/// writes, `spacing` seconds apart; every meeting made is remembered and deleted again at the end — after a failure
/// midway or Ctrl-C too — and what the server's change log keeps of it (no one can erase it) is said.
@MainActor
final class WriteSandbox {
    let context: CommandContext
    let settings: CheckSettings
    /// This run's mark in the names of the meetings it makes (`bmlt-observer check 1a2b3c`): only meetings with it are
    /// ever deleted by the clean-up's search.
    let mark: String
    /// When the run began (its change records are those since).
    let began = Date()
    private(set) var writes = 0
    private var lastWrite: ContinuousClock.Instant?
    /// The meetings made and still held, by id.
    private(set) var held: [Int: String] = [:]
    /// Every meeting id this run made (for the change log's account).
    private(set) var made: [Int] = []
    /// The service body's meetings (ids) before the first write.
    var before: Set<Int>?
    /// The logins to end at the clean-up (the second login's too).
    var logins: [BMLTConnection] = []
    /// The password, kept in memory only, to log in again if the clean-up finds the login ended.
    var credentials: (user: String, password: String)?
    private(set) var changeLogLines: [String] = []
    private(set) var resultRecord: [String: Any] = [:]

    init(context: CommandContext, settings: CheckSettings) {
        self.context = context
        self.settings = settings
        mark = "bmlt-observer check " + String(UUID().uuidString.lowercased().prefix(6))
    }

    var serviceBodyID: Int { settings.serviceBodyID ?? 0 }

    /// Runs one write within the rules: refused past the budget; waits until `spacing` has passed since the last one.
    func write<Value>(_ body: @MainActor () async throws -> Value) async throws -> Value {
        guard writes < CheckSettings.writeBudget else {
            throw CLIFailure("The check stopped before its \(writes + 1)th write: at most \(CheckSettings.writeBudget) writes are allowed in one run.")
        }
        try await space()
        writes += 1
        defer { lastWrite = ContinuousClock().now }
        return try await body()
    }

    private func space() async throws {
        guard let lastWrite else { return }
        let waited = lastWrite.duration(to: ContinuousClock().now)
        let left = settings.spacing - (Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18)
        if left > 0 { try await Task.sleep(nanoseconds: UInt64(left * 1e9)) }
    }

    /// A meeting this run made (to be deleted again).
    func made(_ meeting: BMLTMeeting) {
        held[meeting.id] = meeting.name
        if !made.contains(meeting.id) { made.append(meeting.id) }
    }

    /// A meeting this run deleted.
    func deleted(_ id: Int) { held[id] = nil }

    /// The sandbox's meetings as the login sees them (published or not).
    func meetings(_ connection: BMLTConnection) async throws -> [BMLTMeeting] {
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [serviceBodyID]
        criteria.publishedStatus = .both
        return try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
    }

    /// Deletes every meeting this run made and still held (also any with this run's mark the server holds: a creation
    /// whose answer Ctrl-C cut off), checks the sandbox holds what it held before, says what the change log keeps, and
    /// logs out. Runs whatever happened before: it is not cancelled by Ctrl-C.
    func cleanUp(runner: CheckRunner, interrupted: Bool) async {
        let connection = context.connection
        guard writes > 0 || !held.isEmpty else {
            for login in logins + [connection] where login.admin.isLoggedIn { try? await login.logoutAndWait() }
            return
        }
        _ = try? await runner.run("cleanup", "clean-up: every meeting made is deleted again", .write) {
            if !connection.admin.isLoggedIn, let credentials {
                try await connection.login(username: credentials.user, password: credentials.password)
            }
            if let found = try? await meetings(connection) {
                for meeting in found where meeting.name.hasPrefix(mark) && held[meeting.id] == nil && !made.contains(meeting.id) {
                    held[meeting.id] = meeting.name
                    made.append(meeting.id)
                }
            }
            var failed: [(Int, String)] = []
            var done: [Int] = []
            for id in held.keys.sorted() {
                do {
                    try await space()
                    try await connection.deleteMeetingAndWait(id: id)
                    lastWrite = ContinuousClock().now
                    held[id] = nil
                    done.append(id)
                } catch {
                    failed.append((id, ErrorWords.sentence(error, timeout: context.timeout)))
                }
            }
            guard failed.isEmpty else {
                let user = credentials?.user ?? "NAME"
                return .failed("could not delete " + failed.map { "#\($0.0) (\($0.1))" }.joined(separator: "; "),
                               advice: "Delete them by hand: " + failed.map { "bmlt-observer --server URL admin delete \($0.0) --yes --user \(user)" }
                                   .joined(separator: "; "), ["left": failed.map(\.0)])
            }
            let reason = interrupted ? " after Ctrl-C" : ""
            return .passed(done.isEmpty ? "nothing left to delete\(reason)" : "deleted again\(reason): " + done.map { "#\($0)" }.joined(separator: ", "),
                           ["deleted": done])
        }
        if let before {
            _ = try? await runner.run("sandbox-unchanged", "the sandbox holds the meetings it held before", .write) {
                let after = Set(try await meetings(connection).map(\.id))
                guard after == before else {
                    return .failed("service body #\(serviceBodyID) held \(plural(before.count, "meeting")) before, \(counted(after.count)) now: "
                                   + ReadChecks.difference(missing: before.subtracting(after).sorted(), extra: after.subtracting(before).sorted()),
                                   advice: "Look at these meetings (bmlt-observer --server URL changes --service-body \(serviceBodyID)) "
                                       + "and delete by hand what this check made.")
                }
                return .passed("\(plural(after.count, "meeting")), the same as before")
            }
        }
        await accountForChangeLog(connection)
        for login in logins where login.admin.isLoggedIn { try? await login.logoutAndWait() }
        if connection.admin.isLoggedIn { try? await connection.logoutAndWait() }
    }

    /// What stays in the server's change log of this run's writes (no one can erase it), in lines and for `--json`.
    private func accountForChangeLog(_ connection: BMLTConnection) async {
        guard !made.isEmpty else { return }
        let changes = (try? await connection.changes(from: began.addingTimeInterval(-86_400), serviceBodyID: serviceBodyID)) ?? []
        let ours = changes.filter { $0.meetingID.map(made.contains) ?? false }
        var kinds: [String: Int] = [:]
        for change in ours { kinds[FieldWords.changeType(change.type), default: 0] += 1 }
        let summary = kinds.keys.sorted().map { "\(kinds[$0]!) \($0)" }.joined(separator: ", ")
        changeLogLines = ["The server's change log keeps \(plural(ours.count, "record")) of this check (no one can erase them): "
                          + (summary.isEmpty ? "none found" : summary) + "; meetings " + made.map { "#\($0)" }.joined(separator: ", ")
                          + " (named “\(mark) …”)."]
        resultRecord = ["serviceBodyID": serviceBodyID, "writes": writes, "meetingsMade": made,
                        "changeLogRecords": ours.count, "changeLogKinds": kinds, "mark": mark]
    }
}
