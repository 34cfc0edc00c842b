import BMLTKit
import Foundation

/// The longest query the server takes, found without hammering it (at most 11 small requests, 0.2 s apart, each asking
/// for ids no meeting has), and whether BMLTKit's search of many ids comes back. Apache refuses a request line over
/// 8,190 bytes with 414 (`server-truths/216-apache-414-headers.txt`), nginx's default header buffer is 8 KB too, and
/// `php -S` takes anything.
@MainActor
struct QueryLengthChecks {
    let runner: CheckRunner
    let connection: BMLTConnection
    let probe: WireProbe
    let findings: CheckFindings

    /// The lengths tried first (doubling); then the gap between the longest taken and the shortest refused is halved
    /// until it is under 512 bytes.
    nonisolated static let lengths = [1024, 2048, 4096, 8192, 16_384, 32_768, 65_536]
    nonisolated static let pause: UInt64 = 200_000_000
    /// How many ids BMLTKit is asked for at once.
    nonisolated static let idCount = 400

    func longestQuery() async throws {
        try await runner.run("way.longest-query", "way: the longest query taken", .way) {
            let firstUnused = (findings.region?.meetings.map(\.id).max() ?? 0) + 1_000_000
            var taken: Int?
            var refused: (length: Int, status: String)?
            var tries = 0
            func attempt(_ length: Int) async throws -> Bool {
                if tries > 0 { try await Task.sleep(nanoseconds: Self.pause) }
                tries += 1
                let items = Self.padding(to: length, from: firstUnused, root: probe.root)
                do {
                    let reply = try await probe.semantic(items)
                    if reply.status == 200, reply.json != nil {
                        taken = max(taken ?? 0, reply.targetLength)
                        return true
                    }
                    refused = (reply.targetLength, "HTTP \(reply.status)")
                } catch BMLTError.transport(let code) {
                    refused = (length, "the connection was dropped (URLError \(code))")
                }
                return false
            }
            for length in Self.lengths {
                guard try await attempt(length) else { break }
            }
            if let low = taken, let high = refused?.length, high > low {
                var (low, high) = (low, high)
                while high - low > 512 {
                    let middle = (low + high) / 2
                    if try await attempt(middle) { low = taken ?? middle } else { high = refused?.length ?? middle }
                }
            }
            findings.longestTaken = taken
            findings.shortestRefused = refused
            var facts: [String: Any] = ["requests": tries]
            facts["longestTaken"] = taken
            facts["shortestRefused"] = refused?.length
            guard let refused else {
                return .passed("every query up to \(counted(taken ?? 0)) bytes taken (no limit found; \(plural(tries, "request")))", facts)
            }
            guard let taken else {
                return .failed("even a query of \(counted(refused.length)) bytes was refused (\(refused.status))",
                               advice: "The server (or a proxy before it) refuses ordinary searches: its administrator should look at its limits.", facts)
            }
            let ids = max(0, (taken - 60) / 24)
            return .passed("takes queries of \(counted(taken)) bytes, refuses \(counted(refused.length)) (\(refused.status)): "
                           + "about \(counted(ids)) ids fit in one search (\(plural(tries, "request")))", facts)
        }
    }

    /// `switcher=GetSearchResults&data_field_key=id_bigint` and ids from `first` on until the target is `length` bytes.
    nonisolated static func padding(to length: Int, from first: Int, root: URL) -> [(String, String)] {
        var items: [(String, String)] = [("switcher", "GetSearchResults"), ("data_field_key", "id_bigint")]
        var path = root.path
        if !path.hasSuffix("/") { path += "/" }
        var size = (path + "client_interface/json/?switcher=GetSearchResults&data_field_key=id_bigint").utf8.count
        var id = first
        while size < length {
            let item = "&" + WireProbe.encode("meeting_ids[]") + "=" + String(id)
            size += item.utf8.count
            items.append(("meeting_ids[]", String(id)))
            id += 1
        }
        return items
    }

    /// BMLTKit's search of many ids (up to 400 of the region's): do they all come back?
    func longIDSearch() async throws {
        try await runner.run("long-id-search", "a search of \(Self.idCount) ids") {
            guard let region = findings.region?.meetings, !region.isEmpty else { return .skipped("the region could not be read") }
            let ids = Array(region.map(\.id).prefix(Self.idCount))
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = ids
            let before = runner.tally.snapshot.requests
            let got: [BMLTMeeting]
            do {
                got = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
            } catch let error as BMLTError {
                if case .cancelled = error { throw error }
                let limit = findings.longestTaken.map { " (it takes about \(counted($0)) bytes)" } ?? ""
                let said: String
                if case .httpStatus(let code, let message) = error {
                    said = "the server answered HTTP \(code)" + (message.map { " (“\($0)”)" } ?? "")
                } else {
                    said = ErrorWords.sentence(error, timeout: runner.context.timeout)
                }
                return .failed("BMLTKit's search of \(plural(ids.count, "id")) failed: " + said,
                               advice: "BMLTKit splits long id lists into requests that fit a request line and reads a 414 as too long, "
                                   + "so this is a BMLTKit bug on this server\(limit): report it with the --verbose output. Meanwhile its "
                                   + "administrator could raise the request line limit (Apache's LimitRequestLine, nginx's "
                                   + "large_client_header_buffers).")
            }
            let requests = runner.tally.snapshot.requests - before
            let missing = Set(ids).subtracting(got.map(\.id)).sorted()
            guard missing.isEmpty else {
                return .failed("\(plural(missing.count, "id")) of \(counted(ids.count)) did not come back: "
                               + missing.prefix(5).map { "#\($0)" }.joined(separator: ", "),
                               advice: "Report it with the server's answers (--verbose).")
            }
            return .passed("all \(counted(ids.count)) came back in \(plural(requests, "request"))", ["ids": ids.count, "requests": requests])
        }
    }
}
