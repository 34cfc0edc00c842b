import Foundation

/// A small deterministic pseudo-random generator (SplitMix64), so the demo data set is identical on every run.
struct DemoRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< bound.
    mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// -1 ... 1.
    mutating func unit() -> Double { Double(next() % 2_000_001) / 1_000_000 - 1 }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

/// Builds the pristine demo data set.
enum DemoData {
    /// Number of meetings generated (ids 1…count); `deletedIDs` of them end up deleted.
    static let count = 324
    static let deletedIDs = [41, 177]
    /// 2025-01-06 00:00:00 UTC: the first day of the fixed change history.
    static let historyStart = Date(timeIntervalSince1970: 1_736_121_600)

    static func make() -> DemoDataSet {
        var random = DemoRandom(seed: 0xB317_DE30)
        var meetings: [Int: DemoMeeting] = [:]
        for id in 1...count { meetings[id] = meeting(id, &random) }
        DemoJoinExamples.apply(to: &meetings, skipping: deletedIDs)
        var set = DemoDataSet(formats: DemoCatalog.formats, serviceBodies: DemoCatalog.serviceBodies, users: DemoCatalog.users,
                              meetings: meetings, deletedMeetings: [:], changes: [], nextMeetingID: count + 1, nextChangeID: 1)
        history(&set, &random)
        return set
    }

    private static let areaIDs = [1001, 1001, 1002, 1002, 1003, 1004, 1005, 1005, 1005, 1006, 1007, 1008, 1009]
    private static let startTimes = [7 * 60, 9 * 60 + 30, 10 * 60, 12 * 60, 12 * 60 + 15, 17 * 60 + 30, 18 * 60, 18 * 60 + 30,
                                     19 * 60, 19 * 60 + 30, 20 * 60, 20 * 60 + 30, 21 * 60, 22 * 60]
    private static let durations = [60, 60, 60, 60, 90, 90, 120]

    private static func meeting(_ id: Int, _ r: inout DemoRandom) -> DemoMeeting {
        let area = areaIDs[r.int(areaIDs.count)]
        let town = r.pick(DemoCatalog.towns[area]!)
        let online = area == 1009
        let venueType = online ? 2 : (r.chance(10) ? 2 : (r.chance(12) ? 3 : 1))
        let spanish = !online && r.chance(6)
        var formats: [Int] = [r.chance(60) ? DemoCatalog.ID.closed : DemoCatalog.ID.open]
        let program = [DemoCatalog.ID.basicText, DemoCatalog.ID.discussion, DemoCatalog.ID.itWorks, DemoCatalog.ID.justForToday,
                       DemoCatalog.ID.speaker, DemoCatalog.ID.stepStudy, DemoCatalog.ID.rotating]
        for _ in 0..<(1 + r.int(2)) {
            let f = r.pick(program)
            if !formats.contains(f) { formats.append(f) }
        }
        if r.chance(15) { formats.append(DemoCatalog.ID.beginners) }
        if venueType != 2 && r.chance(35) { formats.append(DemoCatalog.ID.wheelchair) }
        if r.chance(25) { formats.append(DemoCatalog.ID.nonSmoking) }
        if r.chance(5) { formats.append(r.chance(50) ? DemoCatalog.ID.women : DemoCatalog.ID.men) }
        if r.chance(8) { formats.append(DemoCatalog.ID.childrenWelcome) }
        if spanish { formats.append(DemoCatalog.ID.spanish) }
        let temporarilyVirtual = venueType == 2 && !online && r.chance(40)
        if venueType == 2 { formats.append(DemoCatalog.ID.virtual) }
        if venueType == 3 { formats.append(DemoCatalog.ID.hybrid) }
        if temporarilyVirtual { formats.append(DemoCatalog.ID.temporarilyClosed) }

        var m = DemoMeeting(id: id, serviceBodyID: area, weekday: 1 + r.int(7), venueType: venueType,
                            startMinutes: r.pick(startTimes), durationMinutes: r.pick(durations), formatIDs: formats,
                            latitude: round6(town.latitude + 0.03 * r.unit()), longitude: round6(town.longitude + 0.04 * r.unit()))
        m.lang = spanish ? "es" : "en"
        m.worldID = r.chance(85) ? String(format: "G%08d", 90_000 + id * 37) : ""
        m.published = id % 41 != 0
        let start = r.pick(DemoCatalog.nameStarts)
        m[field: "meeting_name"] = spanish ? "Grupo \(start)" : (r.chance(40) ? "\(start) in \(town.name)" : start)
        m[field: "location_municipality"] = town.name
        m[field: "location_sub_province"] = town.county
        m[field: "location_province"] = town.province
        m[field: "location_postal_code_1"] = String(town.zip + r.int(2))
        m[field: "location_nation"] = "Demoland"
        if venueType != 2 || temporarilyVirtual {
            m[field: "location_text"] = r.pick(DemoCatalog.venues)
            m[field: "location_street"] = "\(10 + r.int(4_900)) \(r.pick(DemoCatalog.streets))"
            m[field: "location_neighborhood"] = r.pick(town.neighborhoods)
            if r.chance(20) { m[field: "location_info"] = r.pick(["Side entrance", "Basement", "Room 104", "Use the rear door"]) }
            if r.chance(10) { m[field: "bus_lines"] = "Route \(1 + r.int(40))" }
        }
        if venueType != 1 {
            m[field: "virtual_meeting_link"] = "https://video.example.org/j/\(800_000_000 + id * 1_013)"
            if r.chance(60) { m[field: "phone_meeting_number"] = "+1 612 555 01\(String(format: "%02d", id % 100))" }
            m[field: "virtual_meeting_additional_info"] = "Meeting ID \(800_000_000 + id * 1_013), passcode demo"
        }
        if r.chance(12) { m[field: "comments"] = r.pick(["Demo data: not a real meeting.", "Parking behind the building.",
                                                          "Literature available.", "Birthday celebration last week of the month."]) }
        if r.chance(10) {
            m[field: "contact_name_1"] = "Demo Contact \(id)"
            m[field: "contact_phone_1"] = "555-01\(String(format: "%02d", id % 100))"
            m[field: "contact_email_1"] = "contact\(id)@example.org"
        }
        return m
    }

