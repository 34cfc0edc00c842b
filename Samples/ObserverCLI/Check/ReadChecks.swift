import BMLTKit
import Foundation

/// The read-only checks anyone may run: validation, server info, formats, service bodies, field keys and values, the
/// whole region counted against the server's own numbers, nearest N, changes, coverage area, NAWS export. Each reads
/// through BMLTKit, as an app would; the server's own ways are in `ServerWays`.
@MainActor
struct ReadChecks {
    let runner: CheckRunner
    let connection: BMLTConnection
    let probe: WireProbe
    let findings: CheckFindings

    /// Validation: if it fails, nothing else can be checked.
    func validation() async throws -> Bool {
        let verdict = try await runner.run("validation", "validation") {
            let info = try await connection.validate()
            findings.info = info
            return .passed((info.aggregatorModeEnabled ? "aggregator " : "root server ") + "\(info.version) (\(info.versionInt)), \(plural(connection.server.formats.count, "format")), "
                           + plural(connection.server.serviceBodies.count, "service body", "service bodies"),
                           ["version": info.version, "versionInt": info.versionInt])
        }
        return verdict.status == .passed
    }

    func serverInfo() async throws {
        try await runner.run("server-info", "server info and capabilities") {
            guard let info = findings.info else { return .skipped("the server did not validate") }
            var facts: [String: Any] = ["capabilities": InfoCommand.capabilityNames(connection.capabilities),
                                        "languages": connection.server.languages.map(\.code), "distanceUnit": info.distanceUnits.rawValue]
            var detail = "version \(info.version), languages " + connection.server.languages.map(\.code).joined(separator: ", ")
                + ", distances in \(info.distanceUnits.rawValue), capabilities: " + InfoCommand.describe(connection.capabilities)
            if findings.isAggregator {
                findings.rootServers = connection.server.rootServers.isEmpty ? try await connection.rootServers() : connection.server.rootServers
                detail += "; \(plural(findings.rootServers.count, "root server")) imported"
                facts["rootServers"] = findings.rootServers.count
            }
            return .passed(detail, facts)
        }
    }

    func formats() async throws {
        try await runner.run("formats", "formats") {
            let formats = connection.server.formats
            guard !formats.isEmpty else {
                return .failed("the server lists no format", advice: "The server's administrator should check its formats: GetFormats answers an empty list.")
            }
            var seen: [String: Int] = [:]
            for format in formats { seen["\(format.id)/\(format.language)", default: 0] += 1 }
            let repeated = seen.filter { $0.value > 1 }.keys.sorted()
            let nameless = formats.filter { $0.key.isEmpty }.map(\.id)
            if !repeated.isEmpty || !nameless.isEmpty {
                return .failed("format ids listed twice in one language: \(repeated.prefix(5).joined(separator: ", ")); formats without a key: "
                               + (nameless.isEmpty ? "none" : nameless.prefix(5).map { "#\($0)" }.joined(separator: ", ")),
                               advice: "The server's administrator should fix these formats (each id once per language, each with a key).")
            }
            let languages = Set(formats.map(\.language)).sorted()
            return .passed("\(plural(formats.count, "format")) in " + languages.joined(separator: ", "), ["count": formats.count])
        }
    }

    func serviceBodies() async throws {
        try await runner.run("service-bodies", "service bodies (the tree)") {
            let bodies = connection.server.serviceBodies
            guard !bodies.isEmpty else {
                return .failed("the server lists no service body", advice: "The server's administrator should check its service bodies.")
            }
            let problems = ServiceBodyTree.problems(bodies)
            guard problems.isEmpty else {
                return .failed(problems.joined(separator: "; "),
                               advice: "The server's administrator should give each of these service bodies a parent the server holds "
                                   + "(apps show an orphan at the top of the tree, and a loop nowhere).")
            }
            let roots = bodies.filter { ($0.parentID ?? 0) == 0 }.count
            return .passed("\(plural(bodies.count, "service body", "service bodies")), \(plural(roots, "root")), no orphan, no loop",
                           ["count": bodies.count])
        }
    }

