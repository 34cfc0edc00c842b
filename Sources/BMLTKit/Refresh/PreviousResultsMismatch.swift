import Foundation

extension BMLTError {
    /// Why results given to `meetings(matching:updating:)` cannot be brought up to date as the search asked for
    /// (`BMLTError.invalidArgument(.previousResults(_))`).
    /// ```swift
    /// if case .invalidArgument(.previousResults(.otherSearch)) = error { print("search anew") }
    /// ```
    public enum PreviousResultsMismatch: Sendable, Hashable {
        /// They came from another root server.
        case otherServer
        /// They answer other criteria (or another extent) on this server.
        case otherSearch
    }
}
