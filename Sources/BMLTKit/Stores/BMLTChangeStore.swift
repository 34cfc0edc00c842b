import Observation

/// The last change list and the last list of deleted meetings, kept up to date on the main actor.
@MainActor
@Observable
public final class BMLTChangeStore {
    /// The changes of the last change query, newest first.
    public internal(set) var changes: [BMLTChange] = []
    /// The deletions of the last deleted-meetings query (the latest per meeting), newest first.
    public internal(set) var deletedMeetings: [BMLTChange] = []
    /// The last error of a change query; `nil` after one succeeds.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}
}
