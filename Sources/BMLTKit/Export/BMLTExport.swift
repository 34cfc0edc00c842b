import Foundation

/// Meetings in the formats other tools read: Meeting Guide JSON (TSML) and iCalendar.
///
/// Exports never invent values: a meeting without a weekday or a start time (and, for TSML, without any place —
/// coordinates, an address or a virtual link or phone) is left out and listed in the report's `skipped`.
/// ```swift
/// let json = try BMLTExport.tsml(results.meetings, defaultTimeZone: .current)
/// let calendar = BMLTExport.iCalendar(results.meetings, defaultTimeZone: .current,
///                                     from: .now, to: .now.addingTimeInterval(90 * 86_400))
/// ```
public enum BMLTExport {
    /// A meeting an export left out, and why.
    /// ```swift
    /// for skip in report.skipped { print("#\(skip.meetingID): \(skip.reason)") }
    /// ```
    public struct Skipped: Sendable, Hashable, Codable {
        /// The meeting's id.
        public let meetingID: Int
        /// Why it was left out, in a sentence.
        public let reason: String
    }

    /// What an export produced, with what it left out.
    /// ```swift
    /// let report = try BMLTExport.tsmlReport(meetings, defaultTimeZone: .current)
    /// print("\(report.exportedIDs.count) exported, \(report.skipped.count) skipped")
    /// ```
    public struct Report<Output: Sendable>: Sendable {
        /// The export itself.
        public let output: Output
        /// The ids of the meetings exported, in order.
        public let exportedIDs: [Int]
        /// The meetings left out.
        public let skipped: [Skipped]
        /// The ids of exported meetings that had no time zone of their own, so the default was written for them
        /// (a meeting finder may want to flag them, as tsml-ui does).
        public let defaultedTimeZoneIDs: [Int]
    }

    /// Why a meeting cannot be placed in time, or `nil` when it can.
    static func missingTime(_ meeting: BMLTMeeting) -> Skipped? {
        if meeting.weekday == nil { return Skipped(meetingID: meeting.id, reason: "It has no weekday.") }
        if meeting.startTime == nil { return Skipped(meetingID: meeting.id, reason: "It has no start time.") }
        return nil
    }

    /// `HH:MM` of a time of day, wrapped into one day.
    static func clock(_ seconds: Int) -> String {
        let wrapped = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d", wrapped / 3600, wrapped % 3600 / 60)
    }

    /// The text of an optional field, `nil` when empty or only spaces.
    static func text(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The one-line postal address: street, town, state and postal code, country (the parts there are).
    static func address(_ meeting: BMLTMeeting) -> String? {
        let region = [text(meeting.province), text(meeting.postalCode)].compactMap { $0 }.joined(separator: " ")
        let parts = [text(meeting.street), text(meeting.municipality), text(region), text(meeting.nation)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The virtual link when it is a web address (some servers hold free text there).
    static func conferenceURL(_ meeting: BMLTMeeting) -> String? {
        guard let link = text(meeting.virtualMeetingLink), let url = URL(string: link),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else { return nil }
        return link
    }
}
