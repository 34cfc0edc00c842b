import Foundation
import Testing
@testable import BMLTKit

/// The meeting ID and passcode written in `virtual_meeting_additional_info`, in the wordings of Zoom's, Teams',
/// Webex's and Meet's invitations in English, Spanish and French, and as people retype them.
@Suite("Joining: meeting ID and passcode in the additional info")
struct JoinInfoTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let info: String
        let meetingID: String?
        let passcode: String?
        var testDescription: String { info.debugDescription }
    }

    static let cases: [Case] = [
        Case(info: "Meeting ID: 852 1234 5678\nPasscode: 123456", meetingID: "85212345678", passcode: "123456"),
        Case(info: "Meeting ID: 852 1234 5678 Passcode: 123456", meetingID: "85212345678", passcode: "123456"),
        Case(info: "Meeting ID 852-1234-5678, password = Serenity", meetingID: "85212345678", passcode: "Serenity"),
        Case(info: "Zoom ID 912 345 678 / PW: hope", meetingID: "912345678", passcode: "hope"),
        Case(info: "ID: 4155551234 Pwd: 9999", meetingID: "4155551234", passcode: "9999"),
        Case(info: "The password is recovery", meetingID: nil, passcode: "recovery"),
        Case(info: "Meeting ID and passcode below", meetingID: nil, passcode: nil),
        Case(info: "Passcode: none", meetingID: nil, passcode: nil),
        Case(info: "Password: (ask in chat)", meetingID: nil, passcode: nil),
        Case(info: "Passcode:\"Unity1\"", meetingID: nil, passcode: "Unity1"),
        Case(info: "MEETING ID: 852 1234 5678 PASSCODE: AbC123.", meetingID: "85212345678", passcode: "AbC123"),
        // Spanish.
        Case(info: "ID de reunión: 852 1234 5678\nCódigo de acceso: 246810", meetingID: "85212345678", passcode: "246810"),
        Case(info: "ID de la reunión: 852 1234 5678 Contraseña: Esperanza", meetingID: "85212345678", passcode: "Esperanza"),
        Case(info: "Número de reunión 987 654 3210, clave 5555", meetingID: "9876543210", passcode: "5555"),
        Case(info: "Id. de reunión: 71234567890 · Contrasena: ninguna", meetingID: "71234567890", passcode: nil),
        // French.
        Case(info: "ID de réunion : 852 1234 5678\nCode secret : 97531", meetingID: "85212345678", passcode: "97531"),
        Case(info: "Numéro de réunion : 987 6543 2101 Mot de passe : Serenite", meetingID: "98765432101", passcode: "Serenite"),
        Case(info: "Identifiant de réunion: 812 3456 7890, code d’accès: 4242", meetingID: "81234567890", passcode: "4242"),
        // Teams, Webex, Meet.
        Case(info: "Meeting ID: 234 567 890 123 45\nPasscode: aB3cD4\nPhone conference ID: 123 456 789#", meetingID: "23456789012345",
             passcode: "aB3cD4"),
        Case(info: "Meeting number (access code): 2345 678 9012\nMeeting password: Hope2024", meetingID: "23456789012", passcode: "Hope2024"),
        Case(info: "Join by phone +1 260-555-0100 PIN: 123 456 789#", meetingID: nil, passcode: nil),
        // Links and participant IDs are no meeting ID or passcode.
        Case(info: "https://zoom.us/j/85212345678?pwd=zzz only", meetingID: nil, passcode: nil),
        Case(info: "Participant ID: 12345 Meeting ID: 852 1234 5678", meetingID: "85212345678", passcode: nil),
        Case(info: "Idea: bring a friend", meetingID: nil, passcode: nil),
        Case(info: "Código postal: 55401, Pinecrest Hall", meetingID: nil, passcode: nil),
        Case(info: "", meetingID: nil, passcode: nil),
    ]

    @Test("each wording gives the exact meeting ID and passcode", arguments: cases)
    func info(_ c: Case) {
        let found = JoinInfoText(c.info)
        #expect(found.meetingID == c.meetingID)
        #expect(found.passcode == c.passcode)
    }

    @Test("the phone code and the numeric passcode are told apart from the online ones")
    func phoneCodes() {
        let teams = JoinInfoText("Meeting ID: 234 567 890 123\nPasscode: aB3cD4\nPhone conference ID: 123 456 789#")
        #expect(teams.phoneCode == "123456789")
        #expect(teams.numericPasscode == nil)
        let zoom = JoinInfoText("Passcode: aBc123\nOne tap mobile\nMeeting ID: 852 1234 5678\nPasscode: 246810")
        #expect(zoom.passcodes == ["aBc123", "246810"])
        #expect(zoom.numericPasscode == "246810")
    }
}
