import Foundation

/// How to join a meeting online: its link as a safe `https` URL, the service it belongs to, the meeting ID and
/// passcode, and the link that opens the service's own app.
///
/// Read it from a meeting with ``BMLTMeeting/virtualMeeting``, or build it from any link text with
/// ``init(link:additionalInfo:)``. Everything comes from what a service-body admin typed, so it is checked:
/// only `https` links come out (`http` is upgraded for the known services' hosts only), never `javascript:`,
/// `file:`, `data:` or any other scheme.
/// ```swift
/// if let join = meeting.virtualMeeting {
///     print(join.service.name, join.link)
///     if let id = join.meetingID { print("Meeting ID", id, "passcode", join.passcode ?? "none") }
///     // Open join.appURL when the app is installed, else join.link.
/// }
/// ```
public struct BMLTVirtualMeeting: Sendable, Hashable, Codable {
    /// The join link, always `https`.
    /// ```swift
    /// let link = meeting.virtualMeeting?.link   // https://us02web.zoom.us/j/85212345678?pwd=…
    /// ```
    public var link: URL
    /// The service the link belongs to, by its host.
    /// ```swift
    /// if meeting.virtualMeeting?.service == .googleMeet { print("Google Meet") }
    /// ```
    public var service: BMLTVirtualService
    /// The meeting ID: from the link (Zoom `/j/ID`, a Meet code `abc-defg-hij`, Teams `/meet/ID`, GoTo's number, a
    /// Jitsi room, a Discord or Skype invite code), else from the additional info ("Meeting ID: 852 1234 5678",
    /// "ID de reunión", "ID de réunion"), digits without spaces.
    /// ```swift
    /// print("Meeting ID", meeting.virtualMeeting?.meetingID ?? "—")
    /// ```
    public var meetingID: String?
    /// The passcode: the one written in the additional info ("Passcode: 12345", "Contraseña: 12345", "Code
    /// secret : 12345", "Mot de passe", "Código de acceso"), which is what a person types; else the link's (Zoom's
    /// `?pwd=`, an encoded form only Zoom's apps read; Teams' `?p=`).
    /// ```swift
    /// if let code = meeting.virtualMeeting?.passcode { print("Passcode", code) }
    /// ```
    public var passcode: String?
    /// The link that opens the service's own mobile app directly, where the service documents one:
    /// - Zoom: `zoomus://HOST/join?confno=ID&pwd=…` (with a numeric meeting ID);
    /// - Microsoft Teams: `msteams:/l/meetup-join/…` (the link's path and query after Teams' own scheme);
    /// - GoTo Meeting: `gotomeeting://SALaunch?Action=Join&MeetingID=ID`;
    /// - Jitsi Meet on `meet.jit.si`: `org.jitsi.meet://meet.jit.si/ROOM`.
    ///
    /// Google Meet, Webex, Discord, Skype and FreeConferenceCall document no app scheme for joining: their apps
    /// claim the `https` link itself (universal links), so `appURL` is `nil` and `link` is what to open.
    /// ```swift
    /// let target = meeting.virtualMeeting.map { $0.appURL ?? $0.link }
    /// ```
    public var appURL: URL?
    /// The link that opens the service's desktop app (macOS, Windows): Zoom's
    /// `zoommtg://HOST/join?action=join&confno=ID&pwd=…` and Teams' `msteams:` link; `nil` for the others.
    /// ```swift
    /// #if os(macOS)
    /// let target = join.desktopAppURL ?? join.link
    /// #endif
    /// ```
    public var desktopAppURL: URL?

    /// Reads a join link and its additional info as typed into a meeting; `nil` when neither holds a usable
    /// link. When `link` is no link, the first `https://` (or known-service `http://`) link written in
    /// `additionalInfo` is used, if it belongs to a known service.
    /// ```swift
    /// let join = BMLTVirtualMeeting(link: " us02web.zoom.us/j/85212345678?pwd=aBc1.", additionalInfo: "Passcode: 123456")
    /// // join?.link == https://us02web.zoom.us/j/85212345678?pwd=aBc1, .service == .zoom,
    /// // .meetingID == "85212345678", .passcode == "123456"
    /// ```
    public init?(link: String?, additionalInfo: String? = nil) {
        var url = link.flatMap(JoinLinkText.httpsURL(from:))
        if url == nil, let additionalInfo, additionalInfo.utf8.count <= 8_192 {
            url = additionalInfo.split(whereSeparator: \.isWhitespace)
                .filter { $0.lowercased().contains("http") }
                .lazy.compactMap { JoinLinkText.httpsURL(from: String($0)) }
                .first { BMLTVirtualService(host: $0.host ?? "") != .other }
        }
        guard let url, let host = url.host else { return nil }
        let service = BMLTVirtualService(host: host)
        let parts = JoinLinkParts(url, service: service)
        let info = JoinInfoText(additionalInfo)
        self.link = url
        self.service = service
        self.meetingID = parts.meetingID ?? info.meetingID
        self.passcode = info.passcode ?? parts.passcode
        // Zoom's apps take the link's encoded pwd as it is; it is what Zoom's own join page passes them.
        let appPasscode = service == .zoom ? (parts.passcode ?? info.passcode) : self.passcode
        self.appURL = JoinAppLinks.mobile(url, service: service, meetingID: meetingID, passcode: appPasscode)
        self.desktopAppURL = JoinAppLinks.desktop(url, service: service, meetingID: meetingID, passcode: appPasscode)
    }
}

extension BMLTMeeting {
    /// How to join online, from `virtualMeetingLink` and `virtualMeetingAdditionalInfo`; `nil` when the meeting
    /// has no usable `https` link (none, or text that is no link, or a refused scheme such as `javascript:`).
    /// ```swift
    /// if let join = meeting.virtualMeeting {
    ///     print("Join on \(join.service.name):", join.link)
    /// }
    /// ```
    public var virtualMeeting: BMLTVirtualMeeting? {
        BMLTVirtualMeeting(link: virtualMeetingLink, additionalInfo: virtualMeetingAdditionalInfo)
    }
}
