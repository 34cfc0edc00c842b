import BMLTKit
import Foundation

/// The joining fields `meeting --json` adds to a meeting record (the manual's "JSON output",
/// Samples/ObserverCLI/README.md, lists them); a field without a value is left out.
enum JoinRecords {
    static func joining(_ m: BMLTMeeting, localZone: TimeZone, defaultZone: TimeZone) -> [String: Any] {
        var o: [String: Any] = [:]
        if let join = m.virtualMeeting {
            var v: [String: Any] = ["link": join.link.absoluteString, "service": join.service.rawValue]
            v["meetingID"] = join.meetingID
            v["passcode"] = join.passcode
            v["appURL"] = join.appURL?.absoluteString
            v["desktopAppURL"] = join.desktopAppURL?.absoluteString
            o["virtualMeeting"] = v
        }
        if let phone = m.dialIn {
            o["dialIn"] = ["number": phone.number, "hasCountryCode": phone.hasCountryCode, "tones": phone.tones,
                           "url": phone.url.absoluteString] as [String: Any]
        }
        o["addressText"] = m.addressText
        var directions: [String: Any] = [:]
        for provider in BMLTMapProvider.allCases { directions[provider.rawValue] = m.directionsURL(provider)?.absoluteString }
        if !directions.isEmpty { o["directions"] = directions }
        if let slot = m.weeklySlot(in: localZone, defaultTimeZone: defaultZone) {
            o["weeklySlot"] = ["weekday": slot.weekday.name, "weekdayNumber": slot.weekday.rawValue,
                               "startTime": FieldWords.clock(slot.startTime), "timeZone": slot.timeZone.identifier,
                               "dayShift": slot.dayShift] as [String: Any]
        }
        return o
    }
}
