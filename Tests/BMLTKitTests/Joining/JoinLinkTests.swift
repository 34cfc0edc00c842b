import Foundation
import Testing
@testable import BMLTKit

/// Join links in the shapes service-body admins type them, each with the exact link, service, meeting ID,
/// passcode and app link expected (or `nil`: refused).
@Suite("Joining: virtual meeting links")
struct JoinLinkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let link: String
        var info: String? = nil
        let expected: String?
        var service: BMLTVirtualService = .other
        var meetingID: String? = nil
        var passcode: String? = nil
        var appURL: String? = nil
        var testDescription: String { link.debugDescription + (info.map { " + " + $0.debugDescription } ?? "") }
    }

    static let cases: [Case] = [
        // Zoom, plain and vanity or regional hosts, with and without the scheme.
        Case(link: "https://zoom.us/j/85212345678", expected: "https://zoom.us/j/85212345678", service: .zoom,
             meetingID: "85212345678", appURL: "zoomus://zoom.us/join?confno=85212345678"),
        Case(link: "https://us02web.zoom.us/j/85212345678?pwd=aBcD1234eFgH.1", expected: "https://us02web.zoom.us/j/85212345678?pwd=aBcD1234eFgH.1",
             service: .zoom, meetingID: "85212345678", passcode: "aBcD1234eFgH.1",
             appURL: "zoomus://us02web.zoom.us/join?confno=85212345678&pwd=aBcD1234eFgH.1"),
        Case(link: "  zoom.us/j/4155551234  ", expected: "https://zoom.us/j/4155551234", service: .zoom, meetingID: "4155551234",
             appURL: "zoomus://zoom.us/join?confno=4155551234"),
        Case(link: "stonebridge-na.zoom.us/j/912345678.", info: "Passcode: serenity", expected: "https://stonebridge-na.zoom.us/j/912345678",
             service: .zoom, meetingID: "912345678", passcode: "serenity",
             appURL: "zoomus://stonebridge-na.zoom.us/join?confno=912345678&pwd=serenity"),
        Case(link: "http://us06web.zoom.us/j/81234567890?pwd=XyZ", info: "Meeting ID: 812 3456 7890\nPasscode: 246810",
             expected: "https://us06web.zoom.us/j/81234567890?pwd=XyZ", service: .zoom, meetingID: "81234567890", passcode: "246810",
             appURL: "zoomus://us06web.zoom.us/join?confno=81234567890&pwd=XyZ"),
        Case(link: "https://zoom.us/my/hopegroup", info: "Meeting ID: 345 678 9012 Password: 7777",
             expected: "https://zoom.us/my/hopegroup", service: .zoom, meetingID: "3456789012", passcode: "7777",
             appURL: "zoomus://zoom.us/join?confno=3456789012&pwd=7777"),
        Case(link: "(https://zoom.us/j/98765432101)", expected: "https://zoom.us/j/98765432101", service: .zoom, meetingID: "98765432101",
             appURL: "zoomus://zoom.us/join?confno=98765432101"),
        Case(link: "<https://zoom.us/wc/join/98765432101>", expected: "https://zoom.us/wc/join/98765432101", service: .zoom,
             meetingID: "98765432101", appURL: "zoomus://zoom.us/join?confno=98765432101"),
        Case(link: "Zoom: https://zoom.us/j/98765432101, see you there!", expected: "https://zoom.us/j/98765432101", service: .zoom,
             meetingID: "98765432101", appURL: "zoomus://zoom.us/join?confno=98765432101"),
        Case(link: "HTTPS://ZOOM.US/j/98765432101", expected: "https://zoom.us/j/98765432101", service: .zoom,
             meetingID: "98765432101", appURL: "zoomus://zoom.us/join?confno=98765432101"),
        Case(link: "https://example.zoomgov.com/j/1601234567", expected: "https://example.zoomgov.com/j/1601234567", service: .zoom,
             meetingID: "1601234567", appURL: "zoomus://example.zoomgov.com/join?confno=1601234567"),
        Case(link: "https://zoom.us/j/98765432101?pwd=abc", info: "ID de reunión: 987 6543 2101\nCódigo de acceso: 555111",
             expected: "https://zoom.us/j/98765432101?pwd=abc", service: .zoom, meetingID: "98765432101", passcode: "555111",
             appURL: "zoomus://zoom.us/join?confno=98765432101&pwd=abc"),
        // Google Meet.
        Case(link: "https://meet.google.com/abc-defg-hij", expected: "https://meet.google.com/abc-defg-hij", service: .googleMeet,
             meetingID: "abc-defg-hij"),
        Case(link: "meet.google.com/xyz-abcd-efg?authuser=0", expected: "https://meet.google.com/xyz-abcd-efg?authuser=0",
             service: .googleMeet, meetingID: "xyz-abcd-efg"),
        Case(link: "http://meet.google.com/qrs-tuvw-xyz", expected: "https://meet.google.com/qrs-tuvw-xyz", service: .googleMeet,
             meetingID: "qrs-tuvw-xyz"),
        // Microsoft Teams.
        Case(link: "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ2YjE4%40thread.v2/0?context=%7b%22Tid%22%3a%2272f9%22%7d",
             info: "Meeting ID: 234 567 890 123\nPasscode: Ab3xYz",
             expected: "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ2YjE4%40thread.v2/0?context=%7b%22Tid%22%3a%2272f9%22%7d",
             service: .microsoftTeams, meetingID: "234567890123", passcode: "Ab3xYz",
             appURL: "msteams:/l/meetup-join/19%3ameeting_NzQ2YjE4%40thread.v2/0?context=%7b%22Tid%22%3a%2272f9%22%7d"),
        Case(link: "https://teams.microsoft.com/l/meetup-join/19:meeting_NzQ2YjE4@thread.v2/0?context={\"Tid\":\"72f9\"}",
             expected: "https://teams.microsoft.com/l/meetup-join/19:meeting_NzQ2YjE4@thread.v2/0?context=%7B%22Tid%22:%2272f9%22%7D",
             service: .microsoftTeams,
             appURL: "msteams:/l/meetup-join/19:meeting_NzQ2YjE4@thread.v2/0?context=%7B%22Tid%22:%2272f9%22%7D"),
        Case(link: "https://teams.microsoft.com/meet/2345678901234?p=QwErTy", expected: "https://teams.microsoft.com/meet/2345678901234?p=QwErTy",
             service: .microsoftTeams, meetingID: "2345678901234", passcode: "QwErTy",
             appURL: "msteams:/meet/2345678901234?p=QwErTy"),
        Case(link: "https://teams.live.com/meet/9876543210987?p=AbCd", expected: "https://teams.live.com/meet/9876543210987?p=AbCd",
             service: .microsoftTeams, meetingID: "9876543210987", passcode: "AbCd", appURL: "msteams:/meet/9876543210987?p=AbCd"),
        // Webex, GoTo, Jitsi, Discord, Skype, FreeConferenceCall.
        Case(link: "https://example.webex.com/meet/serenity", info: "Meeting number (access code): 2345 678 9012\nMeeting password: Hope2024",
             expected: "https://example.webex.com/meet/serenity", service: .webex, meetingID: "23456789012", passcode: "Hope2024"),
        Case(link: "https://global.gotomeeting.com/join/123456789", expected: "https://global.gotomeeting.com/join/123456789",
             service: .goToMeeting, meetingID: "123456789", appURL: "gotomeeting://SALaunch?Action=Join&MeetingID=123456789"),
        Case(link: "https://meet.goto.com/987654321", expected: "https://meet.goto.com/987654321", service: .goToMeeting,
             meetingID: "987654321", appURL: "gotomeeting://SALaunch?Action=Join&MeetingID=987654321"),
        Case(link: "https://meet.jit.si/RecoveryTuesday", expected: "https://meet.jit.si/RecoveryTuesday", service: .jitsi,
             meetingID: "RecoveryTuesday", appURL: "org.jitsi.meet://meet.jit.si/RecoveryTuesday"),
        Case(link: "https://discord.gg/aBcDeF12", expected: "https://discord.gg/aBcDeF12", service: .discord, meetingID: "aBcDeF12"),
        Case(link: "https://join.skype.com/AbCdEfGhIjKl", expected: "https://join.skype.com/AbCdEfGhIjKl", service: .skype,
             meetingID: "AbCdEfGhIjKl"),
        Case(link: "join.freeconferencecall.com/stonebridge", expected: "https://join.freeconferencecall.com/stonebridge",
             service: .freeConferenceCall, meetingID: "stonebridge"),
        // Other hosts: https kept, http refused.
        Case(link: "https://video.example.org/j/800001013", info: "Meeting ID 800001013, passcode demo",
             expected: "https://video.example.org/j/800001013", meetingID: "800001013"),  // "passcode demo": no separator, no digit
        Case(link: "http://video.example.org/room", expected: nil),
        Case(link: "https://café.example/room", expected: nil),
        Case(link: "https://example.org/salle de réunion", expected: "https://example.org/salle"),
        Case(link: "https://example.org/réunion", expected: "https://example.org/r%C3%A9union"),
        // Refused: other schemes, tricks, and text that is no link.
        Case(link: "javascript:alert(1)", expected: nil),
        Case(link: "JavaScript://zoom.us/%0Aalert(1)", expected: nil),
        Case(link: "file:///etc/passwd", expected: nil),
        Case(link: "data:text/html;base64,PHNjcmlwdD4=", expected: nil),
        Case(link: "zoommtg://zoom.us/join?confno=123456789", expected: nil),
        Case(link: "mailto:group@example.org", expected: nil),
        Case(link: "ftp://zoom.us/j/123456789", expected: nil),
        Case(link: "https://zoom.us@evil.example/j/123456789", expected: nil),
        Case(link: "https://user:pass@zoom.us/j/123456789", expected: nil),
        Case(link: "Zoom", expected: nil),
        Case(link: "Meeting ID 852 1234 5678", expected: nil),
        Case(link: "123.456.7890", expected: nil),
        Case(link: "https://", expected: nil),
        Case(link: "https://localhost/room", expected: nil),
        Case(link: "", expected: nil),
        Case(link: "   \n\t ", expected: nil),
        // No link in the link field, one in the additional info (known services only).
        Case(link: "See below", info: "Join Zoom Meeting https://us04web.zoom.us/j/71234567890?pwd=Qq1 Meeting ID: 712 3456 7890 Passcode: 4321",
             expected: "https://us04web.zoom.us/j/71234567890?pwd=Qq1", service: .zoom, meetingID: "71234567890", passcode: "4321",
             appURL: "zoomus://us04web.zoom.us/join?confno=71234567890&pwd=Qq1"),
        Case(link: "", info: "Details at https://phishing.example/zoom", expected: nil),
    ]

    @Test("each link gives the exact https URL, service, meeting ID, passcode and app link, or nil", arguments: cases)
    func link(_ c: Case) {
        let join = BMLTVirtualMeeting(link: c.link, additionalInfo: c.info)
        #expect(join?.link.absoluteString == c.expected)
        guard let join else { return }
        #expect(join.link.scheme == "https")
        #expect(join.service == c.service)
        #expect(join.meetingID == c.meetingID)
        #expect(join.passcode == c.passcode)
        #expect(join.appURL?.absoluteString == c.appURL)
    }

    @Test("Zoom's desktop link is zoommtg:// with action=join; services without a documented app scheme have none")
    func desktopLinks() {
        let zoom = BMLTVirtualMeeting(link: "https://us02web.zoom.us/j/85212345678?pwd=aB1")
        #expect(zoom?.desktopAppURL?.absoluteString == "zoommtg://us02web.zoom.us/join?action=join&confno=85212345678&pwd=aB1")
        for link in ["https://meet.google.com/abc-defg-hij", "https://example.webex.com/meet/x", "https://discord.gg/abc"] {
            let join = BMLTVirtualMeeting(link: link)
            #expect(join != nil && join?.appURL == nil && join?.desktopAppURL == nil, "\(link)")
        }
    }

    @Test("a passcode with & or + stays one value in the app link")
    func passcodeEscaping() {
        let join = BMLTVirtualMeeting(link: "https://zoom.us/j/85212345678", additionalInfo: "Passcode: a&b+c=d")
        #expect(join?.passcode == "a&b+c=d")
        #expect(join?.appURL?.absoluteString == "zoomus://zoom.us/join?confno=85212345678&pwd=a%26b%2Bc%3Dd")
    }

    @Test("the meeting's fields are read: virtualMeetingLink and virtualMeetingAdditionalInfo")
    func fromMeeting() {
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 2, name: "Hope")
        #expect(meeting.virtualMeeting == nil)
        meeting.virtualMeetingLink = "us02web.zoom.us/j/85212345678"
        meeting.virtualMeetingAdditionalInfo = "Contraseña: 112233"
        #expect(meeting.virtualMeeting?.link.absoluteString == "https://us02web.zoom.us/j/85212345678")
        #expect(meeting.virtualMeeting?.passcode == "112233")
        meeting.virtualMeetingLink = "javascript:alert(document.cookie)"
        #expect(meeting.virtualMeeting == nil)
    }

    @Test("services by host: vanity and regional Zoom hosts, look-alikes are other", arguments: [
        ("zoom.us", BMLTVirtualService.zoom), ("us02web.zoom.us", .zoom), ("Example.Zoom.US.", .zoom), ("zoom.com", .zoom),
        ("notzoom.us", .other), ("zoom.us.evil.example", .other), ("meet.google.com", .googleMeet), ("google.com", .other),
        ("teams.microsoft.com", .microsoftTeams), ("gov.teams.microsoft.us", .microsoftTeams), ("acme.webex.com", .webex),
        ("gotomeet.me", .goToMeeting), ("meet.goto.com", .goToMeeting), ("meet.jit.si", .jitsi), ("discord.com", .discord),
        ("join.skype.com", .skype), ("join.freeconferencecall.com", .freeConferenceCall), ("jitsi.example.org", .other),
    ])
    func services(host: String, service: BMLTVirtualService) {
        #expect(BMLTVirtualService(host: host) == service)
    }
}
