/// A wall-clock time of day (hour 0–24, minute and second 0–59), as meetings start and search windows are given.
///
/// `24:00:00` is allowed because the server uses it for "end of day".
public struct BMLTTimeOfDay: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Hour, 0–24.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int
    /// Second, 0–59.
    public var second: Int

    /// A time of day; values out of range are clamped into 0:00:00…24:00:00.
    public init(hour: Int, minute: Int = 0, second: Int = 0) {
        // Summed as Double: a huge hour clamps instead of overflowing Int (every Int is exact enough here).
        let total = Int(max(0, min(24 * 3600, Double(hour) * 3600 + Double(minute) * 60 + Double(second))))
        self.hour = total / 3600
        self.minute = (total % 3600) / 60
        self.second = total % 60
    }

    /// Seconds since midnight.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    /// Orders by time since midnight.
    public static func < (lhs: BMLTTimeOfDay, rhs: BMLTTimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }

    /// `HH:MM:SS`, the read interface's form.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hour)):\(two(minute)):\(two(second))"
    }
}

/// A point on the earth in decimal degrees.
public struct BMLTCoordinate: Sendable, Hashable, Codable {
    /// Latitude, −90…90.
    public var latitude: Double
    /// Longitude, −180…180.
    public var longitude: Double

    /// A coordinate in decimal degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