    /// Field keys, and the server's own count of its published meetings (the ids of GetFieldValues of `weekday_tinyint`).
    func fieldKeysAndValues() async throws {
        try await runner.run("field-keys", "field keys and values") {
            let keys = try await connection.fieldKeys().map(\.key)
            let missing = ["id_bigint", "meeting_name", "weekday_tinyint", "start_time"].filter { !keys.contains($0) }
            guard missing.isEmpty else {
                return .failed("GetFieldKeys lacks " + missing.joined(separator: ", "),
                               advice: "The server's administrator should check its meeting field templates: every root server lists these keys.")
            }
            if findings.isAggregator {
                return .passed("\(plural(keys.count, "key")) (an aggregator counts its meetings per root server: /api/v1/rootservers)")
            }
            let values = try await connection.fieldValues(forKey: "weekday_tinyint")
            let odd = values.compactMap(\.value).filter { Int($0).map { !(1...7).contains($0) } ?? true }
            guard odd.isEmpty else {
                return .failed("weekday values outside 1–7: " + odd.prefix(5).joined(separator: ", "),
                               advice: "The server's administrator should correct these meetings' weekdays.")
            }
            findings.countedByServer = Set(values.flatMap(\.meetingIDs))
            findings.countSource = "GetFieldValues of weekday_tinyint"
            findings.unpublishedIDs = try await unpublishedIDs()
            return .passed("\(plural(keys.count, "key")); the server counts \(plural(findings.countedByServer?.count ?? 0, "meeting")) "
                           + "by weekday; \(plural(findings.unpublishedIDs.count, "unpublished meeting")) named to anyone who asks (advanced_published=-1)",
                           ["keys": keys.count, "counted": findings.countedByServer?.count ?? 0])
        }
    }

    /// The unpublished meetings the server names to an anonymous reader (`advanced_published=-1`), for the check of a
    /// search by ids (a raw request: what the server itself answers).
    private func unpublishedIDs() async throws -> [Int] {
        let reply = try await probe.semantic([("switcher", "GetSearchResults"), ("advanced_published", "-1"),
                                              ("data_field_key", "id_bigint,published")])
        findings.remember(reply)
        guard reply.status == 200, let meetings = reply.meetings else { return [] }
        // Only those the server marks unpublished (a server that ignores the parameter returns published ones).
        return meetings.filter { meeting in
            let published = "\(meeting["published"] ?? "")".trimmingCharacters(in: .whitespaces)
            return published == "0" || published.isEmpty || published == "false"
        }.compactMap { WireProbe.Reply.int($0["id_bigint"]) }.sorted()
    }

    /// The whole region (an aggregator: its smallest root server with meetings), decoded by BMLTKit and counted against
    /// the server's own numbers.
    func wholeRegion() async throws {
        let title = findings.isAggregator ? "one root server's whole list" : "whole-region search"
        try await runner.run("whole-region", title) {
            var criteria = BMLTSearchCriteria()
            var expected = findings.countedByServer.map { $0.subtracting(findings.unpublishedIDs) }
            var expectedCount = expected?.count
            var source = findings.countSource
            if findings.isAggregator {
                guard let root = findings.rootServers.filter({ ($0.meetingCount ?? 0) > 0 }).min(by: { ($0.meetingCount ?? 0) < ($1.meetingCount ?? 0) }) else {
                    return .skipped("the aggregator names no root server with meetings")
                }
                criteria.rootServerIDs = [root.id]
                expected = nil
                expectedCount = root.meetingCount
                source = "root server #\(root.id)'s statistics (\(root.name))"
            }
            findings.regionCriteria = criteria
            let results = try await connection.meetings(matching: criteria)
            findings.region = results
            let ids = results.meetings.map(\.id)
            let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            guard repeated.isEmpty else {
                return .failed("meetings listed twice: " + repeated.prefix(8).map { "#\($0)" }.joined(separator: ", "),
                               advice: "Apps would show these meetings twice: the server's administrator should look at its meetings table.")
            }
            let facts: [String: Any] = ["count": ids.count, "formats": results.formats.count]
            if let expected {
                let missing = expected.subtracting(ids).sorted(), extra = Set(ids).subtracting(expected).sorted()
                guard missing.isEmpty && extra.isEmpty else {
                    return .failed("BMLTKit decoded \(plural(ids.count, "meeting")); the server counts \(counted(expected.count)) published ones "
                                   + "(\(source)): " + Self.difference(missing: missing, extra: extra),
                                   advice: "Run 'bmlt-observer --verbose search' and compare with the server's own list: a meeting BMLTKit "
                                       + "cannot decode is a bug to report with the server's answer; a count that differs on the server "
                                       + "is for its administrator.", facts)
                }
            } else if let expectedCount, expectedCount != ids.count {
                return .failed("BMLTKit decoded \(plural(ids.count, "meeting")); \(source) says \(counted(expectedCount))",
                               advice: "Re-import the root server on the aggregator, or report the difference with the server's answers.", facts)
            }
            let counts = expectedCount == nil ? "" : ", as the server counts them (\(source))"
            return .passed("\(plural(ids.count, "meeting")) decoded\(counts)", facts)
        }
    }

