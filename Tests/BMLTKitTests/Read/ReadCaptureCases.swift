import Foundation
@testable import BMLTKit

/// What a read call returned, whatever the call.
enum ReadOutcome {
    case search(BMLTSearchResults)
    case formats([BMLTFormat])
    case serviceBodies([BMLTServiceBody])
    case changes([BMLTChange])
    case fieldKeys([BMLTFieldKey])
    case fieldValues(key: String, [BMLTFieldValue])
    case coverage(BMLTCoverageArea)
    case naws(BMLTNAWSExport)
}

/// One read capture and the public call that asks the same question.
struct ReadCaptureCase: Sendable, CustomStringConvertible {
    let folder: String
    let file: String
    let call: @MainActor @Sendable (BMLTConnection) async throws -> ReadOutcome

    var description: String { "\(folder)/\(file)" }

    static func search(_ folder: String, _ file: String, extent: BMLTSearchExtent = .meetingsOnly,
                       _ build: @escaping @Sendable (inout BMLTSearchCriteria) -> Void = { _ in }) -> ReadCaptureCase {
        ReadCaptureCase(folder: folder, file: file) { connection in
            var criteria = BMLTSearchCriteria()
            build(&criteria)
            return .search(try await connection.meetings(matching: criteria, extent: extent))
        }
    }

    static func day(_ text: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
    }

