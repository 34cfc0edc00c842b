/// A day of the week, numbered as the root server's read interface numbers it: Sunday is 1, Saturday is 7.
///
/// The REST admin interface numbers days 0–6 from Sunday; BMLTKit converts at the wire, so you only ever see
/// this type.
public enum BMLTWeekday: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Sunday (1 on the wire).
    case sunday = 1
    /// Monday (2 on the wire).
    case monday = 2
    /// Tuesday (3 on the wire).
    case tuesday = 3
    /// Wednesday (4 on the wire).
    case wednesday = 4
    /// Thursday (5 on the wire).
    case thursday = 5
    /// Friday (6 on the wire).
    case friday = 6
    /// Saturday (7 on the wire).
    case saturday = 7

    /// Orders from Sunday to Saturday.
    public static func < (lhs: BMLTWeekday, rhs: BMLTWeekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The English name, e.g. "Monday".
    public var name: String {
        switch self {
        case .sunday: "Sunday"
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        }
    }
}
