import BMLTKit
import Foundation

/// `search`: a meeting search with the main criteria as flags; prints the meetings found.
enum SearchCommand {
    static let options: [OptionSpec] = [
        .value("weekday", "DAY", "sun…sat or 1–7 (1 = Sunday); repeat or comma-separate", repeats: true),
        .value("service-body", "ID", "service body id; repeat for several", repeats: true),
        .flag("recursive", "include the service bodies below those given"),
        .value("format", "KEY|ID", "a format key (O, BT…) or id the meeting must have (all of them); repeat for several", repeats: true),
        .flag("any-format", "meetings with any of the --format formats instead of all"),
        .value("near", "LAT,LONG", "search around a point"),
        .value("radius", "DISTANCE", "with --near: e.g. 5mi, 8km, or nearest:10 (default nearest:10)"),
        .value("text", "TEXT", "text to look for in names and places"),
        .value("starts-after", "HH:MM", "meetings starting after this time"),
        .value("starts-before", "HH:MM", "meetings starting before this time"),
        .value("venue", "TYPE", "in-person, virtual or hybrid; repeat for several", repeats: true),
        .value("page", "N", "page number (with --page-size)"),
        .value("page-size", "N", "meetings per page"),
        .value("root-server", "ID", "aggregators: only this root server (see root-servers); repeat for several", repeats: true),
        .value("limit", "N", "print at most N meetings (default 20; with --json all)"),
        .flag("meetings-only", "do not ask for the formats the meetings use (a smaller reply)"),
    ]

    static let command = Command(
        spec: CommandSpec("search", "search meetings (validates first) and print them", options: options),
        run: { context in
            let early = try criteria(from: context.commandLine)           // usage errors before any request
            let limit = try context.limit(default: 20)
            let extent: BMLTSearchExtent = context.commandLine.flag("meetings-only") ? .meetingsOnly : .meetingsAndFormats
            if canSearchBesideValidation(context.commandLine, early) {
                let results = try await searchBesideValidation(early, extent: extent, context: context)
                printMeetings(results.meetings, limit: limit, context: context)
                return
            }
            _ = try await context.connection.validate()
            let criteria = try criteria(from: context.commandLine, formats: context.connection.server.formats)
            if context.connection.capabilities.contains(.aggregator), !criteria.satisfiesAggregatorFilterRule {
                throw UsageError(RootServersCommand.filterAdvice)
            }
            let results = try await context.connection.meetings(matching: criteria, extent: extent)
            printMeetings(results.meetings, limit: limit, context: context)
        }
    )

    /// Whether the search can go out beside the validation instead of after it (a round trip and its transfer fewer
    /// on a slow network): when it needs nothing the validation learns — every `--format` is an id, not a key to look up
    /// among the server's formats — and an aggregator would not refuse it (it has a narrowing filter).
    static func canSearchBesideValidation(_ line: ParsedCommandLine, _ criteria: BMLTSearchCriteria) -> Bool {
        line.values("format").allSatisfy { Int($0) != nil } && criteria.satisfiesAggregatorFilterRule
    }

    /// The validation and the search at once. The validation's outcome comes first: a server that is not a usable root
    /// server is reported as such, the search is cancelled, and nothing of it is printed (its notification lines are held
    /// back until the validation has ended, then printed after the validation's, or dropped).
    @MainActor
    static func searchBesideValidation(_ criteria: BMLTSearchCriteria, extent: BMLTSearchExtent,
                                       context: CommandContext) async throws -> BMLTSearchResults {
        let connection = context.connection
        context.holdSearchEvents()
        let search = Task { @MainActor in try await connection.meetings(matching: criteria, extent: extent) }
        do {
            _ = try await withTaskCancellationHandler { try await connection.validate() } onCancel: { search.cancel() }
        } catch {
            search.cancel()
            _ = await search.result
            context.releaseHeldEvents(false)
            throw error
        }
        let outcome = await withTaskCancellationHandler { await search.result } onCancel: { search.cancel() }
        context.releaseHeldEvents(true)
        return try outcome.get()
    }

