import BMLTKit
import Foundation

/// What the checks learn from the server and hand on to the next ones (the region's meetings, the server's own count,
/// an unpublished meeting's id, the server's clock, …).
@MainActor
final class CheckFindings {
    var info: BMLTServerInfo?
    /// The root servers of an aggregator.
    var rootServers: [BMLTRootServer] = []
    /// The whole region as BMLTKit downloaded it (on an aggregator: one root server's meetings).
    var region: BMLTSearchResults?
    /// The criteria the region was downloaded with.
    var regionCriteria = BMLTSearchCriteria()
    /// The ids of the published meetings, as the server counts them itself (GetFieldValues of `weekday_tinyint`, or an
    /// aggregator's root server statistics).
    var countedByServer: Set<Int>?
    /// How the server's own count was made, in words.
    var countSource = ""
    /// Unpublished meetings the server names to an anonymous reader (`advanced_published=-1`).
    var unpublishedIDs: [Int] = []
    /// How the server answered a search by ids with a weekday: ignores the other criteria, returns unpublished meetings.
    var byIDIgnoresCriteria: Bool?
    var byIDReturnsUnpublished: Bool?
    /// The `Date` header of the server's latest answer the check read, and when it was read.
    var serverDate: (server: Date, local: Date)?
    /// The date of the newest change record the changes check read.
    var newestChange: Date?
    /// Whether any meeting of the region carries a value in a field hidden from the public (`contact_*`, `email_contact`).
    var publicHiddenValues: Int?
    /// What the check's own meeting showed of a hidden field to the public (with an administrator and a sandbox).
    var hiddenFieldProof: String?
    /// The longest query target the server took, and the shortest it refused (with its status).
    var longestTaken: Int?
    var shortestRefused: (length: Int, status: String)?

    /// Keeps the server's clock from an answer's `Date` header.
    func remember(_ reply: WireProbe.Reply) {
        if let date = WireProbe.date(reply.headers["date"]) { serverDate = (date, Date()) }
    }

    var isAggregator: Bool { info?.aggregatorModeEnabled == true }
    var isLegacy: Bool { (info?.majorVersion ?? 3) < 3 }

    /// The generation in words: `2.x (legacy json.php administration)`, `3.x (REST /api/v1)`, `an aggregator (4.x)`.
    var generation: String {
        guard let info else { return "unknown" }
        if info.aggregatorModeEnabled { return "an aggregator (\(info.majorVersion).x, root server list: /api/v1/rootservers)" }
        switch info.majorVersion {
        case ..<3: return "\(info.majorVersion).x (legacy interface: administration through json.php and a cookie session)"
        default: return "\(info.majorVersion).x (administration through REST /api/v1 and a bearer token)"
        }
    }
}
