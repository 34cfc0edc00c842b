import Foundation

/// The app links the services document, built from a cleaned join link.
enum JoinAppLinks {
    /// The link that opens the service's mobile app (iOS, Android), or `nil` where the service documents none.
    static func mobile(_ link: URL, service: BMLTVirtualService, meetingID: String?, passcode: String?) -> URL? {
        switch service {
        case .zoom:
            return zoom(scheme: "zoomus", link: link, meetingID: meetingID, passcode: passcode, action: false)
        case .microsoftTeams:
            return teams(link)
        case .goToMeeting:
            guard let meetingID, meetingID.allSatisfy(\.isASCIIDigit) else { return nil }
            return URL(string: "gotomeeting://SALaunch?Action=Join&MeetingID=\(meetingID)")
        case .jitsi:
            guard link.host == "meet.jit.si", let meetingID else { return nil }
            return URL(string: "org.jitsi.meet://meet.jit.si/" + JoinLinkText.percentEncoded(Substring(meetingID)))
        case .googleMeet, .webex, .discord, .skype, .freeConferenceCall, .other:
            return nil
        }
    }

    /// The link that opens the service's desktop app (macOS, Windows): Zoom's `zoommtg://` and Teams' `msteams:`.
    static func desktop(_ link: URL, service: BMLTVirtualService, meetingID: String?, passcode: String?) -> URL? {
        switch service {
        case .zoom: return zoom(scheme: "zoommtg", link: link, meetingID: meetingID, passcode: passcode, action: true)
        case .microsoftTeams: return teams(link)
        default: return nil
        }
    }

    /// `zoomus://HOST/join?confno=ID&pwd=P` or `zoommtg://HOST/join?action=join&confno=ID&pwd=P`, as Zoom's URL
    /// scheme documentation gives them; only with a numeric meeting ID.
    private static func zoom(scheme: String, link: URL, meetingID: String?, passcode: String?, action: Bool) -> URL? {
        guard let meetingID, meetingID.allSatisfy(\.isASCIIDigit), let host = link.host else { return nil }
        var query = (action ? "action=join&" : "") + "confno=" + meetingID
        if let passcode { query += "&pwd=" + JoinAppLinks.queryValue(passcode) }
        return URL(string: "\(scheme)://\(host)/join?\(query)")
    }

    /// Text for a query value: everything but letters, digits and `-._~` percent-encoded (UTF-8), so `&`, `=`,
    /// `+` and `,` stay inside the value on every platform.
    static func queryValue(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80 && (Character(scalar).isASCIILetter || Character(scalar).isASCIIDigit)) || "-._~".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `msteams:` followed by the https link's path and query (Teams' deep links with its own scheme).
    private static func teams(_ link: URL) -> URL? {
        guard let components = URLComponents(url: link, resolvingAgainstBaseURL: false),
              components.percentEncodedPath.hasPrefix("/l/") || components.percentEncodedPath.hasPrefix("/meet/") else { return nil }
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        return URL(string: "msteams:" + components.percentEncodedPath + query)
    }
}
