import Foundation

extension BMLTUnknownWriteOutcome {
    /// What the look-up found, or why it could not settle the outcome.
    ///
    /// A struct with static members rather than an enum, so that a later release can add a finding without breaking a
    /// host's `switch` (match with `case .notFoundYet:` … and a `default:`; read `ids`, `keys` and `error` for the
    /// details).
    /// ```swift
    /// switch open.finding {
    /// case .notFoundYet, .loginExpired: print("read the meetings again later")
    /// default: print(open.finding.ids)
    /// }
    /// ```
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        enum Kind: String, Sendable, Hashable, CaseIterable {
            case lookUpFailed, severalCandidates, changedElsewhere, loginExpired, loginChanged, doneButUnread
            case noRecordButSimilar, notLookedUp, notFoundYet, unmatchedRecord
        }

        let kind: Kind
        /// The items the finding names (candidates, similar items, unmatched records, the item done), or `[]`.
        /// ```swift
        /// print(open.finding.ids)   // [3001, 3002]
        /// ```
        public let ids: [Int]
        /// The fields the finding names (`changedElsewhere`), or `[]`.
        /// ```swift
        /// print(open.finding.keys)  // ["meeting_name"]
        /// ```
        public let keys: [String]
        // An array, not an optional: `BMLTError` holds this value in turn (an array breaks the recursion).
        private let errors: [BMLTError]

        /// The error the finding carries (`lookUpFailed`, `doneButUnread`), or `nil`.
        /// ```swift
        /// if let error = open.finding.error { print(error.description) }
        /// ```
        public var error: BMLTError? { errors.first }

        init(_ kind: Kind, ids: [Int] = [], keys: [String] = [], error: BMLTError? = nil) {
            self.kind = kind
            self.ids = ids
            self.keys = keys
            self.errors = error.map { [$0] } ?? []
        }

        /// The look-up itself failed (the error says why: the network is still down, the server still failing, …).
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.lookUpFailed(.timeout)
        /// ```
        public static func lookUpFailed(_ error: BMLTError) -> Finding { Finding(.lookUpFailed, error: error) }
        /// Several new items match what was sent, all made by this login since the request: none is picked.
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.severalCandidates(ids: [3001, 3002])
        /// ```
        public static func severalCandidates(ids: [Int]) -> Finding { Finding(.severalCandidates, ids: ids) }
        /// The server holds values that are neither those sent nor those before, for these fields: someone else
        /// changed the meeting in between.
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.changedElsewhere(keys: ["meeting_name"])
        /// ```
        public static func changedElsewhere(keys: [String]) -> Finding { Finding(.changedElsewhere, keys: keys) }
        /// The login ended before the look-up, and the connection keeps no password to log in again.
        /// ```swift
        /// if open.finding == .loginExpired { showLogin() }
        /// ```
        public static let loginExpired = Finding(.loginExpired)
        /// Another login (or a logout) replaced the one that sent the write before it could be looked up or sent
        /// again: nothing was looked up under the new login and nothing was sent again.
        /// ```swift
        /// if open.finding == .loginChanged { print("log in as the first user to check") }
        /// ```
        public static let loginChanged = Finding(.loginChanged)
        /// The server did the write (the item's id when known) but it could not be read back (the error says why).
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.doneButUnread(id: 3001, .timeout)
        /// ```
        public static func doneButUnread(id: Int?, _ error: BMLTError) -> Finding {
            Finding(.doneButUnread, ids: id.map { [$0] } ?? [], error: error)
        }
        /// The server's change log has no record of a creation, but the server lists items like the one sent (their
        /// ids), or a record older than the request: nothing can be proven.
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.noRecordButSimilar(ids: [3001])
        /// ```
        public static func noRecordButSimilar(ids: [Int]) -> Finding { Finding(.noRecordButSimilar, ids: ids) }
        /// There is nothing to look up (a message to a contact leaves no record; other server administration writes
        /// are not looked up).
        /// ```swift
        /// if open.finding == .notLookedUp { print("check by hand") }
        /// ```
        public static let notLookedUp = Finding(.notLookedUp)
        /// Nothing was found, but the server may still be doing the write or may get it late (its answer was lost
        /// after the request was sent: a lost connection, a gateway's 502/503/504, a timeout, a cancel): a creation is
        /// never sent again on its own. Saving the same draft again looks again first (see the Administration article).
        /// ```swift
        /// if open.finding == .notFoundYet { print("read the meetings again in a minute") }
        /// ```
        public static let notFoundYet = Finding(.notFoundYet)
        /// The change log shows creations by this login since the request (their ids) that do not match what was sent
        /// exactly: one may be this write as the server stored it. None is claimed; nothing was sent again.
        /// ```swift
        /// let finding = BMLTUnknownWriteOutcome.Finding.unmatchedRecord(ids: [3001])
        /// ```
        public static func unmatchedRecord(ids: [Int]) -> Finding { Finding(.unmatchedRecord, ids: ids) }

        /// The finding's stable name, the same in every release and language: the name of the static member that
        /// makes it (`"notFoundYet"`, `"severalCandidates"`, `"lookUpFailed"`, …), as `BMLTError.Subject.name` and
        /// `BMLTError.Argument.name` name theirs. Tells apart the findings that carry details (`ids`, `keys`, `error`),
        /// which `==` against a static member cannot match.
        /// ```swift
        /// switch open.finding.name {
        /// case "severalCandidates", "unmatchedRecord": print("pick one of", open.finding.ids)
        /// case "lookUpFailed": print(open.finding.error?.localizedDescription ?? "")
        /// default: print(open.finding)
        /// }
        /// ```
        public var name: String { kind.rawValue }

        /// The finding's name and details, in English (for logs).
        public var description: String {
            var parts: [String] = []
            if !ids.isEmpty { parts.append("ids: \(ids)") }
            if !keys.isEmpty { parts.append("keys: \(keys)") }
            if let error { parts.append(error.description) }
            return parts.isEmpty ? name : "\(name)(\(parts.joined(separator: ", ")))"
        }
    }
}
