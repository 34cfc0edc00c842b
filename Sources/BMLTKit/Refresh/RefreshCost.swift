import Foundation

/// Whether a refresh can cost less than a whole download, decided from what the library knows: the bytes of the
/// list's download (`BMLTSearchResults.bodyBytes`), the size of the change log the last refresh read (on this
/// connection, or the list's own), the formats and service bodies read beside it, and the list's length (its ids
/// cost about 21 bytes a meeting, `ListSkeleton`). The change log is the whole server's since a day or two before
/// the list's time: 98–112 KB on a test day against a 25 KB list of 14 meetings (3.1.2, 4.1.0, 4.2.7; issue 56), so
/// a small list is cheaper downloaded again.
///
/// - Known log too large: the whole list is downloaded without reading it.
/// - Not known (a connection's first refresh, a list from an older encoding): the log is read with a byte budget —
///   two thirds of what the download leaves after what else the refresh reads, since the meetings the log names are
///   read again too (at most half the log: each record holds its meeting before and after) — past which the read stops
///   and the list is downloaded whole, and the size is remembered (a log stopped at the budget as twice the budget),
///   with the list too. The log is read alone first (`readsChangeLogFirst`), so that refresh costs the download and
///   what of the log arrived before the read stopped: its head when the server declares the length, else up to the
///   budget and what was on its way.
/// - Nothing known of the download (results made by hand or decoded from an older encoding): no limit.
struct RefreshCost: Sendable {
    /// What a whole download costs (`nil`: not known).
    var whole: Int?
    /// The change log's size as last read (`nil`: not known).
    var changeLog: Int?
    /// What else the refresh reads beside the change log: the formats, the service bodies, the list's ids.
    var beside: Int

    /// About what a meeting's id costs in the list's skeleton (`{"id_bigint":"2339"},`).
    static let idBytes = 24
    /// About what a format costs in `GetFormats` before it was read once (44 formats in 11,155 and 11,199 bytes:
    /// `rootserver/json_GetFormats.json`, `rootserver-42/002-GetFormats.json`).
    static let formatBytes = 255

    /// `serverFormats`: how many formats the server has (`GetFormats` is read beside the log when the list uses any).
    init(previous: BMLTSearchResults, memory: RefreshMemory.Known, serverFormats: Int = 0) {
        whole = Self.plausible(previous.bodyBytes)
        changeLog = Self.plausible(memory.changeLogBytes ?? previous.changeLogBytes)
        let readsFormats = !FormatCheck.usedFormats(previous).isEmpty
        let formats = readsFormats ? memory.formatsBytes ?? serverFormats * Self.formatBytes : 0
        let bodies = previous.meetings.contains { $0.serviceBodyName != nil } ? memory.serviceBodiesBytes ?? 0 : 0
        beside = formats + bodies + previous.meetings.count * Self.idBytes
    }

    /// The most bytes the change log may take for the refresh to cost less than a download (`nil`: no limit): with the
    /// meetings it names read again, at most half its bytes (each record carries its meeting before and after), it
    /// must leave what else the refresh reads.
    var changeLogBudget: Int? {
        whole.map { ($0 - beside) * 2 / 3 }
    }

    /// Whether the change log is read alone before the formats and service bodies: its size is not known and a budget
    /// applies, so the read may stop, and what else the refresh would read is not paid for until the log fits.
    var readsChangeLogFirst: Bool {
        changeLog == nil && changeLogBudget != nil
    }

    /// Why downloading the list costs less than reading the change log, when what is known says so.
    var wholeIsCheaper: String? {
        guard let whole, let budget = changeLogBudget else { return nil }
        if budget <= 0 {
            return "the formats, service bodies and ids a refresh reads (\(beside) bytes) cost as much as the list (\(whole) bytes)"
        }
        if let changeLog, changeLog >= budget {
            return "the change log (\(changeLog) bytes when last read), the meetings it names and the rest a refresh reads "
                + "(\(beside) bytes) cost more than the list (\(whole) bytes)"
        }
        return nil
    }

