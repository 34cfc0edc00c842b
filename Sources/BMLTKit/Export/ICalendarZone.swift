import Foundation

/// A `VTIMEZONE` for a Foundation time zone: one `STANDARD` or `DAYLIGHT` sub-component per offset change in the
/// range (each with its own `DTSTART`, so no recurrence rule has to be guessed), or one `STANDARD` for a zone
/// without changes.
struct ICalendarZone {
    let zone: TimeZone

    func lines(from start: Date, to end: Date) -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)"]
        var changes: [Date] = []
        var cursor = start
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= end, changes.count < 400 {
            changes.append(next)
            cursor = next
        }
        if changes.isEmpty {
            let offset = Self.offset(zone.secondsFromGMT(for: start))
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)",
                      "END:STANDARD"]
        }
        for change in changes {
            let before = zone.secondsFromGMT(for: change.addingTimeInterval(-1)), after = zone.secondsFromGMT(for: change)
            let kind = zone.isDaylightSavingTime(for: change) ? "DAYLIGHT" : "STANDARD"
            // DTSTART is the local time of the change on the clock before it (RFC 5545 §3.6.5).
            let local = Self.stamp(change.addingTimeInterval(Double(before)), utc: false)
            lines += ["BEGIN:\(kind)", "DTSTART:\(local)", "TZOFFSETFROM:\(Self.offset(before))", "TZOFFSETTO:\(Self.offset(after))"]
            if let name = zone.abbreviation(for: change), !name.isEmpty { lines.append("TZNAME:\(name)") }
            lines.append("END:\(kind)")
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// `+0530`, `-0500`.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+", magnitude = abs(seconds)
        return String(format: "%@%02d%02d", sign, magnitude / 3600, magnitude % 3600 / 60)
    }

    /// `20260106T193000Z` for an instant.
    static func utcStamp(_ date: Date) -> String { stamp(date, utc: true) }

    /// `20260106T193000`: the wall-clock time of `date` in `zone`.
    static func localStamp(_ date: Date, in zone: TimeZone) -> String {
        stamp(date.addingTimeInterval(Double(zone.secondsFromGMT(for: date))), utc: false)
    }

    /// The fields of `date` read as UTC.
    static func stamp(_ date: Date, utc: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0) + (utc ? "Z" : "")
    }
}
