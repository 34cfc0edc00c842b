/// Where a meeting happens: in a room, online/by phone, or both.
public enum BMLTVenueType: Int, Sendable, Hashable, Codable, CaseIterable {
    /// In person only (1 on the wire).
    case inPerson = 1
    /// Virtual only: online or by phone (2 on the wire).
    case virtual = 2
    /// Both in person and virtual (3 on the wire).
    case hybrid = 3
}
