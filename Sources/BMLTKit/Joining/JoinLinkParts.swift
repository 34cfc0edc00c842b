import Foundation

/// What a cleaned join link says about its meeting: the ID and passcode in its path or query, by service.
struct JoinLinkParts {
    var meetingID: String?
    /// The passcode in the link (`?pwd=` for Zoom, which is an encoded form Zoom's apps accept; `?p=` for Teams).
    var passcode: String?

    init(_ url: URL, service: BMLTVirtualService) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = (components?.percentEncodedPath ?? "").split(separator: "/").map(String.init)
        func query(_ name: String) -> String? {
            components?.queryItems?.first { $0.name.lowercased() == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        func digits(_ text: String?, _ range: ClosedRange<Int>) -> String? {
            guard let text, range.contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
            return text
        }
        func word(_ text: String?) -> String? {
            guard let text, (1...64).contains(text.count),
                  text.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "-_.".contains($0) }) else { return nil }
            return text
        }
        switch service {
        case .zoom:
            // /j/ID, /w/ID (webinar), /s/ID (start), /wc/join/ID, /wc/ID/join; /my/NAME is a personal link.
            if path.count >= 2, ["j", "w", "s"].contains(path[0].lowercased()) {
                meetingID = digits(path[1], 9...12)
            } else if path.count >= 2, path[0].lowercased() == "wc" {
                meetingID = digits(path[1], 9...12) ?? (path.count >= 3 ? digits(path[2], 9...12) : nil)
            }
            passcode = query("pwd").flatMap(word)
        case .microsoftTeams:
            // The newer short form: /meet/ID?p=PASSCODE. The meetup-join form carries no ID a person types.
            if path.count >= 2, path[0].lowercased() == "meet" { meetingID = digits(path[1], 9...16) }
            passcode = query("p").flatMap(word)
        case .googleMeet:
            if let code = path.first?.lowercased(), JoinLinkParts.isMeetCode(code) { meetingID = code }
        case .goToMeeting:
            // global.gotomeeting.com/join/123456789, meet.goto.com/123456789; gotomeet.me/NAME is a personal room.
            let last = path.last
            meetingID = digits(last, 9...10)
        case .jitsi:
            meetingID = path.count == 1 ? word(path[0].removingPercentEncoding) : nil
        case .discord:
            if url.host?.hasSuffix("discord.gg") == true, path.count == 1 {
                meetingID = word(path[0])
            } else if path.count == 2, path[0] == "invite" {
                meetingID = word(path[1])
            }
        case .skype, .freeConferenceCall:
            meetingID = path.count == 1 ? word(path[0]) : nil
        case .webex, .other:
            break
        }
    }

    /// A Google Meet code: three letters, four, three, joined by hyphens ("abc-defg-hij").
    static func isMeetCode(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [3, 4, 3] && parts.allSatisfy { $0.allSatisfy(\.isASCIILetter) }
    }
}
