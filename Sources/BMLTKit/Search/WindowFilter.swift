import Foundation

/// A time window the server itself can filter: one weekday and a start-time range (`weekdays[]`, `StartsAfterH/M`,
/// `StartsBeforeH/M`), so that "the 10 nearest in the next hour" is one search of about 10 meetings instead of rounds
/// of 10, 80, 640 and 2,000 on the window's weekdays.
///
/// The server matches every meeting's weekday and start time as stored, in the meeting's own zone. So the filter is
/// used only when it keeps every meeting the window keeps: the window must lie within one calendar day, with no
/// daylight-saving change, in *every* zone its meetings can be read in — the zones the server's meetings name
/// (`GetFieldValues` of `time_zone`: one small request) and, for meetings that name none, the window's
/// `defaultTimeZone` (else any of those zones or the window's `timeZone`, as `Window.zone(for:)` may pick). The
/// start-time range is the union of the window's local times in those zones, a minute wider at its start (the
/// server's `StartsAfter` is strict). Every server version matches both bounds strictly (2.16.6
/// `c_comdef_server::GetSearchResultsObj`, 3.x and 4.x `MeetingRepository::getSearchResults`); 2.16.6 turns the
/// time into a timestamp of the server's today and back (`mktime`/`date`), which moves a time inside a
/// daylight-saving gap, so before 3.0 (or when the version is unknown) no `StartsAfter` within 00:00–03:59 is sent.
/// What the server answers is still kept to the window here, as without the filter: the result is the same.
struct WindowFilter: Equatable {
    var weekday: BMLTWeekday
    /// Meetings starting strictly after (nil: from midnight).
    var startsAfter: BMLTTimeOfDay?
    /// Meetings starting strictly before (nil: until midnight).
    var startsBefore: BMLTTimeOfDay?

    /// The filter for `window` when the meetings are read in `zones`, or `nil` when the window is not within one day
    /// of one weekday in all of them (or a daylight-saving change falls on that day).
    static func make(_ window: BMLTSearchCriteria.Window, zones: [TimeZone], strictServer: Bool) -> WindowFilter? {
        guard !zones.isEmpty, window.interval.duration > 0 else { return nil }
        var weekday: Int?
        var low = Int.max, high = Int.min
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let day = calendar.startOfDay(for: window.interval.start)
            guard let next = calendar.date(byAdding: .day, value: 1, to: day), window.interval.end <= next else { return nil }
            if let change = zone.nextDaylightSavingTimeTransition(after: day), change < next { return nil }
            let parts = calendar.dateComponents([.weekday], from: window.interval.start)
            guard let local = parts.weekday, weekday == nil || weekday == local else { return nil }
            weekday = local
            // Whole minutes since local midnight: the start rounded down, the end rounded up.
            let from = Int(window.interval.start.timeIntervalSince(day) / 60)
            let to = Int((window.interval.end.timeIntervalSince(day) / 60).rounded(.up))
            low = min(low, from)
            high = max(high, to)
        }
        guard let weekday, let day = BMLTWeekday(rawValue: weekday) else { return nil }
        var filter = WindowFilter(weekday: day)
        let after = low - 1
        if after >= 0, !(strictServer && after < 4 * 60) { filter.startsAfter = BMLTTimeOfDay(hour: after / 60, minute: after % 60) }
        if high < 24 * 60 { filter.startsBefore = BMLTTimeOfDay(hour: high / 60, minute: high % 60) }
        return filter
    }

    /// `criteria` narrowed by this filter (their own start bounds and weekdays kept: both must hold), or `nil` when
    /// their weekdays leave this one out (the rounds then search as they are).
    func narrowing(_ criteria: BMLTSearchCriteria) -> BMLTSearchCriteria? {
        guard criteria.weekdays.isEmpty || criteria.weekdays.contains(weekday),
              !criteria.excludedWeekdays.contains(weekday) else { return nil }
        var narrowed = criteria
        narrowed.weekdays = [weekday]
        narrowed.excludedWeekdays = []
        if let startsAfter { narrowed.startsAfter = max(startsAfter, criteria.startsAfter ?? startsAfter) }
        if let startsBefore { narrowed.startsBefore = min(startsBefore, criteria.startsBefore ?? startsBefore) }
        return narrowed
    }

    /// Whether a search with `criteria` may use a filter at all: a `.nearest(n)` search (the rounds it saves) of
    /// published meetings only (what `GetFieldValues` counts), on a root server (an aggregator's zones span its
    /// servers), with no raw parameters of the app's that could name the same fields.
    static func applies(to criteria: BMLTSearchCriteria, serverInfo: BMLTServerInfo?) -> Bool {
        guard NearestTrim.mayDrop(criteria), criteria.rawParameters.isEmpty,
              criteria.publishedStatus == nil || criteria.publishedStatus == .published,
              serverInfo?.aggregatorModeEnabled != true else { return false }
        return true
    }

    /// The zones the meetings of a `GetFieldValues` of `time_zone` are read in, for `window`: every zone named, and
    /// for meetings naming none (or a name that is no zone) the window's `defaultTimeZone`, else its `timeZone`.
    /// `nil` when some meetings name a zone, others none, and the window has no `defaultTimeZone`: those are then
    /// read in the zone most of an answer's meetings name (`Window.zone(for:)`), which depends on the answer, so a
    /// filtered search could keep other meetings than the rounds would.
    static func zones(_ values: [BMLTFieldValue], window: BMLTSearchCriteria.Window) -> [TimeZone]? {
        var named: [TimeZone] = []
        var unnamed = false
        for value in values where !value.meetingIDs.isEmpty {
            // Read as the meeting decoder may read it: a name it would not take counts as none as well.
            let raw = value.value ?? ""
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if let zone = text.isEmpty ? nil : TimeZone(identifier: text), !named.contains(zone) { named.append(zone) }
            if text.isEmpty || text != raw || TimeZone(identifier: text) == nil { unnamed = true }
        }
        guard unnamed else { return named }
        if let fixed = window.defaultTimeZone { return named.contains(fixed) ? named : named + [fixed] }
        return named.isEmpty ? [window.timeZone] : nil
    }
}
