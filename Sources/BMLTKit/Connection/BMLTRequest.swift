import Foundation

/// A handle on one operation in flight: what it is, and a way to cancel it.
///
/// Every fire-and-forget call returns one; the same handle arrives in that operation's outcome notification
/// (`notification.bmltRequest`). Cancelling stops only this operation: the HTTP session, its cookies and the
/// login are untouched, and the other requests go on.
/// ```swift
/// let request = connection.searchMeetings(criteria, extent: .meetingsOnly)
/// request.cancel()   // → .bmltRequestCancelled, never .bmltError
/// ```
public final class BMLTRequest: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Unique for the life of the process.
    public let id: UUID
    /// What the request does.
    public let kind: BMLTRequestKind
    /// When it was started.
    public let startedAt: Date

    private let state = Locked(State())

    private struct State {
        var isCancelled = false
        var isFinished = false
        var isFromCache = false
        /// A meeting search's: what a refresh changed (`nil` for a whole download), for its notification.
        var searchDelta: BMLTSearchDelta?
        /// When the whole call's deadline passed (uptime nanoseconds), if it did before the outcome.
        var deadlinePassedAt: UInt64?
        var cancelHandler: (@Sendable () -> Void)?
    }

    init(kind: BMLTRequestKind) {
        self.id = UUID()
        self.kind = kind
        self.startedAt = Date()
    }

    /// What a meeting search brought up to date from the change log changed: the ids added, changed and removed
    /// (`meetings(matching:updating:)`); `nil` for a list downloaded whole and for every other request. Set before
    /// the outcome is announced, so it is there for every way of observing it: `connection.events` (the request of
    /// `.meetingSearchResults`), the `.bmltMeetingSearchResults` notification (also `bmltSearchDelta`) and the typed
    /// message's `delta`.
    /// ```swift
    /// for await event in connection.events {
    ///     if case .meetingSearchResults(_, let request) = event, let delta = request.searchDelta {
    ///         print(delta.added, delta.changed, delta.removed)
    ///     }
    /// }
    /// ```
    public internal(set) var searchDelta: BMLTSearchDelta? {
        get { state.withLock { $0.searchDelta } }
        set { state.withLock { $0.searchDelta = newValue } }
    }

    /// Cancels the request. Harmless when it has already finished or was already cancelled.
    public func cancel() {
        let handler: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.isCancelled, !state.isFinished else { return nil }
            state.isCancelled = true
            return state.cancelHandler
        }
        handler?()
    }

    /// Whether `cancel()` was called before the request finished.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the request has delivered its outcome.
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Whether its outcome came from the response cache, not the server (see `BMLTCachePolicy`); set before the
    /// outcome is announced.
    /// ```swift
    /// if notification.bmltRequest?.isFromCache == true { banner.text = "Offline: showing saved results" }
    /// ```
    public var isFromCache: Bool { state.withLock { $0.isFromCache } }

    /// Marks the outcome as answered by the cache.
    func markFromCache() { state.withLock { $0.isFromCache = true } }

    /// Notes the moment the whole call's deadline passed (`OperationDeadline`), from which tests measure the outcome.
    func noteDeadlinePassed() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.deadlinePassedAt = now }
    }

    /// When the whole call's deadline passed (uptime nanoseconds, as `DispatchTime`), `nil` when it did not.
    var deadlinePassedAt: UInt64? { state.withLock { $0.deadlinePassedAt } }

    /// Installs what `cancel()` does; runs it at once if the request was cancelled already.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            state.cancelHandler = handler
            return state.isCancelled && !state.isFinished
        }
        if runNow { handler() }
    }

    /// Marks the request finished. Returns `false` when it had finished already: one outcome per request.
    func finish() -> Bool {
        state.withLock { state in
            guard !state.isFinished else { return false }
            state.isFinished = true
            state.cancelHandler = nil
            return true
        }
    }

    /// Identity equality.
    public static func == (lhs: BMLTRequest, rhs: BMLTRequest) -> Bool { lhs.id == rhs.id }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// "search meetings #1A2B3C4D".
    public var description: String { "\(kind) #\(id.uuidString.prefix(8))" }
}

/// What a request does. Frozen until the next major release: an operation added in a 2.x release takes its nearest
/// kind (`.serverAdministration` for an administration call), so an exhaustive `switch` compiles through every 2.x.
public enum BMLTRequestKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Server validation (server info, service bodies, formats, languages).
    case validation
    /// A meeting search.
    case meetingSearch
    /// A format query.
    case formats
    /// A service-body query.
    case serviceBodies
    /// A change-list query.
    case changes
    /// A deleted-meetings query.
    case deletedMeetings
    /// A field keys or field values query.
    case fieldValues
    /// The coverage area query.
    case coverageArea
    /// The NAWS export.
    case nawsExport
    /// Administrator login.
    case login
    /// Administrator logout.
    case logout
    /// Reading the login's permissions.
    case permissions
    /// Saving a meeting (edit or create).
    case saveMeeting
    /// Deleting a meeting.
    case deleteMeeting
    /// Restoring a deleted meeting.
    case restoreMeeting
    /// Rolling a meeting back to before a change.
    case rollbackMeeting
    /// A message to a meeting's contact.
    case sendMessage
    /// Administration of formats, service bodies, users or settings.
    case serverAdministration

    /// A short phrase, e.g. "meeting search".
    public var description: String {
        switch self {
        case .validation: "validation"
        case .meetingSearch: "meeting search"
        case .formats: "formats"
        case .serviceBodies: "service bodies"
        case .changes: "changes"
        case .deletedMeetings: "deleted meetings"
        case .fieldValues: "field values"
        case .coverageArea: "coverage area"
        case .nawsExport: "NAWS export"
        case .login: "login"
        case .logout: "logout"
        case .permissions: "permissions"
        case .saveMeeting: "save meeting"
        case .deleteMeeting: "delete meeting"
        case .restoreMeeting: "restore meeting"
        case .rollbackMeeting: "rollback meeting"
        case .sendMessage: "send message"
        case .serverAdministration: "server administration"
        }
    }
}
