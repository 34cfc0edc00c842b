import BMLTKit
import Foundation

/// `meeting ID`: one meeting with what a meeting finder shows beside it — the join link and app link, the dial-in,
/// directions, and its weekly slot on this computer's clocks.
enum MeetingCommand {
    static let localZoneOption: OptionSpec = .value("local-time-zone", "NAME",
                                                     "the zone to show the weekly slot in (IANA; default: this computer's)")

    static let command = Command(
        spec: CommandSpec("meeting", "one meeting with its join link, app link, dial-in, directions and weekly slot in your time",
                          options: [FinderCommands.zoneOption, localZoneOption], positionals: ["ID"]),
        run: { context in
            guard let text = context.commandLine.positionals.first else { throw UsageError("meeting needs a meeting ID, e.g. meeting 12") }
            guard let id = Int(text), id > 0 else { throw UsageError("meeting needs a whole number above 0, not '\(text)'") }
            let defaultZone = try FinderCommands.defaultZone(context)
            let localZone = try zone(context.commandLine.value("local-time-zone"), option: "local-time-zone") ?? .current
            _ = try await context.connection.validate()
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = [id]
            let found = try await context.connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
            guard let meeting = found.first(where: { $0.id == id }) else {
                throw CLIFailure("There is no published meeting \(id) on this server.")
            }
            var record = JSONRecords.meeting(meeting, unit: context.distanceUnit)
            for (key, value) in JoinRecords.joining(meeting, localZone: localZone, defaultZone: defaultZone) { record[key] = value }
            context.result(["meeting": record])
            for line in lines(meeting, localZone: localZone, defaultZone: defaultZone) { context.output(line) }
        }
    )

    /// The lines printed without `--json`: a label column and its value; rows without a value are left out.
    static func lines(_ m: BMLTMeeting, localZone: TimeZone, defaultZone: TimeZone) -> [String] {
        var rows: [(String, String)] = []
        let ownZone = m.effectiveTimeZone(default: defaultZone)
        if let weekday = m.weekday, let start = m.startTime {
            let end = m.endTime.map { "–" + FieldWords.clock($0) } ?? ""
            rows.append(("when", "\(weekday.name) \(FieldWords.clock(start))\(end) \(ownZone.identifier)"
                         + (m.timeZone == nil ? " (the default zone: the meeting names none)" : "")))
        }
        if let slot = m.weeklySlot(in: localZone, defaultTimeZone: defaultZone) {
            let shift = slot.dayShift == 0 ? "" : slot.dayShift > 0 ? ", the next day" : ", the day before"
            rows.append(("your time", "\(slot) \(localZone.identifier) (this week\(shift))"))
        }
        if let venue = m.venueType { rows.append(("venue", FieldWords.venue(venue))) }
        if let place = m.locationText, !place.isEmpty { rows.append(("place", place)) }
        if let address = m.addressText { rows.append(("address", address)) }
        if let join = m.virtualMeeting {
            rows.append(("join", "\(join.link.absoluteString) (\(join.service.name))"))
            if let id = join.meetingID { rows.append(("meeting ID", id)) }
            if let passcode = join.passcode { rows.append(("passcode", passcode)) }
            if let app = join.appURL { rows.append(("app link", app.absoluteString)) }
            if let desktop = join.desktopAppURL, desktop != join.appURL { rows.append(("desktop app", desktop.absoluteString)) }
        } else if let link = m.virtualMeetingLink, !link.isEmpty {
            rows.append(("join", "none usable (the link field holds “\(link.prefix(60))”)"))
        }
        if let phone = m.dialIn {
            rows.append(("dial-in", phone.number + (phone.hasCountryCode ? "" : " (no country code)")))
            rows.append(("tap to dial", phone.url.absoluteString))
        } else if let number = m.phoneMeetingNumber, !number.isEmpty {
            rows.append(("dial-in", "none usable (the phone field holds “\(number.prefix(60))”)"))
        }
        let names: [(BMLTMapProvider, String)] = [(.appleMaps, "Apple Maps"), (.googleMaps, "Google Maps"), (.geo, "geo URI")]
        for (provider, name) in names {
            if let url = m.directionsURL(provider) { rows.append(("directions", "\(name): \(url.absoluteString)")) }
        }
        var lines = ["", "#\(m.id) \(m.name)"]
        lines += rows.map { "  " + $0.0.padding(toLength: 13, withPad: " ", startingAt: 0) + $0.1 }
        return lines
    }

    /// A zone option's value, or `nil` when it was not given.
    static func zone(_ name: String?, option: String) throws -> TimeZone? {
        guard let name else { return nil }
        guard let zone = TimeZone(identifier: name) else { throw UsageError("--\(option) needs an IANA name, e.g. Europe/London") }
        return zone
    }
}
