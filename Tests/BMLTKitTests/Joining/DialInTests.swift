import Foundation
import Testing
@testable import BMLTKit

/// `phone_meeting_number` as admins type it, with the additional info and the join link's service: the exact
/// number and `tel:` link, or `nil` where the text holds no number for sure.
@Suite("Joining: dial-in numbers")
struct DialInTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let phone: String
        var info: String? = nil
        var service: BMLTVirtualService? = nil
        var linkID: String? = nil
        let number: String?
        var url: String? = nil
        var testDescription: String { phone.debugDescription + (info.map { " + " + $0.debugDescription } ?? "") }
    }

    static let cases: [Case] = [
        // Numbers with a country code.
        Case(phone: "+1 646 558 8656", number: "+16465588656", url: "tel:+16465588656"),
        Case(phone: "+1 (646) 558-8656", number: "+16465588656", url: "tel:+16465588656"),
        Case(phone: "tel:+1-646-558-8656", number: "+16465588656", url: "tel:+16465588656"),
        Case(phone: "1-800-555-0123", number: "+18005550123", url: "tel:+18005550123"),
        Case(phone: "1 (646) 555-0123", number: "+16465550123", url: "tel:+16465550123"),
        Case(phone: "+44 (0)20 7946 0958", number: "+442079460958", url: "tel:+442079460958"),
        Case(phone: "+49 (0) 30 1234 5678", number: "+493012345678", url: "tel:+493012345678"),
        Case(phone: "0044 20 7946 0958", number: "+442079460958", url: "tel:+442079460958"),
        Case(phone: "+33 1 70 37 97 29", number: "+33170379729", url: "tel:+33170379729"),
        Case(phone: "+34 910 123 456", number: "+34910123456", url: "tel:+34910123456"),
        Case(phone: "Teléfono: +52 55 1234 5678", number: "+525512345678", url: "tel:+525512345678"),
        Case(phone: "US: +1 646 558 8656 or +1 669 900 6833", number: "+16465588656", url: "tel:+16465588656"),
        Case(phone: "+1\u{00A0}646\u{00A0}558\u{00A0}8656", number: "+16465588656", url: "tel:+16465588656"),
        // Without a country code: kept as written, digits only.
        Case(phone: "(646) 558-8656", number: "6465588656", url: "tel:6465588656"),
        Case(phone: "5551234567", number: "5551234567", url: "tel:5551234567"),
        Case(phone: "020 7946 0958", number: "02079460958", url: "tel:02079460958"),
        // Extensions and menus.
        Case(phone: "646.558.8656 x123", number: "6465588656", url: "tel:6465588656,,123"),
        Case(phone: "+1 (555) 123-4567 ext. 89", number: "+15551234567", url: "tel:+15551234567,,89"),
        Case(phone: "Call 555-0100 and press 1", number: "5550100", url: "tel:5550100,,1"),
        Case(phone: "+34 910 123 456, marque 2", number: "+34910123456", url: "tel:+34910123456,,2"),
        Case(phone: "+33 1 70 37 97 29 poste 45", number: "+33170379729", url: "tel:+33170379729,,45"),
        // Meeting ID and passcode dialled as tones.
        Case(phone: "+1 646 558 8656", info: "Meeting ID: 852 1234 5678\nPasscode: 123456", service: .zoom,
             number: "+16465588656", url: "tel:+16465588656,,85212345678%23,,,,*123456%23"),
        Case(phone: "+1 929 436 2866 US (Houston)", service: .zoom, linkID: "85212345678",
             number: "+19294362866", url: "tel:+19294362866,,85212345678%23"),
        Case(phone: "+16465588656,,85212345678#,,,,*123456# US (New York)", number: "+16465588656",
             url: "tel:+16465588656,,85212345678%23,,,,*123456%23"),
        Case(phone: "Dial +1 929 205 6099, Meeting ID: 852 1234 5678, Passcode: 123456", number: "+19292056099",
             url: "tel:+19292056099,,85212345678%23,,123456%23"),
        Case(phone: "+1 323-555-0123", info: "Meeting ID: 234 567 890 123\nPasscode: aB3cD4\nPhone conference ID: 123 456 789#",
             service: .microsoftTeams, number: "+13235550123", url: "tel:+13235550123,,123456789%23"),
        Case(phone: "+1 323-555-0123", info: "Meeting ID: 234 567 890 123", service: .microsoftTeams,
             number: "+13235550123", url: "tel:+13235550123"),
        Case(phone: "+1 323-555-0123,,123456789#", number: "+13235550123", url: "tel:+13235550123,,123456789%23"),
        Case(phone: "+1 260-555-0100 PIN: 123 456 789#", service: .googleMeet, number: "+12605550100",
             url: "tel:+12605550100,,123456789%23"),
        Case(phone: "(712) 432-1234 Access code: 654321#", number: "7124321234", url: "tel:7124321234,,654321%23"),
        Case(phone: "+1 646 558 8656", info: "ID de reunión: 852 1234 5678\nCódigo de acceso: 246810", service: .zoom,
             number: "+16465588656", url: "tel:+16465588656,,85212345678%23,,,,*246810%23"),
        Case(phone: "+33 1 70 37 97 29", info: "ID de réunion : 852 1234 5678\nCode secret : 97531", service: .zoom,
             number: "+33170379729", url: "tel:+33170379729,,85212345678%23,,,,*97531%23"),
        Case(phone: "+1 646 558 8656", info: "Meeting ID: 852 1234 5678\nPasscode: aBc123", service: .zoom,
             number: "+16465588656", url: "tel:+16465588656,,85212345678%23"),
        // Digits after the number but unlabelled are not dialled.
        Case(phone: "+1 646 558 8656 812 3456 7890", number: "+16465588656", url: "tel:+16465588656"),
        // Garbage: nil, never a wrong number.
        Case(phone: "1-800-FLOWERS", number: nil),
        Case(phone: "Zoom", number: nil),
        Case(phone: "Call in", number: nil),
        Case(phone: "N/A", number: nil),
        Case(phone: "https://zoom.us/j/85212345678", number: nil),
        Case(phone: "zoom.us/j/85212345678", number: nil),
        Case(phone: "www.example.org/call 5551234567", number: nil),
        Case(phone: "Meeting ID: 852 1234 5678", number: nil),
        Case(phone: "Access code: 123456#", number: nil),
        Case(phone: "+44 20 7946 0958 812 3456 7890", number: nil),
        Case(phone: "+1 646 558 865", number: nil),
        Case(phone: "+1 646 558 86567", number: nil),
        Case(phone: "+0 123 456 789", number: nil),
        Case(phone: "123", number: nil),
        Case(phone: "12345678901234567890", number: nil),
        Case(phone: "", number: nil),
    ]

    @Test("each text gives the exact number and tel: link, or nil", arguments: cases)
    func dialIn(_ c: Case) {
        let phone = BMLTDialIn(phone: c.phone, additionalInfo: c.info, service: c.service, linkMeetingID: c.linkID)
        #expect(phone?.number == c.number)
        #expect(phone?.url.absoluteString == c.url)
        if let phone { #expect(phone.url.scheme == "tel") }
    }

    @Test("a meeting's dial-in takes the Zoom meeting ID from its link and the passcode from its info")
    func fromMeeting() {
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 2, name: "Hope")
        #expect(meeting.dialIn == nil)
        meeting.phoneMeetingNumber = "+1 646 558 8656"
        meeting.virtualMeetingLink = "https://us02web.zoom.us/j/85212345678?pwd=aB1"
        meeting.virtualMeetingAdditionalInfo = "Passcode: 123456"
        #expect(meeting.dialIn?.number == "+16465588656")
        #expect(meeting.dialIn?.hasCountryCode == true)
        #expect(meeting.dialIn?.tones == ",,85212345678#,,,,*123456#")
        #expect(meeting.dialIn?.url.absoluteString == "tel:+16465588656,,85212345678%23,,,,*123456%23")
    }
}
