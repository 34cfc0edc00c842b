import Observation

/// The last change list (changes or deleted meetings), kept up to date on the main actor.
@MainActor
@Observable
public final class BMLTChangeStore {
    /// The changes, newest first.
    public internal(set) var changes: [BMLTChange] = []
    /// The last error of a change query.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}
}
