import Foundation

extension BMLTError {
    /// Why results given to `meetings(matching:updating:)` cannot be brought up to date as the search asked for
    /// (`BMLTError.invalidArgument(.previousResults(_))`).
    ///
    /// Frozen at these two cases until the next major release (an exhaustive `switch` over it compiles through 2.x). A
    /// later reason to refuse previous results comes as a growing ``BMLTError/Argument`` static member of its own, whose
    /// `name` starts with `previousResults` as these two's do (`"previousResults.otherServer"`).
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
