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
        }
    }
    @ObservationIgnored private var storedMeetings: [BMLTMeeting] = []
    /// The formats used by those meetings (when the search asked for them).
    public internal(set) var formats: [BMLTFormat] = []
    /// The criteria of the last successful search.
    public internal(set) var criteria: BMLTSearchCriteria?
    /// What the last successful search asked for.
    public internal(set) var extent: BMLTSearchExtent?
    /// The last error of a search; `nil` after a search succeeds.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}

    /// The meeting with this id among the results, if there.
    public func meeting(id: Int) -> BMLTMeeting? { meetings.first { $0.id == id } }
}
