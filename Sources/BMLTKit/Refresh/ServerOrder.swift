import Foundation

/// The order in which a server lists a search without sort options, as each generation makes it, so that a refresh
/// can put the meetings it brings where a new download would have them.
///
/// - 2.16.6 sorts by weekday, then start time, then the meeting id compared as text ("10" < "1163" < "35"): every tie of
///   the 1,512 meetings of `rootserver/json_GetSearchResults_all.json` is in that order. Reproduced whole.
/// - 3.1.2 and 4.x order by weekday, start time and duration in SQL (`MeetingRepository`), and ties come in the
///   database's own order, which is not the id's (`005-GetSearchResults-services-weekday.json`: 828 before 714). Where a
///   meeting a refresh brings ties with others, the server is asked for the order of that group alone.
///
/// The formats of a search with `get_used_formats` follow: 2.16.6 lists them as the meetings first use them (each
/// meeting's `formats` keys in turn; `rootserver/json_GetSearchResults_get_used_formats.json`), 3.x and 4.x by id
/// (`006-GetSearchResults-get_used_formats.json`).
enum ServerOrder: Sendable {
    case legacy
    case sql

    init(_ info: BMLTServerInfo) {
        self = info.majorVersion < 3 ? .legacy : .sql
    }

    /// What the server sorts on before ties; `nil` for a meeting without a weekday or start time (its place cannot
    /// be told).
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

    /// Whether `lhs` comes before `rhs` where both have keys; ties are the id as text (2.x) or `rank` (3.x/4.x, the
    /// server's order of the group; a tie it did not rank is not ordered and reported by `merge`).
    func before(_ lhs: BMLTMeeting, _ rhs: BMLTMeeting, keys: (Key, Key), rank: [Int: Int]) -> Bool? {
        if keys.0 != keys.1 { return keys.0 < keys.1 }
        switch self {
        case .legacy: return String(lhs.id) < String(rhs.id)
        case .sql:
            guard let left = rank[lhs.id], let right = rank[rhs.id] else { return nil }
            return left < right
        }
    }

    /// Whether `meetings` is in this order (ties between meetings unranked count as in order for 3.x/4.x).
    func isOrdered(_ meetings: [BMLTMeeting]) -> Bool {
        var previous: (BMLTMeeting, Key)?
        for meeting in meetings {
            guard let key = key(meeting) else { return false }
            if let (last, lastKey) = previous, let ordered = before(meeting, last, keys: (key, lastKey), rank: [:]), ordered {
                return false
            }
            previous = (meeting, key)
        }
        return true
    }

    /// `kept` (in their previous order) and `brought` (in the server's order) as one list in this order; `nil` when a
    /// tie between the two was not ranked.
    func merge(kept: [BMLTMeeting], brought: [BMLTMeeting], rank: [Int: Int]) -> [BMLTMeeting]? {
        var merged: [BMLTMeeting] = []
        merged.reserveCapacity(kept.count + brought.count)
        var left = kept.startIndex, right = brought.startIndex
        while left < kept.endIndex, right < brought.endIndex {
            guard let keptKey = key(kept[left]), let broughtKey = key(brought[right]),
                  let broughtFirst = before(brought[right], kept[left], keys: (broughtKey, keptKey), rank: rank) else { return nil }
            if broughtFirst {
                merged.append(brought[right]); right += 1
            } else {
                merged.append(kept[left]); left += 1
            }
        }
        merged += kept[left...]
        merged += brought[right...]
        return merged
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