    static func difference(missing: [Int], extra: [Int]) -> String {
        var parts: [String] = []
        if !missing.isEmpty { parts.append("not in the list: " + missing.prefix(8).map { "#\($0)" }.joined(separator: ", ") + (missing.count > 8 ? " …" : "")) }
        if !extra.isEmpty { parts.append("not counted: " + extra.prefix(8).map { "#\($0)" }.joined(separator: ", ") + (extra.count > 8 ? " …" : "")) }
        return parts.joined(separator: "; ")
    }

    /// Nearest N around a meeting of the region: at least N come back, sorted by distance, and they are the N nearest of
    /// the whole list.
    func nearest() async throws {
        let count = 10
        try await runner.run("nearest", "nearest \(count)") {
            guard let region = findings.region?.meetings, let center = region.compactMap(\.coordinate).first else {
                return .skipped("no meeting of the region has a place to search around")
            }
            var criteria = BMLTSearchCriteria()
            criteria.location = .nearest(count, latitude: center.latitude, longitude: center.longitude)
            criteria.sortByDistance = true
            criteria.rootServerIDs = findings.regionCriteria.rootServerIDs
            let found = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
            let placed = region.filter { $0.coordinate != nil }
            let wanted = min(count, placed.count)
            let distances = found.map { $0.distanceInKilometers ?? $0.distanceInMiles.map { $0 * 1.609344 } }
            guard found.count >= wanted else {
                return .failed("\(plural(found.count, "meeting")) came back for the nearest \(count)",
                               advice: "Apps' \"near me\" lists would be short on this server: report it with the server's answer (--verbose).")
            }
            guard distances.allSatisfy({ $0 != nil }) else {
                return .failed("some meetings came back without their distance",
                               advice: "Apps could not say how far these meetings are: report it with the server's answer (--verbose).")
            }
            let known = distances.compactMap { $0 }
            guard zip(known, known.dropFirst()).allSatisfy({ $0 <= $1 + 1e-6 }) else {
                return .failed("the meetings are not sorted by distance", advice: "Report it with the server's answer (--verbose).")
            }
            // The N nearest of the whole list (great-circle distances here, the server's own there: 1 % and 100 m of slack).
            let ranked = placed.map { ($0.id, Geo.kilometers(center, $0.coordinate!)) }.sorted { $0.1 < $1.1 }
            let limit = ranked[wanted - 1].1
            let ids = Set(found.map(\.id))
            let left = ranked.filter { $0.1 < limit * 0.99 - 0.1 && !ids.contains($0.0) }.map(\.0)
            guard left.isEmpty else {
                return .failed("nearer meetings were left out: " + left.prefix(5).map { "#\($0)" }.joined(separator: ", "),
                               advice: "Report it with the server's answer (--verbose): a \"near me\" list would miss them.")
            }
            let farthest = known.last.map { String(format: "%.1f km", $0) } ?? "?"
            return .passed("\(plural(found.count, "meeting")) within \(farthest), sorted, the nearest of the whole list", ["count": found.count])
        }
    }

    func changes() async throws {
        try await runner.run("changes", "changes (the last 7 days)") {
            let now = Date()
            let changes: [BMLTChange]
            do {
                changes = try await connection.changes(from: now.addingTimeInterval(-7 * 86_400))
            } catch BMLTError.unsupported where findings.isAggregator {
                return .skipped("an aggregator keeps no change log (it empties it at every import), and BMLTKit asks none of it")
            }
            guard let newest = changes.compactMap(\.date).max() else {
                return .passed(findings.isAggregator ? "none (an aggregator empties its change log at every import)" : "none in the last 7 days",
                               ["count": changes.count])
            }
            findings.newestChange = newest
            let formatter = ISO8601DateFormatter()
            return .passed("\(plural(changes.count, "change")), the newest \(formatter.string(from: newest))",
                           ["count": changes.count, "newest": formatter.string(from: newest)])
        }
    }

