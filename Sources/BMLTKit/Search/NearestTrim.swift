import Foundation

/// `.nearest(n)` made exact. A negative `geo_width` asks the server for "about n": it widens its circle until the
/// circle holds n meetings and answers every meeting inside it, usually a few more (sample data: 11 for
/// `geo_width=-10` on 2.16.6, 7 for `-5` on 3.1.2, 4.1.0 and 4.2.7). BMLTKit keeps the n nearest, in the order
/// the server gave (nearest first when the criteria sort by distance); at equal distances the server's order decides.
enum NearestTrim {
    /// Whether `apply` may leave meetings of the server's answer out (a `.nearest(n)` search): such a search's
    /// meetings are not streamed while they arrive, since a meeting handed over early might not be kept.
    static func mayDrop(_ criteria: BMLTSearchCriteria) -> Bool {
        guard let location = criteria.location, case .nearest(let count) = location.radius else { return false }
        return count > 0
    }

    static func apply(_ results: BMLTSearchResults, _ criteria: BMLTSearchCriteria) -> BMLTSearchResults {
        guard let location = criteria.location, case .nearest(let count) = location.radius, count > 0,
              results.meetings.count > count else { return results }
        let point = location.coordinate
        func distance(_ meeting: BMLTMeeting) -> Double? {
            meeting.distanceInKilometers ?? meeting.distance(from: point)?.converted(to: .kilometers).value
        }
        let ranked = results.meetings.indices.sorted { lhs, rhs in
            switch (distance(results.meetings[lhs]), distance(results.meetings[rhs])) {
            case let (left?, right?): return left != right ? left < right : lhs < rhs
            case (.some, .none): return true
            case (.none, .some): return false
            case (.none, .none): return lhs < rhs
            }
        }
        let kept = Set(ranked.prefix(count))
        return restrict(results, to: results.meetings.indices.filter(kept.contains).map { results.meetings[$0] })
    }

    /// `results` with only `meetings` (some of its own) and the formats they use.
    static func restrict(_ results: BMLTSearchResults, to meetings: [BMLTMeeting]) -> BMLTSearchResults {
        let usedIDs = Set(meetings.flatMap(\.formatIDs))
        let usedKeys = Set(meetings.flatMap(\.formatKeys))
        let formats = usedIDs.isEmpty && usedKeys.isEmpty ? results.formats : results.formats.filter { usedIDs.contains($0.id) || usedKeys.contains($0.key) }
        return BMLTSearchResults(meetings: meetings, formats: formats)
    }
}
