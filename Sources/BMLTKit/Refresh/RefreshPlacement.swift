import Foundation

/// Where a refresh's changed meetings go: each stays where it was when it stays in the list and nothing any server order
/// reads changed — weekday, start, duration, town, borough, neighbourhood, state and language, every key of the default
/// orders and of every `default_sort_key` alias on every generation (2.16.6 `c_comdef_meeting_search_manager` and
/// `default_sorts` in `c_comdef_server`; 3.x/4.x `SwitcherController::getSearchResults`); ties keep their order.
/// Whether it stays in the list: on 3.x and 4.x the server's answer by id under the criteria says; on 2.x the meeting
/// says, where `LegacyByID` can decide. A meeting that joined the list or moved in it is placed by `RefreshRank`, or
/// by the list's skeleton. Criteria the meeting cannot decide on 2.x, and fields narrowed with `data_field_key` (what
/// changed cannot be seen), read the skeleton whatever changed.
struct RefreshPlacement: Sendable {
    let criteria: BMLTSearchCriteria
    let legacy: Bool

    /// Whether the skeleton is read whatever changed.
    var always: Bool {
        criteria.dataFieldKeys != nil || (legacy && LegacyByID.undecidable(criteria) != nil)
    }

    /// Whether a change record names a meeting worth reading: one the list held, or one that may have joined it (its
    /// `json_data` after the change may meet the criteria; anything when the meeting cannot decide them). A meeting that
    /// neither held nor may join stays out of the list: reading it would only cost its bytes (2.x sends it whatever
    /// the criteria).
    func worthReading(_ change: BMLTChange, meeting id: Int, held: Set<Int>) -> Bool {
        if held.contains(id) { return true }
        guard let after = change.after else { return change.type != .deleted }
        return LegacyByID.undecidable(criteria) != nil || LegacyByID.mayMatch(after, criteria)
    }

    /// Whether two versions of a meeting sort alike under every server order: the keys `RefreshRank` proposes places
    /// by, so that an order added there is compared here too.
    static func samePlace(_ lhs: BMLTMeeting, _ rhs: BMLTMeeting) -> Bool {
        RefreshRank.Order.allCases.allSatisfy { RefreshRank.key(lhs, $0) == RefreshRank.key(rhs, $0) }
    }

    /// The list with each meeting read that stays where it was in its place, those that left it gone, and those to be
    /// placed (joined, or moved in the order) apart, in the order the server answered them. `asked`: the ids read;
    /// `read`: what the server answered.
    func split(_ previous: [BMLTMeeting], asked: Set<Int>, read: [Int: BMLTMeeting],
               answered: [Int]) -> (list: [BMLTMeeting], placing: [BMLTMeeting]) {
        let kept = Dictionary(previous.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var gone = Set<Int>()
        var moved = Set<Int>()
        for id in asked {
            guard let meeting = read[id] else { gone.insert(id); continue }
            // 2.x answers by id whatever the criteria: a meeting they do not find leaves the list or stays out.
            if legacy, !LegacyByID.matches(meeting, criteria) { gone.insert(id); continue }
            if let before = kept[id], Self.samePlace(before, meeting) { continue }
            moved.insert(id)
        }
        let list = previous.compactMap { meeting -> BMLTMeeting? in
            guard asked.contains(meeting.id) else { return meeting }
            return gone.contains(meeting.id) || moved.contains(meeting.id) ? nil : read[meeting.id]
        }
        var seen = Set<Int>()
        let placing = answered.filter { moved.contains($0) && seen.insert($0).inserted }.compactMap { read[$0] }
        return (list, placing)
    }
}
