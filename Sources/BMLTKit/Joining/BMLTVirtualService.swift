/// The video service a meeting's join link belongs to, recognised by the link's host. Frozen until the next major
/// release: a service a 2.x release does not name is `.other`.
///
/// ```swift
/// if let join = meeting.virtualMeeting, join.service == .zoom {
///     print("Zoom meeting", join.meetingID ?? "(personal link)")
/// }
/// ```
public enum BMLTVirtualService: String, Sendable, Hashable, Codable, CaseIterable {
    /// Zoom: `zoom.us`, `zoom.com`, `zoomgov.com` and their subdomains (vanity and regional hosts such as
    /// `us02web.zoom.us` or `example.zoom.us`).
    /// ```swift
    /// BMLTVirtualService(host: "us02web.zoom.us") == .zoom   // true
    /// ```
    case zoom
    /// Google Meet: `meet.google.com`.
    /// ```swift
    /// BMLTVirtualService(host: "meet.google.com") == .googleMeet   // true
    /// ```
    case googleMeet
    /// Microsoft Teams: `teams.microsoft.com`, `teams.live.com`, `teams.microsoft.us` and their subdomains.
    /// ```swift
    /// BMLTVirtualService(host: "teams.microsoft.com") == .microsoftTeams   // true
    /// ```
    case microsoftTeams
    /// Cisco Webex: `webex.com` and its subdomains (`example.webex.com`).
    /// ```swift
    /// BMLTVirtualService(host: "example.webex.com") == .webex   // true
    /// ```
    case webex
    /// GoTo Meeting: `gotomeeting.com`, `gotomeet.me`, `meet.goto.com`.
    /// ```swift
    /// BMLTVirtualService(host: "meet.goto.com") == .goToMeeting   // true
    /// ```
    case goToMeeting
    /// Jitsi Meet on its public hosts: `meet.jit.si`, `8x8.vc` (self-hosted Jitsi servers are `other`).
    /// ```swift
    /// BMLTVirtualService(host: "meet.jit.si") == .jitsi   // true
    /// ```
    case jitsi
    /// Discord: `discord.gg`, `discord.com`, `discordapp.com`.
    /// ```swift
    /// BMLTVirtualService(host: "discord.gg") == .discord   // true
    /// ```
    case discord
    /// Skype: `skype.com` and its subdomains (`join.skype.com`).
    /// ```swift
    /// BMLTVirtualService(host: "join.skype.com") == .skype   // true
    /// ```
    case skype
    /// FreeConferenceCall.com: `freeconferencecall.com` and its subdomains.
    /// ```swift
    /// BMLTVirtualService(host: "join.freeconferencecall.com") == .freeConferenceCall   // true
    /// ```
    case freeConferenceCall
    /// Any other host.
    /// ```swift
    /// BMLTVirtualService(host: "video.example.org") == .other   // true
    /// ```
    case other

    /// The service a lower-cased host name belongs to.
    /// ```swift
    /// BMLTVirtualService(host: "us02web.zoom.us")   // .zoom
    /// ```
    public init(host: String) {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        func within(_ domains: String...) -> Bool { domains.contains { host == $0 || host.hasSuffix("." + $0) } }
        if within("zoom.us", "zoom.com", "zoomgov.com") {
            self = .zoom
        } else if host == "meet.google.com" {
            self = .googleMeet
        } else if within("teams.microsoft.com", "teams.live.com", "teams.microsoft.us") {
            self = .microsoftTeams
        } else if within("webex.com") {
            self = .webex
        } else if within("gotomeeting.com", "gotomeet.me") || host == "meet.goto.com" {
            self = .goToMeeting
        } else if host == "meet.jit.si" || host == "8x8.vc" {
            self = .jitsi
        } else if within("discord.gg", "discord.com", "discordapp.com") {
            self = .discord
        } else if within("skype.com") {
            self = .skype
        } else if within("freeconferencecall.com") {
            self = .freeConferenceCall
        } else {
            self = .other
        }
    }

    /// The service's name as people write it, e.g. "Google Meet".
    /// ```swift
    /// Text("Join on \(join.service.name)")
    /// ```
    public var name: String {
        switch self {
        case .zoom: "Zoom"
        case .googleMeet: "Google Meet"
        case .microsoftTeams: "Microsoft Teams"
        case .webex: "Webex"
        case .goToMeeting: "GoTo Meeting"
        case .jitsi: "Jitsi Meet"
        case .discord: "Discord"
        case .skype: "Skype"
        case .freeConferenceCall: "FreeConferenceCall"
        case .other: "online"
        }
    }
}