    private static func round6(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    /// The fixed change history: creations, edits, one rollback and two deletions, all in the first half of 2025.
    private static func history(_ set: inout DemoDataSet, _ r: inout DemoRandom) {
        var records: [DemoChange] = []
        func add(_ kind: DemoChange.Kind, _ day: Int, _ meeting: DemoMeeting, before: DemoMeeting?, after: DemoMeeting?) {
            let date = historyStart.addingTimeInterval(Double(day) * 86_400 + Double(9 * 3_600 + r.int(8 * 3_600)))
            let user = meeting.serviceBodyID == 1009 ? 1 : (meeting.serviceBodyID <= 1004 ? 2 : 3)
            records.append(DemoChange(id: 0, date: date, kind: kind, meetingID: meeting.id, userID: user,
                                      serviceBodyID: meeting.serviceBodyID, before: before, after: after))
        }
        // Meetings created during the history window (the newest ids, one every few days).
        for (n, id) in (295...count).enumerated() {
            guard let m = set.meetings[id] else { continue }
            add(.new, n * 4, m, before: nil, after: m)
        }
        // Edits: the stored meeting is the "after" state.
        for (n, id) in [2, 15, 33, 58, 101, 150, 212, 260, 301, 310].enumerated() {
            guard let after = set.meetings[id] else { continue }
            var before = after
            switch n % 3 {
            case 0: before.startMinutes = max(0, after.startMinutes - 30)
            case 1: before[field: "meeting_name"] = after.name + " Group"
            default: before.weekday = after.weekday % 7 + 1
            }
            add(.change, 20 + n * 13, after, before: before, after: after)
        }
        // A rollback: an edit to meeting 77 that was rolled back the next day.
        if let current = set.meetings[77] {
            var edited = current
            edited.durationMinutes = current.durationMinutes + 30
            add(.change, 60, current, before: current, after: edited)
            add(.rollback, 61, current, before: edited, after: current)
        }
        // Two deletions.
        for (n, id) in deletedIDs.enumerated() {
            guard let m = set.meetings.removeValue(forKey: id) else { continue }
            set.deletedMeetings[id] = m
            add(.delete, 100 + n * 30, m, before: m, after: nil)
        }
        records.sort { $0.date < $1.date }
        for index in records.indices { records[index].id = index + 1 }
        set.changes = records
        set.nextChangeID = records.count + 1
    }
}