    func coverage() async throws {
        try await runner.run("coverage", "coverage area") {
            let area = try await connection.coverageArea()
            let placed = (findings.region?.meetings ?? []).compactMap { meeting in meeting.coordinate.map { (meeting.id, $0) } }
            let slack = 1e-4
            let outside = placed.filter { _, point in
                point.latitude > area.northWest.latitude + slack || point.latitude < area.southEast.latitude - slack
                    || point.longitude < area.northWest.longitude - slack || point.longitude > area.southEast.longitude + slack
            }.map(\.0)
            let box = String(format: "%.4f,%.4f – %.4f,%.4f", area.northWest.latitude, area.northWest.longitude,
                             area.southEast.latitude, area.southEast.longitude)
            guard outside.isEmpty else {
                return .failed("\(plural(outside.count, "meeting")) lie outside the box the server reports (\(box)): "
                               + outside.prefix(5).map { "#\($0)" }.joined(separator: ", "),
                               advice: "Maps that start from the coverage area would not show them: the server's administrator should check their coordinates.")
            }
            return .passed("\(box) holds all \(plural(placed.count, "meeting")) with a place")
        }
    }

    /// The NAWS export of the service body with the most meetings: every published meeting of it is a row.
    func nawsExport() async throws {
        guard connection.capabilities.contains(.nawsExport), !findings.isAggregator else {
            runner.skip("naws", "NAWS export", because: findings.isAggregator ? "an aggregator offers no NAWS export" : "the server offers no NAWS export")
            return
        }
        try await runner.run("naws", "NAWS export") {
            let meetings = findings.region?.meetings ?? []
            guard let body = Dictionary(grouping: meetings, by: \.serviceBodyID).max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else {
                return .skipped("the region holds no meeting")
            }
            let export = try await connection.nawsExport(serviceBodyID: body.key)
            let listed = Set(export.rows.compactMap { $0["bmlt_id"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } })
            let missing = body.value.map(\.id).filter { !listed.contains($0) }
            guard missing.isEmpty else {
                return .failed("service body #\(body.key)'s export lacks \(plural(missing.count, "published meeting")): "
                               + missing.prefix(5).map { "#\($0)" }.joined(separator: ", "),
                               advice: "World Services would not hear of these meetings: the server's administrator should look at them.")
            }
            return .passed("service body #\(body.key): \(plural(export.rows.count, "row")), every one of its \(plural(body.value.count, "published meeting"))",
                           ["serviceBodyID": body.key, "rows": export.rows.count])
        }
    }
}

/// The service-body tree's problems: an id listed twice, a parent the server does not hold (an orphan), a loop.
enum ServiceBodyTree {
    static func problems(_ bodies: [BMLTServiceBody]) -> [String] {
        var problems: [String] = []
        let byID = Dictionary(bodies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if byID.count != bodies.count { problems.append("service body ids listed twice") }
        let orphans = bodies.filter { ($0.parentID ?? 0) != 0 && byID[$0.parentID!] == nil }
        if !orphans.isEmpty {
            problems.append("orphans (a parent the server does not list): "
                            + orphans.prefix(5).map { "#\($0.id) (parent #\($0.parentID!))" }.joined(separator: ", "))
        }
        var inLoop: [Int] = []
        for body in bodies {
            var seen: Set<Int> = [body.id]
            var parent = body.parentID ?? 0
            while parent != 0, let next = byID[parent] {
                if seen.contains(parent) { inLoop.append(body.id); break }
                seen.insert(parent)
                parent = next.parentID ?? 0
            }
        }
        if !inLoop.isEmpty { problems.append("in a loop of parents: " + inLoop.prefix(5).map { "#\($0)" }.joined(separator: ", ")) }
        return problems
    }
}

/// Great-circle distances.
enum Geo {
    static func kilometers(_ a: BMLTCoordinate, _ b: BMLTCoordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians, dLong = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLong / 2) * sin(dLong / 2)
        return 6371.0088 * 2 * atan2(sqrt(h), sqrt(1 - h))
    }
}
