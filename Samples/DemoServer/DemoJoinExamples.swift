/// Join links, additional info and phone numbers in the shapes real servers hold, written over the first few
/// virtual and hybrid demo meetings (no meeting is added, so every count stays as it was): a Zoom vanity host with
/// `?pwd=`, Google Meet with a PIN, a Teams meetup-join link, a Zoom link without its scheme and French info with a
/// London number, a refused `javascript:` link, a Webex hybrid with Spanish info, and a Zoom hybrid typed with a
/// trailing period and a toll-free number with an extension. `bmlt-observer meeting ID` shows what BMLTKit makes
/// of each; `DemoJoinExamples.ids` lists which meetings they are.
enum DemoJoinExamples {
    /// One example: the fields it sets (an empty value clears the field).
    struct Example {
        let venueType: Int
        let fields: [String: String]
    }

    static let examples: [Example] = [
        Example(venueType: 2, fields: [
            "virtual_meeting_link": "https://stonebridge-na.zoom.us/j/85212345678?pwd=dEmO1bMlTkIt2",
            "virtual_meeting_additional_info": "Meeting ID: 852 1234 5678\nPasscode: 246810",
            "phone_meeting_number": "+1 612 555 0142",
        ]),
        Example(venueType: 2, fields: [
            "virtual_meeting_link": "meet.google.com/dmo-bmlt-kit",
            "virtual_meeting_additional_info": "Join by phone, PIN below",
            "phone_meeting_number": "+1 260-555-0100 PIN: 123 456 789#",
        ]),
        Example(venueType: 2, fields: [
            "virtual_meeting_link": "https://teams.microsoft.com/l/meetup-join/19%3ameeting_RGVtb0JNTFRLaXQ%40thread.v2/0?context=%7b%22Tid%22%3a%22demo%22%7d",
            "virtual_meeting_additional_info": "Meeting ID: 234 567 890 123\nPasscode: Ab3xYz\nPhone conference ID: 987 654 321#",
            "phone_meeting_number": "+1 323-555-0123",
        ]),
        Example(venueType: 2, fields: [
            "virtual_meeting_link": " zoom.us/j/81234567890 ",
            "virtual_meeting_additional_info": "ID de réunion : 812 3456 7890\nCode secret : 97531",
            "phone_meeting_number": "+44 (0)20 7946 0958",
        ]),
        Example(venueType: 2, fields: [
            "virtual_meeting_link": "javascript:alert('not a link')",
            "virtual_meeting_additional_info": "Ask the secretary for the link",
            "phone_meeting_number": "Call in",
        ]),
        Example(venueType: 3, fields: [
            "virtual_meeting_link": "https://stonebridge.webex.com/meet/esperanza",
            "virtual_meeting_additional_info": "ID de reunión: 2345 678 9012\nContraseña: Esperanza",
            "phone_meeting_number": "+52 55 5555 0134",
        ]),
        Example(venueType: 3, fields: [
            "virtual_meeting_link": "us02web.zoom.us/j/91234567890.",
            "virtual_meeting_additional_info": "Meeting ID 912 3456 7890, Password: 1357",
            "phone_meeting_number": "1-800-555-0199 ext. 12",
        ]),
    ]

    /// The meetings the examples went to, in the order of `examples` (the lowest published ids of each venue type).
    static func ids(in meetings: [Int: DemoMeeting]) -> [Int] {
        var used: [Int] = []
        for example in examples {
            let candidates = meetings.values.filter { $0.venueType == example.venueType && $0.published && !used.contains($0.id) }
            guard let id = candidates.map(\.id).min() else { continue }
            used.append(id)
        }
        return used
    }

    /// Writes the examples over those meetings.
    static func apply(to meetings: inout [Int: DemoMeeting], skipping excluded: [Int]) {
        let pool = meetings.filter { !excluded.contains($0.key) }
        for (example, id) in zip(examples, ids(in: pool)) {
            for (key, value) in example.fields { meetings[id]?[field: key] = value }
        }
    }
}
