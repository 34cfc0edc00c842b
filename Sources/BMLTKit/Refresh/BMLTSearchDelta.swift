import Foundation

/// What a refresh (`meetings(matching:updating:)`) changed in a list: the ids of the meetings added, changed and
/// removed since the previous results, each in ascending order.
/// ```swift
/// let fresh = try await connection.meetings(matching: criteria, updating: previous)
/// if let delta = fresh.delta, !delta.isEmpty { print("changed:", delta.changed) }
/// ```
public struct BMLTSearchDelta: Sendable, Hashable, Codable {
    /// Meetings in the new list that were not in the previous one (created, published, or come to match).
    public var added: [Int]
    /// Meetings in both lists whose values changed.
    public var changed: [Int]
    /// Meetings of the previous list that are not in the new one (deleted, unpublished, or no longer matching).
    public var removed: [Int]

    /// A delta.
    /// ```swift
    /// let delta = BMLTSearchDelta(added: [2693], changed: [], removed: [856])
    /// ```
    public init(added: [Int] = [], changed: [Int] = [], removed: [Int] = []) {
        self.added = added.sorted()
        self.changed = changed.sorted()
        self.removed = removed.sorted()
    }

    /// Whether nothing was added, changed or removed.
    /// ```swift
    /// if fresh.delta?.isEmpty == true { print("nothing changed") }
    /// ```
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }
}
