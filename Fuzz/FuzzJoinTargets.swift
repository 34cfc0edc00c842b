import Foundation

/// The joining parsers on the same bytes read as text: the link, the additional info and the phone field. Each must
/// keep its promise or stop the fuzzer: a join link is `https` with a dotted host and reads back to itself; a dial-in
/// number has 7 to 15 digits and its tones only `0-9 * # ,`.
enum FuzzJoinTargets {
    static func run(_ data: Data) {
        let text = String(decoding: data.prefix(2_048), as: UTF8.self)
        let halves = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 1, name: "fuzz", weekday: .monday, startTime: .init(hour: 23, minute: 30))
        meeting.virtualMeetingLink = halves.first ?? text
        meeting.virtualMeetingAdditionalInfo = halves.count > 1 ? halves[1] : text
        meeting.phoneMeetingNumber = halves.count > 2 ? halves[2] : text
        meeting.street = text
        if let join = meeting.virtualMeeting {
            guard join.link.scheme == "https", join.link.host?.contains(".") == true,
                  BMLTVirtualMeeting(link: join.link.absoluteString)?.link == join.link else {
                fatalError("a join link that breaks its promise: \(join.link)")
            }
        }
        if let phone = meeting.dialIn {
            let digits = phone.number.drop { $0 == "+" }
            guard (7...15).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
                  phone.tones.allSatisfy({ "0123456789*#,".contains($0) }), phone.url.scheme == "tel" else {
                fatalError("a dial-in that breaks its promise: \(phone.url)")
            }
        }
        _ = JoinInfoText(text)
        for provider in BMLTMapProvider.allCases { _ = meeting.directionsURL(provider) }
        _ = meeting.addressText
        _ = meeting.weeklySlot(in: TimeZone(identifier: "Asia/Kolkata") ?? .current, defaultTimeZone: .current,
                               weekOf: Date(timeIntervalSince1970: 1_767_225_600))
    }
}
