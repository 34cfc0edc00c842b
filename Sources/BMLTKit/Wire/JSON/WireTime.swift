import Foundation

/// Times and durations as the server writes them: `HH:MM:SS`, `H:MM:SS`, `HH:MM` (REST, search parameters).
enum WireTime {
    /// Parses a time of day. Anything that is not a valid time (letters, minutes over 59, hours over 24) is `nil`,
    /// never midnight.
    static func timeOfDay(_ text: String) -> BMLTTimeOfDay? {
        guard let (hour, minute, second) = components(text), hour <= 24,
              hour < 24 || (minute == 0 && second == 0) else { return nil }
        return BMLTTimeOfDay(hour: hour, minute: minute, second: second)
    }

    /// Parses a duration into seconds (`"01:30:00"` → 5400). Hours may exceed 24. Invalid text is `nil`.
    static func duration(_ text: String) -> TimeInterval? {
        guard let (hour, minute, second) = components(text) else { return nil }
        return TimeInterval(hour * 3600 + minute * 60 + second)
    }

    /// `HH:MM:SS` for a duration in seconds.
    static func durationString(_ seconds: TimeInterval) -> String {
        let total = wholeSeconds(seconds)
        return BMLTTimeOfDay.pad(total / 3600) + ":" + BMLTTimeOfDay.pad((total % 3600) / 60) + ":" + BMLTTimeOfDay.pad(total % 60)
    }

    /// `seconds` rounded to whole seconds for the wire, whatever the number (a draft's `duration` is the host's to
    /// set): 0 for NaN and anything below 0, at most 1e9 (`Int(_:)` traps on an infinite or huge value). Validation
    /// refuses a NaN, infinite or negative duration before a save on every generation (3.x/4.x: anything not under
    /// 24 h; `BMLTFieldProblem.Reason.durationTooLong`); this keeps every other path that prints one (a change list, a
    /// diff, an export, a search's duration bounds, the refresh's order) from crashing.
    static func wholeSeconds(_ seconds: TimeInterval) -> Int {
        guard seconds > 0 else { return 0 }    // NaN compares false
        return Int(min(seconds, 1e9).rounded())
    }

    private static func components(_ text: String) -> (Int, Int, Int)? {
        if let fixed = fixedWidth(text) { return fixed }
        let parts = text.trimmedSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) : 0
        guard let second, minute < 60, second < 60 else { return nil }
        return (hour, minute, second)
    }
}

extension WireTime {
    /// The usual `HH:MM:SS` or `HH:MM`, read digit by digit (the general path below gives the same answer, slower).
    private static func fixedWidth(_ text: String) -> (Int, Int, Int)? {
        let parsed: (Int, Int, Int)?? = text.utf8.withContiguousStorageIfAvailable(fixedWidth)
        return parsed ?? nil
    }

    /// `HH:MM:SS` or `HH:MM` as bytes (hours may be over 24: the caller decides).
    static func fixedWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard bytes.count == 8 || bytes.count == 5 else { return nil }
        func pair(_ at: Int) -> Int? {
            let high = Int(bytes[at]) - 48, low = Int(bytes[at + 1]) - 48
            guard (0...9).contains(high), (0...9).contains(low) else { return nil }
            return high * 10 + low
        }
        guard bytes[2] == UInt8(ascii: ":"), let hour = pair(0), let minute = pair(3), minute < 60 else { return nil }
        guard bytes.count == 8 else { return (hour, minute, 0) }
        guard bytes[5] == UInt8(ascii: ":"), let second = pair(6), second < 60 else { return nil }
        return (hour, minute, second)
    }
}

extension BMLTTimeOfDay {
    static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
