import Foundation

/// How to join a meeting by phone: the number, and a `tel:` link that dials it, waits, and then enters the
/// extension, the meeting's code and the passcode as tones.
///
/// Tones follow the conference services' own one-tap links: `,` is a pause of about two seconds, `#` ends a code.
/// Zoom's form is `NUMBER,,MEETINGID#,,,,*PASSCODE#`; other services get `NUMBER,,CODE#,,PASSCODE#`. Only digits
/// are dialled: a passcode with letters is left for the caller. In the `tel:` URL `#` is written `%23` (RFC 3966).
/// Apple's Phone app has in the past refused to dial `tel:` links holding `*` or `#`; offer `number` as well.
/// ```swift
/// if let phone = meeting.dialIn {
///     print("Call", phone.number)          // +16465588656
///     print(phone.url)                     // tel:+16465588656,,85212345678%23,,,,*123456%23
/// }
/// ```
public struct BMLTDialIn: Sendable, Hashable, Codable {
    /// The number, digits only: with `+` and its country code when the text gave one (`+16465588656`), else as
    /// written (`6465550123`).
    /// ```swift
    /// Text(meeting.dialIn?.number ?? "")
    /// ```
    public var number: String
    /// Whether `number` starts with its country code.
    /// ```swift
    /// if meeting.dialIn?.hasCountryCode == false { print("a national number: dial it from that country") }
    /// ```
    public var hasCountryCode: Bool
    /// What is dialled after the number: pauses, extension or menu digits, code and passcode (`,,85212345678#`);
    /// empty when nothing is.
    /// ```swift
    /// print("then dial", meeting.dialIn?.tones ?? "")
    /// ```
    public var tones: String
    /// The `tel:` link: the number followed by `tones`.
    /// ```swift
    /// if let url = meeting.dialIn?.url { print(url) }   // open it with the system's URL opener
    /// ```
    public var url: URL

    /// Reads a phone number as typed into a meeting, with what the additional info says (meeting ID, phone
    /// conference ID or PIN, a numeric passcode); `service` and `linkMeetingID` come from the join link, whose
    /// numeric Zoom or GoTo meeting ID is also the phone code. `nil` when `phone` holds no number for sure
    /// (letters only, a link, digits that could be read two ways).
    /// ```swift
    /// let phone = BMLTDialIn(phone: "+1 646 558 8656", additionalInfo: "Meeting ID: 852 1234 5678 Passcode: 123456",
    ///                        service: .zoom)
    /// // phone?.url == tel:+16465588656,,85212345678%23,,,,*123456%23
    /// ```
    public init?(phone: String?, additionalInfo: String? = nil, service: BMLTVirtualService? = nil,
                 linkMeetingID: String? = nil) {
        guard let phone, let parsed = PhoneNumberText(phone) else { return nil }
        number = parsed.number
        hasCountryCode = parsed.hasCountryCode
        if !parsed.tones.isEmpty {
            tones = parsed.tones
        } else {
            let inPhone = JoinInfoText(parsed.rest)
            let inInfo = JoinInfoText(additionalInfo)
            var text = inPhone.extensionDigits.map { ",," + $0 }.joined()
            // Teams' "Meeting ID" is the online one; its phone bridge wants the "Phone conference ID".
            let infoMeetingID = service == .microsoftTeams ? nil : inInfo.meetingID
            let linkCode = service == .zoom || service == .goToMeeting ? linkMeetingID.flatMap { $0.allSatisfy(\.isASCIIDigit) ? $0 : nil } : nil
            if let code = inPhone.phoneCode ?? inPhone.meetingID ?? inInfo.phoneCode ?? infoMeetingID ?? linkCode {
                text += ",," + code + "#"
                if let passcode = inPhone.numericPasscode ?? inInfo.numericPasscode {
                    text += (service == .zoom ? ",,,,*" : ",,") + passcode + "#"
                }
            }
            tones = text
        }
        guard let url = URL(string: "tel:" + number + tones.replacingOccurrences(of: "#", with: "%23")) else { return nil }
        self.url = url
    }
}

extension BMLTMeeting {
    /// How to join by phone, from `phoneMeetingNumber` (with the meeting ID and passcode of the additional info
    /// and the join link); `nil` when the field holds no phone number for sure.
    /// ```swift
    /// if let phone = meeting.dialIn { print("Call \(phone.number)") }
    /// ```
    public var dialIn: BMLTDialIn? {
        let join = virtualMeeting
        return BMLTDialIn(phone: phoneMeetingNumber, additionalInfo: virtualMeetingAdditionalInfo,
                          service: join?.service, linkMeetingID: join?.meetingID)
    }
}
