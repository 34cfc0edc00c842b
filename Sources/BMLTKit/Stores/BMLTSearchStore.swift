import Observation

/// The results of the last meeting search, kept up to date on the main actor.
///
/// A failed search sets `lastError` and keeps the previous meetings, formats and criteria; a successful one
/// clears `lastError`.
@MainActor
@Observable
public final class BMLTSearchStore {
    /// The meetings the last search found (a formats-only search leaves them as they were).
    public internal(set) var meetings: [BMLTMeeting] {
        get {
            access(keyPath: \.meetings)
            return storedMeetings
        }
        set {
            // Observed by hand: the generated setter compares the old and new lists (`Equatable`), which for a repeated
            // search of 15,000 meetings is a full comparison, about 17 ms on the main actor. A new list is a change.
            withMutation(keyPath: \.meetings) { storedMeetings = newValue }
            // An edit or a deletion saved while no search is arriving shows in `meetingsSoFar` too (the same buffer).
            if arriving == nil { meetingsSoFar = newValue }
        }
    }
    @ObservationIgnored private var storedMeetings: [BMLTMeeting] = []
    /// The meetings to show now: while a meeting search's meetings are arriving, those it has delivered so far, in the
    /// server's order (they replace what was shown, also a `.cacheThenNetwork` search's cached list); otherwise the
    /// same list as `meetings`. `isComplete` says which. A host that shows this list instead of `meetings` puts the
    /// first meetings on screen after the first few kilobytes of the reply.
    /// ```swift
    /// List(connection.search.meetingsSoFar) { meeting in Text(meeting.name) }
    ///     .overlay { if !connection.search.isComplete { ProgressView() } }
    /// ```
    public internal(set) var meetingsSoFar: [BMLTMeeting] {
        get {
            access(keyPath: \.meetingsSoFar)
            return storedSoFar
        }
        set {
            withMutation(keyPath: \.meetingsSoFar) { storedSoFar = newValue }
        }
    }
    @ObservationIgnored private var storedSoFar: [BMLTMeeting] = []
    /// Whether `meetingsSoFar` is a whole list: `false` while a search's meetings are arriving (from its first batch
    /// until it ends), `true` otherwise. A search that fails or is cancelled midway puts `meetingsSoFar` back to
    /// `meetings` (the last whole results) and this back to `true`.
    /// ```swift
    /// statusLabel.text = connection.search.isComplete ? "\(connection.search.meetings.count) meetings" : "Loading…"
    /// ```
    public internal(set) var isComplete = true
    /// The search whose meetings are arriving.
    @ObservationIgnored private var arriving: ObjectIdentifier?
    /// The meeting search begun last: it owns `meetingsSoFar` (an older one still running is not shown there).
    @ObservationIgnored private var owner: ObjectIdentifier?
    /// The formats used by those meetings (when the search asked for them).
    public internal(set) var formats: [BMLTFormat] = []
    /// The criteria of the last successful search.
    public internal(set) var criteria: BMLTSearchCriteria?
    /// What the last successful search asked for.
    public internal(set) var extent: BMLTSearchExtent?
    /// The last error of a search; `nil` after a search succeeds.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}

    /// A meeting search began: from now on its batches, not an older search's, fill `meetingsSoFar`.
    func beginArrival(of request: BMLTRequest) {
        owner = ObjectIdentifier(request)
    }

    /// A batch of a running search: the first one replaces what was shown; later ones of the same search are added.
    /// A batch of a search older than the one begun last is not shown.
    func arrive(_ batch: [BMLTMeeting], of request: BMLTRequest) {
        if let owner, owner != ObjectIdentifier(request) { return }
        if arriving == ObjectIdentifier(request) {
            withMutation(keyPath: \.meetingsSoFar) { storedSoFar.append(contentsOf: batch) }
        } else {
            arriving = ObjectIdentifier(request)
            replaceSoFar(with: batch)
        }
        if isComplete { isComplete = false }
    }

    /// A search ended (it filled `meetings`, failed or was cancelled): `meetingsSoFar` shows `meetings` again, unless
    /// another search's meetings are arriving.
    func endArrival(of request: BMLTRequest) {
        if let owner {
            guard owner == ObjectIdentifier(request) else { return }     // an older search ended: the newer one goes on
        } else {
            guard arriving == nil || arriving == ObjectIdentifier(request) else { return }
        }
        owner = nil
        arriving = nil
        replaceSoFar(with: storedMeetings)
        if !isComplete { isComplete = true }
    }

    /// The partial list is freed off the main actor, as the previous results are (see `BMLTConnection.store`).
    private func replaceSoFar(with meetings: [BMLTMeeting]) {
        let previous = BackgroundRelease.take(storedSoFar)
        meetingsSoFar = meetings
        previous.release()
    }

    /// The meeting with this id among the results, if there.
    public func meeting(id: Int) -> BMLTMeeting? { meetings.first { $0.id == id } }
}
