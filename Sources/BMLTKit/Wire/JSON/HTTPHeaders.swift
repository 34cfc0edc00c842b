import Foundation

/// Reading response headers: a value whatever the case of its name, and the HTTP date of a `Date` header. One place
/// for both, used by the transport (a redirect's `Location`), the REST replies (`Content-Type`), the write look-up and
/// the refresh (the server's clock).
/// ```swift
/// let now = HTTPHeaders.value("date", in: reply.headers).flatMap(HTTPHeaders.date)   // "Date: Sun, 06 Nov 1994 …"
/// ```
enum HTTPHeaders {
    /// A header's value, whatever the case of its name (`nil` when absent).
    static func value(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), the form every server sends; the obsolete
    /// forms and anything else give `nil`. No `DateFormatter`: its parsing depends on ICU's data, and this runs on
    /// every refresh.
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" || parts[5] == "UTC",
              let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]) else {
            return nil
        }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        return utc.date(from: DateComponents(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second))
    }

    /// `date` as an IMF-fixdate, the form of a `Date` header (for the tests' stand-in servers).
    static func text(_ date: Date) -> String {
        let parts = utc.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let value = value ?? 0; return value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