    /// Every read-interface capture of the four servers, each with its equivalent call. The 4.1.0 and 4.2.7 corpora
    /// are numbered like the 3.1.2 one (the same number is the same request), so their cases are the 3.1.2 cases
    /// pointed at their folders, plus their own 024.
    static let all: [ReadCaptureCase] = legacyAndModern + FixtureCorpus.servers4x.flatMap { folder in
        legacyAndModern.filter { $0.folder == FixtureCorpus.modern }.map {
            ReadCaptureCase(folder: folder, file: $0.file, call: $0.call)
        } + [
            search(folder, "024-GetSearchResults-services-weekday-formats-filter.json") {
                $0.serviceBodyIDs = [1006]; $0.weekdays = [.sunday, .saturday]; $0.formats = .all(of: [17])
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "weekday_tinyint", "start_time", "formats", "format_shared_id_list"]
            },
        ]
    }

    /// The 2.16.6 and 3.1.2 cases.
    static let legacyAndModern: [ReadCaptureCase] = {
        let legacy = FixtureCorpus.legacy, modern = FixtureCorpus.modern
        let nassau = 1002
        return [
            // 2.16.6 searches
            search(legacy, "json_GetSearchResults_all.json"),
            search(legacy, "json_GetSearchResults_SearchString.json") { $0.text = "Recovery"; $0.serviceBodyIDs = [nassau] },
            search(legacy, "json_GetSearchResults_data_field_key.json") {
                $0.serviceBodyIDs = [nassau]; $0.dataFieldKeys = ["meeting_name", "weekday_tinyint", "start_time", "location_municipality"]
            },
            search(legacy, "json_GetSearchResults_duration.json") {
                $0.serviceBodyIDs = [nassau]; $0.minimumDuration = 90 * 60; $0.maximumDuration = 120 * 60
                $0.dataFieldKeys = ["id_bigint", "start_time", "duration_time", "meeting_name"]
            },
            search(legacy, "json_GetSearchResults_empty.json") { $0.serviceBodyIDs = [999999] },
            search(legacy, "json_GetSearchResults_ends_before.json") {
                $0.serviceBodyIDs = [nassau]; $0.endsBefore = BMLTTimeOfDay(hour: 12)
                $0.dataFieldKeys = ["id_bigint", "weekday_tinyint", "start_time", "duration_time", "meeting_name"]
            },
            search(legacy, "json_GetSearchResults_formats_and.json") {
                $0.serviceBodyIDs = [nassau]; $0.formats = .all(of: [17, 3])
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats", "format_shared_id_list"]
            },
            search(legacy, "json_GetSearchResults_formats_exclude.json") {
                $0.serviceBodyIDs = [nassau]; $0.formats = .excluding([4])
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats"]
            },
            search(legacy, "json_GetSearchResults_formats_or.json") {
                $0.serviceBodyIDs = [nassau]; $0.formats = .any(of: [17, 3])
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats", "format_shared_id_list"]
            },
            search(legacy, "json_GetSearchResults_geo_nearest_auto.json") {
                $0.location = .nearest(10, latitude: 40.7070026, longitude: -73.6233694); $0.sortByDistance = true
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_km", "distance_in_miles"]
            },
            search(legacy, "json_GetSearchResults_geo_radius_km.json") {
                $0.location = .init(latitude: 40.7070026, longitude: -73.6233694, radius: .kilometers(5))
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_km", "distance_in_miles", "latitude", "longitude"]
            },
            search(legacy, "json_GetSearchResults_geo_radius_miles.json") {
                $0.location = .init(latitude: 40.7070026, longitude: -73.6233694, radius: .miles(3)); $0.sortByDistance = true
            },
            search(legacy, "json_GetSearchResults_get_formats_only.json", extent: .formatsOnly) { $0.serviceBodyIDs = [nassau] },
            search(legacy, "json_GetSearchResults_get_used_formats.json", extent: .meetingsAndFormats) {
                $0.serviceBodyIDs = [nassau]; $0.weekdays = [.monday]
            },
            search(legacy, "json_GetSearchResults_lang_es.json") { $0.meetingIDs = [2339]; $0.language = "es" },
            search(legacy, "json_GetSearchResults_meeting_ids.json") { $0.meetingIDs = [2339, 2340] },
            search(legacy, "json_GetSearchResults_meeting_key.json") {
                $0.fieldMatch = .init(key: "location_municipality", value: "Hempstead")
            },
            search(legacy, "json_GetSearchResults_new_meeting.json") { $0.meetingIDs = [2693] },
            search(legacy, "json_GetSearchResults_paged.json") { $0.serviceBodyIDs = [nassau]; $0.page = .init(size: 5, number: 2) },
            search(legacy, "json_GetSearchResults_services_1002.json") { $0.serviceBodyIDs = [nassau] },
            search(legacy, "json_GetSearchResults_services_recursive.json") {
                $0.serviceBodyIDs = [1052]; $0.includeChildServiceBodies = true
                $0.dataFieldKeys = ["id_bigint", "service_body_bigint", "meeting_name"]
            },
            search(legacy, "json_GetSearchResults_sort_key_time.json") {
                $0.serviceBodyIDs = [nassau]; $0.sortAlias = .time
                $0.dataFieldKeys = ["id_bigint", "location_municipality", "weekday_tinyint", "start_time"]
            },
            search(legacy, "json_GetSearchResults_sort_keys.json") {
                $0.serviceBodyIDs = [nassau]; $0.sortKeys = ["location_municipality", "weekday_tinyint", "start_time"]
                $0.dataFieldKeys = ["id_bigint", "location_municipality", "weekday_tinyint", "start_time"]
            },
            search(legacy, "json_GetSearchResults_starts_after.json") {
                $0.serviceBodyIDs = [nassau]; $0.startsAfter = BMLTTimeOfDay(hour: 19, minute: 30)
                $0.dataFieldKeys = ["id_bigint", "weekday_tinyint", "start_time", "duration_time", "meeting_name"]
            },
            search(legacy, "json_GetSearchResults_unpublished_anon.json") {
                $0.meetingIDs = [856, 2339]; $0.publishedStatus = .both; $0.dataFieldKeys = ["id_bigint", "meeting_name", "published"]
            },
            search(legacy, "json_GetSearchResults_unpublished_authed.json") {
                $0.meetingIDs = [856, 2339]; $0.publishedStatus = .both; $0.dataFieldKeys = ["id_bigint", "meeting_name", "published"]
            },
            search(legacy, "json_GetSearchResults_unpublished_only_anon.json") {
                $0.serviceBodyIDs = [nassau]; $0.publishedStatus = .unpublished; $0.dataFieldKeys = ["id_bigint", "meeting_name", "published"]
            },
            search(legacy, "json_GetSearchResults_venue_types.json") { $0.venueTypes = [.virtual, .hybrid] },
            search(legacy, "json_GetSearchResults_weekdays.json") { $0.serviceBodyIDs = [nassau]; $0.weekdays = [.monday, .wednesday] },
            search(legacy, "json_GetSearchResults_weekdays_exclude.json") {
                $0.serviceBodyIDs = [nassau]; $0.excludedWeekdays = [.sunday, .saturday]
                $0.dataFieldKeys = ["id_bigint", "weekday_tinyint", "start_time", "meeting_name"]
            },
            // 2.16.6 other queries
            ReadCaptureCase(folder: legacy, file: "json_GetChanges_all.json") { .changes(try await $0.changes()) },
            ReadCaptureCase(folder: legacy, file: "json_GetChanges_dates.json") {
                .changes(try await $0.changes(from: day("2020-01-01"), to: day("2026-11-22")))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetChanges_meeting_id.json") { .changes(try await $0.changes(meetingID: 2339)) },
            ReadCaptureCase(folder: legacy, file: "json_GetChanges_service_body_id.json") {
                .changes(try await $0.changes(serviceBodyID: nassau))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetCoverageArea.json") { .coverage(try await $0.coverageArea()) },
            ReadCaptureCase(folder: legacy, file: "json_GetFieldKeys.json") { .fieldKeys(try await $0.fieldKeys()) },
            ReadCaptureCase(folder: legacy, file: "json_GetFieldValues_formats.json") {
                .fieldValues(key: "formats", try await $0.fieldValues(forKey: "formats"))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFieldValues_location_municipality.json") {
                .fieldValues(key: "location_municipality", try await $0.fieldValues(forKey: "location_municipality"))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFieldValues_weekday.json") {
                .fieldValues(key: "weekday_tinyint", try await $0.fieldValues(forKey: "weekday_tinyint"))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFormats.json") { .formats(try await $0.formats(includeUnused: false)) },
            ReadCaptureCase(folder: legacy, file: "json_GetFormats_format_ids.json") {
                .formats(try await $0.formats(ids: [4, 17], includeUnused: false))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFormats_key_strings.json") {
                .formats(try await $0.formats(keys: ["O", "C", "WC"], includeUnused: false))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFormats_lang_es.json") {
                .formats(try await $0.formats(language: "es", includeUnused: false))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetFormats_show_all.json") { .formats(try await $0.formats()) },
            ReadCaptureCase(folder: legacy, file: "json_GetServiceBodies.json") { .serviceBodies(try await $0.serviceBodies()) },
            ReadCaptureCase(folder: legacy, file: "json_GetServiceBodies_exclude.json") {
                .serviceBodies(try await $0.serviceBodies(excluding: [1]))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetServiceBodies_services_parents.json") {
                .serviceBodies(try await $0.serviceBodies(ids: [nassau], includeParents: true))
            },
            ReadCaptureCase(folder: legacy, file: "json_GetServiceBodies_services_recursive.json") {
                .serviceBodies(try await $0.serviceBodies(ids: [1052], includeChildren: true))
            },
            ReadCaptureCase(folder: legacy, file: "csv_GetNAWSDump_sb1002.csv") { .naws(try await $0.nawsExport(serviceBodyID: nassau)) },
            // 3.1.2
            ReadCaptureCase(folder: modern, file: "002-GetFormats.json") { .formats(try await $0.formats(includeUnused: false)) },
            ReadCaptureCase(folder: modern, file: "003-GetFormats-show_all.json") { .formats(try await $0.formats()) },
            ReadCaptureCase(folder: modern, file: "004-GetServiceBodies.json") { .serviceBodies(try await $0.serviceBodies()) },
            search(modern, "005-GetSearchResults-services-weekday.json") { $0.serviceBodyIDs = [nassau]; $0.weekdays = [.monday] },
            search(modern, "006-GetSearchResults-get_used_formats.json", extent: .meetingsAndFormats) {
                $0.serviceBodyIDs = [nassau]; $0.weekdays = [.monday]
            },
            search(modern, "007-GetSearchResults-get_formats_only.json", extent: .formatsOnly) { $0.serviceBodyIDs = [nassau] },
            search(modern, "008-GetSearchResults-data_field_key.json") {
                $0.serviceBodyIDs = [nassau]; $0.dataFieldKeys = ["id_bigint", "meeting_name", "weekday_tinyint", "start_time", "formats"]
            },
            search(modern, "009-GetSearchResults-paging-p2.json") {
                $0.serviceBodyIDs = [nassau]; $0.sortKeys = ["id_bigint"]; $0.page = .init(size: 5, number: 2)
            },
            search(modern, "010-GetSearchResults-empty.json") { $0.fieldMatch = .init(key: "meeting_name", value: "NoSuchMeetingXYZ") },
            search(modern, "011-GetSearchResults-empty-get_used_formats.json", extent: .meetingsAndFormats) {
                $0.fieldMatch = .init(key: "meeting_name", value: "NoSuchMeetingXYZ")
            },
            search(modern, "012-GetSearchResults-meeting_ids.json") { $0.meetingIDs = [1, 2] },
            search(modern, "013-GetSearchResults-geo-radius.json") {
                $0.location = .nearest(5, latitude: 40.7, longitude: -73.6); $0.sortByDistance = true
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_miles", "distance_in_km"]
            },
            search(modern, "014-GetSearchResults-recursive.json") {
                $0.serviceBodyIDs = [2]; $0.includeChildServiceBodies = true; $0.page = .init(size: 10, number: 1)
                $0.dataFieldKeys = ["id_bigint", "service_body_bigint"]
            },
            ReadCaptureCase(folder: modern, file: "015-GetChanges-initial-empty.json") {
                .changes(try await $0.changes(from: day("2020-01-01")))
            },
            ReadCaptureCase(folder: modern, file: "016-GetFieldKeys.json") { .fieldKeys(try await $0.fieldKeys()) },
            ReadCaptureCase(folder: modern, file: "017-GetFieldValues-municipality.json") {
                .fieldValues(key: "location_municipality", try await $0.fieldValues(forKey: "location_municipality"))
            },
            ReadCaptureCase(folder: modern, file: "018-GetFieldValues-weekday.json") {
                .fieldValues(key: "weekday_tinyint", try await $0.fieldValues(forKey: "weekday_tinyint"))
            },
            ReadCaptureCase(folder: modern, file: "021-GetCoverageArea.json") { .coverage(try await $0.coverageArea()) },
            search(modern, "022-GetSearchResults-searchstring.json") {
                $0.text = "Hope"; $0.page = .init(size: 5, number: 1); $0.dataFieldKeys = ["id_bigint", "meeting_name"]
            },
            ReadCaptureCase(folder: modern, file: "200-GetChanges-after-edits.json") {
                .changes(try await $0.changes(from: day("2020-01-01")))
            },
            ReadCaptureCase(folder: modern, file: "201-GetChanges-meeting_id-2.json") { .changes(try await $0.changes(meetingID: 2)) },
            ReadCaptureCase(folder: modern, file: "202-GetChanges-service_body_id-1002.json") {
                .changes(try await $0.changes(serviceBodyID: nassau))
            },
            search(modern, "203-GetSearchResults-meeting-2-after-patch.json") { $0.meetingIDs = [2] },
        ]
    }()
}
