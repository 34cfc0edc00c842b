import Foundation

/// Local ("wall clock") times in a time zone, turned into absolute time by the rule RFC 5545 §3.3.5 gives
/// calendar programs: a local time that does not exist (skipped when clocks go forward) is read with the UTC
/// offset before the gap, so it moves forward by the gap's length (02:30 → 03:30; 02:15 → 02:45 where the gap is
/// half an hour); a local time that happens twice (clocks go back) is its first instance.
///
/// Computed here rather than with `Calendar.nextDate(after:matching:…)`: on Linux that call skipped the whole day
/// of a half-hour gap (Australia/Lord_Howe) instead of moving the time forward.
struct WallClock {
    let zone: TimeZone

    /// Days since 1970-01-01 of a civil (proleptic Gregorian) date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The BMLT weekday (1 = Sunday … 7 = Saturday) of a day counted from 1970-01-01 (a Thursday).
    static func weekday(ofDay day: Int) -> Int {
        ((day + 4) % 7 + 7) % 7 + 1
    }

    /// The local day (days since 1970-01-01 on the wall clock) that `date` falls on.
    func localDay(of date: Date) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }

    /// The instant of `secondsIntoDay` on local day `day`, by the RFC 5545 rule above.
    func instant(day: Int, secondsIntoDay: Int) -> Date {
        let wall = Double(day) * 86_400 + Double(secondsIntoDay)
        // Real zones change their offset at most once in any 52 hours: the offsets a day before and a day after
        // are the only two this wall time can have.
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 93_600))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 93_600))
        let early = Date(timeIntervalSince1970: wall - Double(before))
        let late = Date(timeIntervalSince1970: wall - Double(after))
        if zone.secondsFromGMT(for: early) == before { return early }   // valid before the change, or the first of two
        if zone.secondsFromGMT(for: late) == after { return late }      // valid after the change
        return early                                                    // in the gap: the offset before it
    }
}