    /// The most bytes a reply's size is believed at (1 TiB): `bodyBytes` and `changeLogBytes` are decoded from any
    /// persisted list (a host's own, the response cache's), and an absurd one must not trap the budget's arithmetic.
    static let largestPlausible = 1 << 40

    /// `bytes` when it is a size a reply can have (positive, at most `largestPlausible`); `nil` (not known) otherwise.
    static func plausible(_ bytes: Int?) -> Int? {
        guard let bytes, bytes > 0, bytes <= largestPlausible else { return nil }
        return bytes
    }

    /// What a whole download of `meetings` costs, for a list refreshed from one of `count` meetings that cost `whole`.
    static func scaled(_ whole: Int?, from count: Int, to meetings: Int) -> Int? {
        guard let whole else { return nil }
        guard count > 0 else { return whole }
        let (product, overflow) = whole.multipliedReportingOverflow(by: max(1, meetings))
        return overflow ? whole : max(1, product / count)
    }
}

/// What a connection's refreshes learnt of its server: the sizes of the change log, the formats and the service
/// bodies as last read (the formats and service bodies first from the validation's own reads). Shared by every refresh
/// of the connection (`Transport.refreshMemory`).
///
/// The change log's size is forgotten `changeLogLifetime` after it was read: it is the size of a window (two days
/// before a list's time until then) on a server whose editors come and go, and a size remembered for good — a busy
/// Sunday's, or a read stopped at its budget and counted twice — made every later refresh of a small list a whole
/// download for the rest of the session (review of the 1.1.0 merge, finding 4). Once forgotten, the next refresh reads
/// the log again with its budget: at most the log's head more than a download, once in that time.
final class RefreshMemory: Sendable {
    struct Known: Sendable {
        var changeLogBytes: Int?
        var formatsBytes: Int?
        var serviceBodiesBytes: Int?
    }

    /// How long a change log's size is believed (6 hours).
    static let changeLogLifetime: TimeInterval = 6 * 3_600

    private struct State {
        var known = Known()
        var changeLogRead: Date?
    }

    private let state = Locked(State())
    private let now: @Sendable () -> Date

    /// `now`: the clock the change log's age is read by (tests move it).
    init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    var known: Known {
        let time = now()
        return state.withLock { state in
            var known = state.known
            // A clock moved back counts as old too: the size is read again rather than believed for longer.
            if let read = state.changeLogRead, abs(time.timeIntervalSince(read)) > Self.changeLogLifetime {
                known.changeLogBytes = nil
            }
            return known
        }
    }

    func noteChangeLog(bytes: Int) {
        let time = now()
        state.withLock { $0.known.changeLogBytes = bytes; $0.changeLogRead = time }
    }
    func noteFormats(bytes: Int) { state.withLock { $0.known.formatsBytes = bytes } }
    func noteServiceBodies(bytes: Int) { state.withLock { $0.known.serviceBodiesBytes = bytes } }

    /// The validation's reads of the formats and service bodies: their sizes until a refresh reads them itself (a
    /// first refresh's budget counts them instead of guessing the formats and leaving the service bodies out).
    func noteValidated(formats: Int?, serviceBodies: Int?) {
        state.withLock { state in
            if state.known.formatsBytes == nil, let formats { state.known.formatsBytes = formats }
            if state.known.serviceBodiesBytes == nil, let serviceBodies { state.known.serviceBodiesBytes = serviceBodies }
        }
    }
}

/// The time between a list and the change log's answer, read without trapping: `Int(_:)` of an absurd `serverDate`
/// (a host's `Date(timeIntervalSinceReferenceDate: 1e300)`, or a corrupt encoding) would (review R15).
enum RefreshAge {
    /// Whether a list's server time can be read from at all: a finite date within about 300 years of 1970 (the change
    /// log's start is a calendar day two days before it).
    static func isUsable(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite && abs(seconds) < 1e10
    }

    /// Whole days in `seconds` (0 for none or a negative; bounded).
    static func days(_ seconds: TimeInterval) -> Int { WireTime.wholeSeconds(seconds / 86_400) }

    /// Whole seconds in `seconds` (0 for none or a negative; bounded).
    static func seconds(_ seconds: TimeInterval) -> Int { WireTime.wholeSeconds(seconds) }
}
