import Foundation

/// A search by id on root server 2.x, made to mean what it means on 3.x and 4.x.
///
/// 2.16.6 answers `meeting_ids[]` with every meeting named, whatever else was asked, unpublished ones included, to
/// anyone: `client_interface/csv/common_search.inc.php` (tag 2.16.6 of `bmlt-enabled/bmlt-root-server`) sets the id
/// array "that defines the entire search. We ignore everything else", and `c_comdef_meeting_search_manager`'s
/// `GetSearchResults_Obj` reads those meetings by id alone (`../shared/fixtures/server-truths/
/// 216-GetSearchResults-meeting_ids-weekdays.json`: `weekdays[]=1` answered with weekday 2 and 4 meetings, two of them
/// `"published":"0"`). 3.1.2 and 4.x apply the ids beside every other filter and list published meetings only unless
/// `advanced_published` asks (`312-`, `427-GetSearchResults-meeting_ids-weekdays.json`: 2339 alone).
///
/// What can be decided exactly from a meeting is completed here, as 3.x's `MeetingRepository` decides it: weekdays,
/// venue types, service bodies (not their children), formats (all or any, exclusions) and the published status. The
/// rest — text, times, durations, a location, `meeting_key`, child service bodies, `sort_keys`, distance sorts, pages,
/// raw parameters — the meeting alone cannot answer as the server would (a metaphone match, MySQL's sum of two times,
/// a radius measured in the server's own arithmetic): `undecidable` names it, and the search asks the server without
/// the ids and keeps the meetings asked for (`ByIDSearch`), where a refresh downloads the whole list.
enum LegacyByID {
    /// The first criterion beside `meetingIDs` that 2.x ignores and a meeting cannot decide; `nil` when every one can.
    static func undecidable(_ criteria: BMLTSearchCriteria) -> String? {
        if let text = criteria.text, !text.isEmpty { return "a text search" }
        if criteria.startsAfter != nil || criteria.startsBefore != nil || criteria.endsBefore != nil { return "a start or end time" }
        if criteria.minimumDuration != nil || criteria.maximumDuration != nil { return "a duration" }
        if criteria.location != nil { return "a location" }
        if criteria.fieldMatch != nil { return "a field match (meeting_key)" }
        if criteria.includeChildServiceBodies, !(criteria.serviceBodyIDs.isEmpty && criteria.excludedServiceBodyIDs.isEmpty) {
            return "child service bodies"
        }
        // 2.16.6 reads `sort_key` (and `sort_dir` with it) for a search by id too (`search_results_csv.php`), but sets
        // `sort_keys` and the distance sort only beside the other filters.
        if criteria.sortByDistance || !criteria.sortKeys.isEmpty || (criteria.sortDescending && criteria.sortAlias == nil) {
            return "a sort"
        }
        if criteria.page != nil { return "a page" }
        if !criteria.rawParameters.isEmpty { return "raw parameters" }
        return nil
    }

    /// Whether anything beside the ids must be completed here: a filter the meeting decides, or the published status
    /// (2.x returns unpublished meetings by id to anyone).
    static func needsCompletion(_ criteria: BMLTSearchCriteria) -> Bool {
        criteria.publishedStatus != .both || !criteria.weekdays.isEmpty || !criteria.excludedWeekdays.isEmpty
            || !criteria.venueTypes.isEmpty || !criteria.excludedVenueTypes.isEmpty || !criteria.serviceBodyIDs.isEmpty
            || !criteria.excludedServiceBodyIDs.isEmpty || !criteria.formats.included.isEmpty || !criteria.formats.excluded.isEmpty
    }

    /// The fields the completion reads, as `data_field_key` names them. `service_body_bigint` is added to every search
    /// but a `bare` one (`ListSkeleton`'s `id_bigint` alone), which must ask it when service bodies are decided.
    static func neededKeys(_ criteria: BMLTSearchCriteria, bare: Bool = false) -> [String] {
        var keys: [String] = []
        if bare, !criteria.serviceBodyIDs.isEmpty || !criteria.excludedServiceBodyIDs.isEmpty { keys.append("service_body_bigint") }
        if !criteria.weekdays.isEmpty || !criteria.excludedWeekdays.isEmpty { keys.append("weekday_tinyint") }
        if !criteria.venueTypes.isEmpty || !criteria.excludedVenueTypes.isEmpty { keys.append("venue_type") }
        if !criteria.formats.included.isEmpty || !criteria.formats.excluded.isEmpty { keys.append("format_shared_id_list") }
        if criteria.publishedStatus != .both { keys.append("published") }
        return keys
    }

    /// `criteria` asking for the fields the completion reads when `data_field_key` narrows the fields, and the keys
    /// added (to be taken out of the meetings again). A narrowed search that names `formats` decides formats on the ids
    /// resolved from those keys.
    static func asking(_ criteria: BMLTSearchCriteria, bare: Bool = false) -> (criteria: BMLTSearchCriteria, added: Set<String>) {
        guard let keys = criteria.dataFieldKeys else { return (criteria, []) }
        var added = Set<String>()
        var asked = criteria
        for key in neededKeys(criteria, bare: bare) where !keys.contains(key) {
            if key == "format_shared_id_list", keys.contains("formats") { continue }
            added.insert(key)
            asked.dataFieldKeys?.append(key)
        }
        return (asked, added)
    }

