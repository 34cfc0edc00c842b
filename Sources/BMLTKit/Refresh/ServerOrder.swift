import Foundation

/// What a generation's order decides beside the meetings' own: the order of the formats a search lists, and the order
/// every generation sorts on first.
///
/// The meetings' order itself is never reproduced here: it depends on server settings a reader cannot see
/// (`default_sort_key` on 2.x, 3.x and 4.x — `search_results_csv.php`, `SwitcherController::getSearchResults` — 2.x's
/// `week_starts_on` and its midnight after 23:59, `c_comdef_meetings::SortKernel`) and on how the database orders
/// ties (`005-GetSearchResults-services-weekday.json`: 828 before 714). A refresh and a search in several parts take
/// it from the server (`ListSkeleton`, review R9).
///
/// The formats of a search with `get_used_formats` follow: 2.16.6 lists them as the meetings first use them (each
/// meeting's `formats` keys in turn; `rootserver/json_GetSearchResults_get_used_formats.json`), 3.x and 4.x by id
/// (`006-GetSearchResults-get_used_formats.json`).
enum ServerOrder: Sendable, Equatable {
    case legacy
    case sql

    init(_ info: BMLTServerInfo) {
        self = info.majorVersion < 3 ? .legacy : .sql
    }

    /// What every generation sorts on first when no setting says otherwise (weekday, start time, and on 3.x/4.x the
    /// duration); `nil` for a meeting without a weekday or start time. Only where the server cannot be asked (an
    /// aggregator refusing a search without a narrowing filter: `ByIDSearch`).
    struct Key: Comparable, Hashable, Sendable {
        var weekday: Int
        var start: Int
        var duration: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.weekday, lhs.start, lhs.duration) < (rhs.weekday, rhs.start, rhs.duration)
        }
    }

    func key(_ meeting: BMLTMeeting) -> Key? {
        guard let weekday = meeting.weekday, let start = meeting.startTime else { return nil }
        let seconds = start.hour * 3600 + start.minute * 60 + start.second
        switch self {
        case .legacy: return Key(weekday: weekday.rawValue, start: seconds, duration: 0)
        case .sql: return Key(weekday: weekday.rawValue, start: seconds, duration: meeting.duration.map(WireTime.wholeSeconds) ?? -1)
        }
    }

    /// The formats a `get_used_formats` search lists beside `meetings`, as this generation orders them, each as
    /// `formats` has it (the first holding an id wins).
    func usedFormats(of meetings: [BMLTMeeting], from formats: [BMLTFormat]) -> [BMLTFormat] {
        var byID: [Int: BMLTFormat] = [:]
        var byKey: [String: BMLTFormat] = [:]
        for format in formats {
            if byID[format.id] == nil { byID[format.id] = format }
            if byKey[format.key] == nil { byKey[format.key] = format }
        }
        var seen = Set<Int>()
        var used: [BMLTFormat] = []
        for meeting in meetings {
            // The meeting's own order of keys (2.x lists by first use), then any id it holds that no key named.
            let held = meeting.formatKeys.compactMap { byKey[$0] } + meeting.formatIDs.compactMap { byID[$0] }
            for format in held where seen.insert(format.id).inserted { used.append(format) }
        }
        if case .sql = self { used.sort { $0.id < $1.id } }
        return used
    }
}
