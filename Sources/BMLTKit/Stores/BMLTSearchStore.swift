import Observation

/// The results of the last meeting search, kept up to date on the main actor.
///
/// A failed search sets `lastError` and keeps the previous meetings and formats.
@MainActor
@Observable
public final class BMLTSearchStore {
    /// The meetings the last search found.
    public internal(set) var meetings: [BMLTMeeting] = []
    /// The formats used by those meetings (when the search asked for them).
    public internal(set) var formats: [BMLTFormat] = []
    /// The last error of a search.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}
}
