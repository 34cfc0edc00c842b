import Foundation

/// Why a refresh downloads the whole list instead of what changed: every case is a list the change log cannot be
/// trusted to bring up to date. Said in the log (`description`), never shown as fresh when it is not.
enum RefreshFallback: Error, Sendable, Equatable, CustomStringConvertible {
    /// The previous results carry no server time (made by hand, from the cache, an old encoding, or a reply without a
    /// `Date` header).
    case noServerDate
    /// The previous results carry no origin (decoded from an encoding made before it existed).
    case noOrigin
    /// An aggregator keeps no change log (its importer empties it).
    case aggregator
    /// The server keeps no change history (`changeDepthForMeetings` 0).
    case noChangeHistory
    /// The search's order or extent is one only the server can make (nearest, pages, windows, sorts, address search,
    /// formats only, child service bodies).
    case serverRanked(String)
    /// The previous list is older than `RefreshLimits.maximumAge` (server time).
    case tooOld(days: Int)
    /// `GetChanges` failed.
    case changeLogFailed(String)
    /// `GetChanges` answered something that is not a list of change records.
    case changeLogUntrusted(String)
    /// A change record without `json_data`, or without a meeting id.
    case changeRecordIncomplete(changeID: Int)
    /// The change log's reply had no readable `Date` header.
    case noDateHeader
    /// More meetings changed than `RefreshLimits` allows.
    case tooManyChanges(meetings: Int, records: Int)
    /// Reading the change log would cost more than downloading the list (`RefreshCost`).
    case costsMore(String)
    /// The change log was longer than `limit` bytes, past which the download costs less: its read was stopped.
    case changeLogTooLarge(limit: Int)
    /// The server found a request for the changed meetings too long (414).
    case requestTooLong(meetings: Int)
    /// A read of the refresh's second round (the list's ids, the changed meetings) failed.
    case readFailed(String)

    var description: String {
        switch self {
        case .noServerDate: "the previous results carry no server time (from the cache, an old encoding, or a reply without a Date header)"
        case .noOrigin: "the previous results do not say which server and search they answer (an old encoding)"
        case .aggregator: "an aggregator keeps no change log"
        case .noChangeHistory: "the server keeps no change history"
        case .serverRanked(let what): "only the server can make this list: \(what)"
        case .tooOld(let days): "the previous results are \(days) days old"
        case .changeLogFailed(let error): "the change log could not be read: \(error)"
        case .changeLogUntrusted(let what): "the change log cannot be trusted: \(what)"
        case .changeRecordIncomplete(let id): "change record \(id) has no json_data or no meeting id"
        case .noDateHeader: "the change log's reply had no readable Date header"
        case .tooManyChanges(let meetings, let records): "\(records) change records touch \(meetings) meetings: too many for a refresh"
        case .costsMore(let why): "a refresh would cost more than the download: \(why)"
        case .changeLogTooLarge(let limit): "the change log is longer than \(limit) bytes, more than the download costs"
        case .requestTooLong(let meetings): "the server found the request for \(meetings) changed meetings too long (414)"
        case .readFailed(let what): "a read failed: \(what)"
        }
    }
}

/// The limits past which a refresh downloads the whole list.
enum RefreshLimits {
    /// The oldest previous list brought up to date (server time): 30 days.
    static let maximumAge: TimeInterval = 30 * 86_400
    /// The most change records read (a log longer than this is a whole download anyway).
    static let maximumRecords = 5_000
    /// The most meetings asked for by id: a fifth of the list, and never fewer than 50 nor more than 400.
    static func maximumMeetings(listCount: Int) -> Int { min(400, max(50, listCount / 5)) }
    /// The margin around the previous server time beside the last change id read: records from a little before it
    /// are read again (a change being saved while the previous list was read; the database's and PHP's clocks apart).
    static let clockMargin: TimeInterval = 300
    /// The margin when no change id is known (a list from a download): a database clock in any zone, UTC−12 the
    /// furthest behind, summer time an hour more (review R10).
    static let databaseClockMargin: TimeInterval = 14 * 3_600
}
