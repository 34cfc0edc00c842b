import BMLTKit
import Foundation

/// The meeting fields the checks that write set and read back, each as the text it is compared by (trimmed, empty as
/// absent, coordinates to 5 decimals, formats as a set of ids, times as `HH:MM`).
enum MeetingFields {
    static let all: [(name: String, value: @Sendable (BMLTMeeting) -> String?)] = [
        ("name", { text($0.name) }),
        ("weekday", { $0.weekday?.name }),
        ("start", { $0.startTime.map(FieldWords.clock) }),
        ("duration", { $0.duration.map { "\(Int($0 / 60)) min" } }),
        ("coordinates", { $0.coordinate.map { String(format: "%.5f,%.5f", $0.latitude, $0.longitude) } }),
        ("place", { text($0.locationText) }),
        ("street", { text($0.street) }),
        ("town", { text($0.municipality) }),
        ("state", { text($0.province) }),
        ("postal code", { text($0.postalCode) }),
        ("comments", { text($0.comments) }),
        ("contact name", { text($0.contactName1) }),
        ("formats", { $0.formatIDs.isEmpty ? nil : $0.formatIDs.sorted().map(String.init).joined(separator: ",") }),
        ("venue", { $0.venueType.map(FieldWords.venue) }),
        ("virtual link", { text($0.virtualMeetingLink) }),
        ("published", { $0.isPublished.map { $0 ? "yes" : "no" } }),
    ]

    /// Each field `wanted` sets that `held` does not hold as set: `published: yes → the server holds no`.
    static func mismatches(wanted: BMLTMeeting, held: BMLTMeeting, only names: Set<String>? = nil) -> [String] {
        all.compactMap { field in
            guard names?.contains(field.name) ?? true, let want = field.value(wanted) else { return nil }
            let got = field.value(held)
            return got == want ? nil : "\(field.name): “\(want)” saved, the server holds " + (got.map { "“\($0)”" } ?? "nothing")
        }
    }

    /// The value of one named field.
    static func value(_ name: String, of meeting: BMLTMeeting) -> String? {
        all.first { $0.name == name }?.value(meeting)
    }

    private static func text(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