    /// Whether `meeting` meets every criterion the completion decides (3.x's meaning: included ids any of, excluded
    /// ids none of; formats all or any of the included, none of the excluded; published only unless asked otherwise).
    /// A meeting whose published status is not known is not shown unless both are asked for.
    static func matches(_ meeting: BMLTMeeting, _ criteria: BMLTSearchCriteria) -> Bool {
        switch criteria.publishedStatus {
        case nil, .published?: if meeting.isPublished != true { return false }
        case .unpublished?: if meeting.isPublished != false { return false }
        case .both?: break
        }
        if !criteria.weekdays.isEmpty || !criteria.excludedWeekdays.isEmpty {
            guard let weekday = meeting.weekday else { return false }
            if !criteria.weekdays.isEmpty, !criteria.weekdays.contains(weekday) { return false }
            if criteria.excludedWeekdays.contains(weekday) { return false }
        }
        if !criteria.venueTypes.isEmpty || !criteria.excludedVenueTypes.isEmpty {
            guard let venue = meeting.venueType else { return false }
            if !criteria.venueTypes.isEmpty, !criteria.venueTypes.contains(venue) { return false }
            if criteria.excludedVenueTypes.contains(venue) { return false }
        }
        if !criteria.serviceBodyIDs.isEmpty, !criteria.serviceBodyIDs.contains(meeting.serviceBodyID) { return false }
        if criteria.excludedServiceBodyIDs.contains(meeting.serviceBodyID) { return false }
        let held = Set(meeting.formatIDs)
        let included = criteria.formats.included
        if !included.isEmpty {
            let found = criteria.formats.requiresAll ? included.allSatisfy(held.contains) : included.contains(where: held.contains)
            if !found { return false }
        }
        if criteria.formats.excluded.contains(where: held.contains) { return false }
        return true
    }

    /// Whether `meeting` may meet the criteria the completion decides, as far as the fields it has tell: a field it
    /// lacks excludes nothing (a change record's `json_data` leaves empty fields out, 2.x a `published` of 0 too).
    static func mayMatch(_ meeting: BMLTMeeting, _ criteria: BMLTSearchCriteria) -> Bool {
        var known = criteria
        if meeting.isPublished == nil { known.publishedStatus = .both }
        if meeting.weekday == nil { known.weekdays = []; known.excludedWeekdays = [] }
        if meeting.venueType == nil { known.venueTypes = []; known.excludedVenueTypes = [] }
        if meeting.serviceBodyID == 0 { known.serviceBodyIDs = []; known.excludedServiceBodyIDs = [] }
        if meeting.formatIDs.isEmpty, meeting.formatKeys.isEmpty { known.formats = .none }
        return matches(meeting, known)
    }

    /// 2.x's answer to a search by id, as 3.x would give it: the meetings that meet the criteria, without the fields
    /// only the completion asked for, and the formats those meetings use in the generation's order.
    /// `lenient`: a field the reply lacks excludes nothing (`mayMatch`) — the generation is not known, and 2.x's answer
    /// has every field (it decides); one that lacks a field is not 2.x's, and has the meetings its server found.
    static func complete(_ results: BMLTSearchResults, _ criteria: BMLTSearchCriteria, added: Set<String>,
                         order: ServerOrder, lenient: Bool = false) -> BMLTSearchResults {
        var meetings = results.meetings.filter { lenient ? mayMatch($0, criteria) : matches($0, criteria) }
        var completed = results
        if !results.formats.isEmpty, meetings.count != results.meetings.count {
            completed.formats = order.usedFormats(of: meetings, from: results.formats)
        }
        if !added.isEmpty {
            for index in meetings.indices { strip(&meetings[index], added) }
        }
        completed.meetings = meetings
        return completed
    }

    /// The meeting without the fields named (as a reply without them in `data_field_key` has it).
    static func strip(_ meeting: inout BMLTMeeting, _ keys: Set<String>) {
        for key in keys {
            switch key {
            case "weekday_tinyint": meeting.weekday = nil
            case "venue_type": meeting.venueType = nil
            case "published": meeting.isPublished = nil
            case "service_body_bigint": meeting.serviceBodyID = 0
            case "format_shared_id_list":
                meeting.formatIDs = []
                meeting.formatKeys = []
                meeting.formats = []
            default: meeting.extraFields[key] = nil
            }
        }
    }

    /// The meetings of `results` whose id is one of `ids`, in the server's order (the answer to the criteria without
    /// the ids), with the formats they use; then the page, when asked, cut from them as 3.x pages a search by id.
    static func keeping(_ ids: [Int], of results: BMLTSearchResults, page: BMLTSearchCriteria.Page?,
                        order: ServerOrder) -> BMLTSearchResults {
        let wanted = Set(ids)
        var meetings = results.meetings.filter { wanted.contains($0.id) }
        if let page { meetings = slice(meetings, page) }
        var kept = results
        kept.meetings = meetings
        if !results.formats.isEmpty { kept.formats = order.usedFormats(of: meetings, from: results.formats) }
        return kept
    }

    /// One page of `meetings` (`page_size` from `(page_num - 1) × page_size`; past the end, none).
    static func slice<T>(_ meetings: [T], _ page: BMLTSearchCriteria.Page) -> [T] {
        let size = max(1, page.size)
        let number = max(1, page.number)
        let (start, overflow) = (number - 1).multipliedReportingOverflow(by: size)
        guard !overflow, start < meetings.count else { return [] }
        return Array(meetings[start..<min(meetings.count, start + min(size, meetings.count - start))])
    }
}
