import Foundation

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

    /// The day's name in `locale`'s language, from Foundation's calendar (standalone form, as in a list or a
    /// heading): "lunes" in Spanish, "دوشنبه" in Farsi. `name` is the English one.
    /// ```swift
    /// print(BMLTWeekday.monday.localizedName(for: Locale(identifier: "de")))   // Montag
    /// ```
    public func localizedName(for locale: Locale) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        let symbols = calendar.standaloneWeekdaySymbols     // Sunday first, as rawValue 1
        return symbols.indices.contains(rawValue - 1) ? symbols[rawValue - 1] : name
    }

    /// The English name, e.g. "Monday" (`localizedName(for:)` in another language).
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
