import Foundation

/// Meetings that joined a list or moved in it, put in their place for a few ids' worth of bytes: a place proposed, then
/// checked by the server.
///
/// Which order a server keeps cannot be read (its `default_sort_key`, 2.x's week start, ties in database order: review
/// R9), so the proposal takes the first of the known orders the list is in — 3.x/4.x's weekday, start and duration;
/// 2.16.6's language, weekday, start (midnight last) and id as text; the `default_sort_key` aliases, keys as
/// `SwitcherController::getSearchResults` and 2.16.6's `default_sorts` list them — and puts each meeting after those
/// it does not sort before. The server then orders, by id, the meetings placed with the meetings around each: those it
/// ties with under that order and the nearest before and after them (`meeting_ids[]` with `data_field_key=id_bigint`,
/// the list's criteria and no sort: the server's own order, on 2.16.6 too, whose answer by id is sorted like a search).
/// When the server's order of those agrees with the proposal — ties taken in the server's order — every meeting placed
/// is between two meetings the server puts before and after it, and the list, whose other meetings kept the server's
/// order, is the server's; otherwise the list's skeleton decides (`RefreshMerge`).
enum RefreshRank {
    /// The orders a proposal may take.
    enum Order: CaseIterable, Sendable {
        case standard, legacy, time, weekday, weekdayState, town, state
    }

    /// A meeting's sort key under `order`, as text compared in order (numbers zero-padded).
    static func key(_ meeting: BMLTMeeting, _ order: Order) -> [String] {
        let weekday = String(meeting.weekday?.rawValue ?? 0)
        let start = meeting.startTime.map { $0.hour * 3_600 + $0.minute * 60 + $0.second } ?? -1
        let clock = pad(start + 1, 6)
        let town = meeting.municipality ?? "", borough = meeting.citySubsection ?? ""
        let neighborhood = meeting.neighborhood ?? "", state = meeting.province ?? ""
        switch order {
        case .standard:
            return [weekday, clock, pad(meeting.duration.map(WireTime.wholeSeconds) ?? 0, 10)]
        case .legacy:
            // `SortKernel`: start as hour × 100 + minute, midnight after 23:59.
            let hm = meeting.startTime.map { $0.hour * 100 + $0.minute } ?? 0
            return [meeting.language ?? "", weekday, pad(hm == 0 ? 10_000 : hm, 5), String(meeting.id)]
        case .time: return [weekday, clock, town, borough, neighborhood]
        case .weekday: return [weekday, town, borough, clock, neighborhood]
        case .weekdayState: return [weekday, state, town, clock, borough]
        case .town: return [town, borough, neighborhood, weekday, clock]
        case .state: return [state, town, borough, weekday, clock]
        }
    }

    /// `value` (at least 0) in `width` digits, zeros first.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(max(0, value))
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The first order `meetings` are in (2.x's own first on 2.x, 3.x's first elsewhere); `nil` when none.
    static func order(of meetings: [BMLTMeeting], legacy: Bool) -> Order? {
        var candidates = Order.allCases
        if legacy { candidates.swapAt(0, 1) }
        return candidates.first { order in
            var last: [String]?
            for meeting in meetings {
                let current = key(meeting, order)
                if let last, current.lexicographicallyPrecedes(last) { return false }
                last = current
            }
            return true
        }
    }

    /// `list` with `placing` put in: each after the meetings it does not sort before.
    static func propose(_ list: [BMLTMeeting], placing: [BMLTMeeting], order: Order) -> [BMLTMeeting] {
        let sorted = placing.enumerated().sorted { lhs, rhs in
            let (left, right) = (key(lhs.element, order), key(rhs.element, order))
            return left == right ? lhs.offset < rhs.offset : left.lexicographicallyPrecedes(right)
        }.map(\.element)
        let sortedKeys = sorted.map { key($0, order) }
        var merged: [BMLTMeeting] = []
        merged.reserveCapacity(list.count + sorted.count)
        var next = sorted.startIndex
        for meeting in list {
            let listed = next < sorted.endIndex ? key(meeting, order) : []
            while next < sorted.endIndex, sortedKeys[next].lexicographicallyPrecedes(listed) {
                merged.append(sorted[next]); next += 1
            }
            merged.append(meeting)
        }
        merged += sorted[next...]
        return merged
    }

    /// The ids the server is asked to order: the meetings placed, every meeting tied with one, and the nearest meetings
    /// before and after each tie, in the proposal's order.
    static func checked(_ proposal: [BMLTMeeting], placing: Set<Int>, order: Order) -> [Int] {
        let keys = proposal.map { key($0, order) }
        var chosen = Set<Int>()
        for index in proposal.indices where placing.contains(proposal[index].id) {
            var first = index, last = index
            while first > proposal.startIndex, keys[first - 1] == keys[index] { first -= 1 }
            while last + 1 < proposal.endIndex, keys[last + 1] == keys[index] { last += 1 }
            for tied in first...last { chosen.insert(tied) }
            if first > proposal.startIndex { chosen.insert(first - 1) }
            if last + 1 < proposal.endIndex { chosen.insert(last + 1) }
        }
        return chosen.sorted().map { proposal[$0].id }
    }

    /// The proposal with each tie of a meeting placed in the server's order, when the server's order of the meetings
    /// asked (`ranked`) is the proposal's; `nil` otherwise, and for a tie when `tiesAsAnswered` is false: 2.16.6 sorts
    /// a search's meetings (a stable `usort`) as MySQL gave them, by service body and id, and a search by id's as MySQL
    /// gave them without an `ORDER BY`, so under a `default_sort_key` alias — whose keys, unlike its own order's, do not
    /// end with the id — its ties by id need not be in a download's order (`c_comdef_meetings::SortKernel`,
    /// `c_comdef_server::GetMeetings`, `GetMeetingsByID`).
    static func settle(_ proposal: [BMLTMeeting], asked: [Int], ranked: [Int], placing: Set<Int>, order: Order,
                       tiesAsAnswered: Bool = true) -> [BMLTMeeting]? {
        guard ranked.count == asked.count, Set(ranked) == Set(asked) else { return nil }
        let rank = Dictionary(ranked.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var settled = proposal
        let keys = proposal.map { key($0, order) }
        var start = settled.startIndex
        while start < settled.endIndex {
            var end = start + 1
            while end < settled.endIndex, keys[end] == keys[start] { end += 1 }
            if end - start > 1, settled[start..<end].contains(where: { placing.contains($0.id) }) {
                guard tiesAsAnswered, settled[start..<end].allSatisfy({ rank[$0.id] != nil }) else { return nil }
                settled[start..<end].sort { rank[$0.id]! < rank[$1.id]! }
            }
            start = end
        }
        let wanted = Set(asked)
        return settled.filter { wanted.contains($0.id) }.map(\.id) == ranked ? settled : nil
    }
}
