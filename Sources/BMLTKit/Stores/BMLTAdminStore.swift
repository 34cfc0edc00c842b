import Observation

/// The administrator's session, kept up to date on the main actor.
@MainActor
@Observable
public final class BMLTAdminStore {
    /// Whether an administrator is logged in.
    public internal(set) var isLoggedIn = false
    /// The last error of an administration operation.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}
}