    /// The criteria the flags describe; a `UsageError` for a flag value that makes no sense. `--format` keys are
    /// looked up in `formats` (the server's); without them only ids are used (a syntax check before validating).
    static func criteria(from line: ParsedCommandLine, formats known: [BMLTFormat]? = nil) throws -> BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = Set(try line.values("weekday").map(weekday))
        criteria.serviceBodyIDs = try line.values("service-body").map { try integer($0, "--service-body") }
        criteria.includeChildServiceBodies = line.flag("recursive")
        let formats = try formatIDs(line.values("format"), known: known)
        if !formats.isEmpty { criteria.formats = line.flag("any-format") ? .any(of: formats) : .all(of: formats) }
        if let near = line.value("near") {
            let parts = near.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
                throw UsageError("--near needs LAT,LONG in degrees, e.g. 40.7,-73.9")
            }
            criteria.location = try location(latitude: parts[0], longitude: parts[1], radius: line.value("radius") ?? "nearest:10")
        } else if line.value("radius") != nil {
            throw UsageError("--radius needs --near")
        }
        criteria.text = line.value("text")
        criteria.startsAfter = try line.value("starts-after").map { try time($0, "--starts-after") }
        criteria.startsBefore = try line.value("starts-before").map { try time($0, "--starts-before") }
        criteria.venueTypes = Set(try line.values("venue").map(venue))
        criteria.rootServerIDs = try line.values("root-server").map { try integer($0, "--root-server") }
        if let size = line.value("page-size") {
            criteria.page = .init(size: try integer(size, "--page-size"), number: try integer(line.value("page") ?? "1", "--page"))
        } else if line.value("page") != nil {
            throw UsageError("--page needs --page-size")
        }
        return criteria
    }

    /// Format ids for `--format` values: ids as given, keys (`O`, `bt`) looked up among `known`. Without `known`,
    /// keys are skipped (checked later against the server's formats).
    static func formatIDs(_ values: [String], known: [BMLTFormat]?) throws -> [Int] {
        try values.compactMap { text -> Int? in
            if let id = Int(text), id >= 0 { return id }
            guard let known else { return nil }
            if let format = known.first(where: { $0.key == text }) ?? known.first(where: { $0.key.lowercased() == text.lowercased() }) {
                return format.id
            }
            throw UsageError("--format: '\(text)' is neither a format key of this server nor an id (see: bmlt-observer formats)")
        }
    }

    static func weekday(_ text: String) throws -> BMLTWeekday {
        if let number = Int(text), let day = BMLTWeekday(rawValue: number) { return day }
        let lowered = text.lowercased()
        if lowered.count >= 2, let day = BMLTWeekday.allCases.first(where: { $0.name.lowercased().hasPrefix(lowered) }) { return day }
        throw UsageError("--weekday: '\(text)' is not a day (sun…sat or 1–7)")
    }

    static func venue(_ text: String) throws -> BMLTVenueType {
        switch text.lowercased() {
        case "in-person", "inperson", "1": return .inPerson
        case "virtual", "2": return .virtual
        case "hybrid", "3": return .hybrid
        default: throw UsageError("--venue: '\(text)' is not in-person, virtual or hybrid")
        }
    }

    static func time(_ text: String, _ option: String) throws -> BMLTTimeOfDay {
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2, let hour = parts[0], let minute = parts[1], (0...23).contains(hour), (0...59).contains(minute) else {
            throw UsageError("\(option) needs a time as HH:MM")
        }
        return BMLTTimeOfDay(hour: hour, minute: minute)
    }

    static func integer(_ text: String, _ option: String) throws -> Int {
        guard let value = Int(text), value >= 0 else { throw UsageError("\(option) needs a whole number") }
        return value
    }

    static func location(latitude: Double, longitude: Double, radius: String) throws -> BMLTSearchCriteria.Location {
        let lowered = radius.lowercased()
        if lowered.hasPrefix("nearest:"), let count = Int(lowered.dropFirst(8)), count > 0 {
            return .init(latitude: latitude, longitude: longitude, radius: .nearest(count))
        }
        if lowered.hasSuffix("km"), let value = Double(lowered.dropLast(2)), value > 0 {
            return .init(latitude: latitude, longitude: longitude, radius: .kilometers(value))
        }
        if lowered.hasSuffix("mi"), let value = Double(lowered.dropLast(2)), value > 0 {
            return .init(latitude: latitude, longitude: longitude, radius: .miles(value))
        }
        throw UsageError("--radius: '\(radius)' is not like 5mi, 8km or nearest:10")
    }

    /// The meetings found: lines with their columns aligned (and the distance on searches around a point), or
    /// with `--json` one result record `{"meetings": […], "count": N, "shown": N}`.
    @MainActor
    static func printMeetings(_ meetings: [BMLTMeeting], limit: Int, context: CommandContext) {
        let unit = context.distanceUnit
        context.result(JSONRecords.limited(meetings, limit: limit, key: "meetings") { JSONRecords.meeting($0, unit: unit) })
        context.output("")
        context.output("\(meetings.count) meeting\(meetings.count == 1 ? "" : "s")" + shownNote(meetings.count, limit: limit))
        let shown = Array(meetings.prefix(limit))
        for (line, meeting) in zip(MeetingLine.lines(shown, unit: unit), shown) {
            context.output(line + RootServersCommand.suffix(for: meeting, on: context.connection))
        }
    }
}

/// One line per meeting: id, day, time, distance (around a point), name, place, formats; columns aligned.
enum MeetingLine {
    /// The meetings' lines, their id, time and distance columns aligned.
    static func lines(_ meetings: [BMLTMeeting], unit: BMLTDistanceUnit? = nil) -> [String] {
        let rows = meetings.map { meeting -> [String] in
            let day = meeting.weekday.map { String($0.name.prefix(3)) } ?? "???"
            let time = meeting.startTime.map(FieldWords.clock) ?? "--:--"
            let distance = JSONRecords.distance(of: meeting, in: unit).map { String(format: "%.1f %@", $0.value, $0.unit.rawValue) }
            return ["#\(meeting.id)", "\(day) \(time)"] + (distance.map { [$0] } ?? []) + [text(meeting)]
        }
        let hasDistance = rows.contains { $0.count == 4 }
        let even = rows.map { hasDistance && $0.count == 3 ? [$0[0], $0[1], "", $0[2]] : $0 }
        return Columns.lines(even, rightAligned: hasDistance ? [0, 2] : [0])
    }

    /// Name, venue, place and formats (formats cut at 8 with "…").
    static func text(_ meeting: BMLTMeeting) -> String {
        let place = [meeting.locationText, meeting.municipality].compactMap { $0 }.joined(separator: ", ")
        let venue: String
        switch meeting.venueType {
        case .virtual?: venue = " [virtual]"
        case .hybrid?: venue = " [hybrid]"
        default: venue = ""
        }
        let shown = meeting.formatKeys.prefix(8).joined(separator: ",") + (meeting.formatKeys.count > 8 ? ",…" : "")
        let keys = meeting.formatKeys.isEmpty ? "" : " (" + shown + ")"
        return meeting.name + venue + (place.isEmpty ? "" : " — \(place)") + keys
    }

    /// One meeting on its own line (watch's additions and removals).
    static func describe(_ meeting: BMLTMeeting) -> String { lines([meeting])[0] }
}

extension BMLTTimeOfDay {
    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
