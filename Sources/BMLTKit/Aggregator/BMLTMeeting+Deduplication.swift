import Foundation

extension Array where Element == BMLTMeeting {
    /// The meetings with the copies of one meeting listed by several root servers of an aggregator folded into
    /// one: the first copy stays, in its place, and lists the ids of the copies it absorbed in `foldedMeetingIDs`.
    ///
    /// Two meetings are copies when they come from different root servers (meetings with the same
    /// `rootServerID` are never folded; a meeting without one may fold with any) and:
    /// - both have a world id: the world ids are the same (letter case and spaces aside), whatever the rest; else
    /// - the names are the same (letter case and spacing aside), so are the weekday and the start time, and the
    ///   place agrees: coordinates within 100 m, or the same virtual meeting link; when neither copy has
    ///   coordinates (a search that narrowed the fields), the same distance from the search centre within 100 m.
    ///   A field both copies lack is not compared; a copy without a name never folds.
    ///
    /// The result depends only on the order and contents of the list (a meeting folds into the earliest kept
    /// meeting it matches), so the same search always folds the same way.
    /// ```swift
    /// var criteria = BMLTSearchCriteria()
    /// criteria.location = .nearest(6, latitude: 40.72, longitude: -73.95)
    /// let meetings = try await connection.meetings(matching: criteria).meetings.deduplicated()
    /// for meeting in meetings { print(meeting.name, "also listed as", meeting.foldedMeetingIDs) }
    /// ```
    public func deduplicated() -> [BMLTMeeting] {
        var kept: [BMLTMeeting] = []
        var byWorldID: [String: [Int]] = [:]      // key → indices into `kept`
        var byName: [String: [Int]] = [:]
        for meeting in self {
            let world = MeetingIdentity.worldID(meeting)
            let name = MeetingIdentity.name(meeting)
            var candidates = Set<Int>()
            if let world { candidates.formUnion(byWorldID[world] ?? []) }
            if let name { candidates.formUnion(byName[name] ?? []) }
            if let index = candidates.sorted().first(where: { MeetingIdentity.isSame(kept[$0], meeting) }) {
                kept[index].foldedMeetingIDs.append(meeting.id)
                kept[index].foldedMeetingIDs += meeting.foldedMeetingIDs
                continue
            }
            let index = kept.count
            kept.append(meeting)
            if let world { byWorldID[world, default: []].append(index) }
            if let name { byName[name, default: []].append(index) }
        }
        return kept
    }
}

/// The rule `deduplicated()` folds by.
enum MeetingIdentity {
    /// How close two places must be to be one (metres).
    static let samePlaceMeters = 100.0

    static func worldID(_ meeting: BMLTMeeting) -> String? { normalized(meeting.worldID) }
    static func name(_ meeting: BMLTMeeting) -> String? { normalized(meeting.name) }

    /// Lower case, trimmed, inner runs of white space as one space; `nil` when empty.
    static func normalized(_ text: String?) -> String? {
        guard let text else { return nil }
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    static func isSame(_ first: BMLTMeeting, _ second: BMLTMeeting) -> Bool {
        if let one = first.rootServerID, let two = second.rootServerID, one == two { return false }
        if let one = worldID(first), let two = worldID(second) { return one == two }
        guard let name = name(first), name == self.name(second),
              first.weekday == second.weekday, first.startTime == second.startTime else { return false }
        if let one = first.placedCoordinate, let two = second.placedCoordinate, meters(one, two) <= samePlaceMeters { return true }
        if let one = normalized(first.virtualMeetingLink), one == normalized(second.virtualMeetingLink) { return true }
        if first.placedCoordinate == nil, second.placedCoordinate == nil,
           let one = first.distanceInKilometers ?? first.distanceInMiles.map({ $0 * 1.609344 }),
           let two = second.distanceInKilometers ?? second.distanceInMiles.map({ $0 * 1.609344 }) {
            return abs(one - two) * 1000 <= samePlaceMeters
        }
        return false
    }

    /// The great-circle distance in metres (haversine, mean Earth radius).
    static func meters(_ one: BMLTCoordinate, _ two: BMLTCoordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (two.latitude - one.latitude) * radians
        let dLon = (two.longitude - one.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(one.latitude * radians) * cos(two.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_008.8 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
