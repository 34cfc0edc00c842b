import Foundation
@testable import BMLTKit

/// One capture of the real 4.1.0 aggregator (`../shared/fixtures/aggregator-4x/`) and what BMLTKit does with
/// the same question.
struct AggregatorCase: Sendable, CustomStringConvertible {
    /// What the case expects of BMLTKit.
    enum Expectation: Sendable {
        /// The call sends the recorded request and decodes the reply.
        case sent
        /// The call is refused before the request is sent (the capture shows the server's useless answer).
        case refused
        /// Not something BMLTKit asks (the reason); the capture is still checked to exist.
        case notACall(String)
    }

    /// What a call gave.
    enum Outcome: Sendable {
        case info(BMLTServerInfo)
        case read(ReadOutcome)
        case rootServers([BMLTRootServer])
        case rootServer(BMLTRootServer)
    }

    static let folder = "aggregator-4x"

    let file: String
    let expectation: Expectation
    /// Whether the connection validates (against the aggregator's own captures) before the call.
    var validates = true
    let call: @MainActor @Sendable (BMLTConnection) async throws -> Outcome?

    var description: String { file }

    static func search(_ file: String, _ expectation: Expectation = .sent, extent: BMLTSearchExtent = .meetingsOnly,
                       _ build: @escaping @Sendable (inout BMLTSearchCriteria) -> Void) -> AggregatorCase {
        AggregatorCase(file: file, expectation: expectation) { connection in
            var criteria = BMLTSearchCriteria()
            build(&criteria)
            return .read(.search(try await connection.meetings(matching: criteria, extent: extent)))
        }
    }

    static func other(_ file: String, _ reason: String) -> AggregatorCase {
        AggregatorCase(file: file, expectation: .notACall(reason), validates: false) { _ in nil }
    }

    static let keys = ["id_bigint", "meeting_name", "start_time", "root_server_id", "root_server_uri"]

    /// Every capture of the aggregator folder, each with its case.
    static let all: [AggregatorCase] = [
        AggregatorCase(file: "01-GetServerInfo.json", expectation: .sent, validates: false) { .info(try await $0.validate()) },
        search("02-GetSearchResults-no-parameters.json", .refused) { _ in },
        search("03-GetSearchResults-weekdays-only.json", .refused) { $0.weekdays = [.monday] },
        search("04-GetSearchResults-SearchString-only.json", .refused) { $0.text = "Aquebogue" },
        search("05-GetSearchResults-root-exclusion-only.json", .refused) { $0.excludedRootServerIDs = [1] },
        // lat+long count as a filter on the aggregator too; without a width every server answers [] (a radius is
        // required by BMLTSearchCriteria.Location, so only raw parameters can ask this).
        search("06-GetSearchResults-latlong-without-width.json") {
            $0.rawParameters = [URLQueryItem(name: "lat_val", value: "40.72"), URLQueryItem(name: "long_val", value: "-73.95")]
        },
        search("07-GetSearchResults-services-3-roots-weekday.json") { $0.serviceBodyIDs = [5, 49, 93]; $0.weekdays = [.monday] },
        search("08-GetSearchResults-root_server_ids-array.json") {
            $0.rootServerIDs = [1, 3]; $0.weekdays = [.monday]; $0.startsAfter = BMLTTimeOfDay(hour: 20); $0.dataFieldKeys = keys
        },
        search("09-GetSearchResults-root_server_ids-scalar.json") {
            $0.rootServerIDs = [2]; $0.weekdays = [.monday]; $0.startsAfter = BMLTTimeOfDay(hour: 20); $0.dataFieldKeys = keys
        },
        // BMLTKit never sends a comma list for root servers (the server does not split it); raw parameters can.
        search("10-GetSearchResults-root_server_ids-comma.json") {
            $0.rawParameters = [URLQueryItem(name: "root_server_ids", value: "1,3")]; $0.weekdays = [.monday]
            $0.startsAfter = BMLTTimeOfDay(hour: 20); $0.dataFieldKeys = keys
        },
        search("11-GetSearchResults-meeting_ids-one-meeting-3-roots.json") { $0.meetingIDs = [1, 1514, 3027] },
        search("12-GetSearchResults-meeting_key.json") {
            $0.fieldMatch = .init(key: "location_municipality", value: "Aquebogue")
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "weekday_tinyint", "start_time", "service_body_bigint",
                                "format_shared_id_list", "root_server_id", "root_server_uri"]
        },
        search("13-GetSearchResults-formats-per-root.json") {
            $0.formats = .any(of: [17, 61, 105]); $0.weekdays = [.monday]; $0.startsAfter = BMLTTimeOfDay(hour: 20)
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats", "format_shared_id_list", "root_server_id"]
        },
        search("14-GetSearchResults-page_size-only.json") {
            $0.page = .init(size: 6, number: 1); $0.dataFieldKeys = ["id_bigint", "meeting_name", "weekday_tinyint", "start_time", "root_server_id"]
        },
        search("15-GetSearchResults-services-recursive.json") {
            $0.serviceBodyIDs = [2]; $0.includeChildServiceBodies = true; $0.weekdays = [.monday]
            $0.startsAfter = BMLTTimeOfDay(hour: 20); $0.dataFieldKeys = ["id_bigint", "meeting_name", "service_body_bigint", "root_server_id"]
        },
        search("16-GetSearchResults-geo-sorted.json") {
            $0.location = .init(latitude: 40.72, longitude: -73.95, radius: .kilometers(1)); $0.sortByDistance = true
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "root_server_id", "distance_in_km", "distance_in_miles"]
        },
        search("17-GetSearchResults-geo-nearest-6.json") {
            $0.location = .nearest(6, latitude: 40.72, longitude: -73.95); $0.sortByDistance = true
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "root_server_id", "distance_in_miles"]
        },
        search("18-GetSearchResults-geo-1000km-capped.json") {
            $0.location = .init(latitude: 37.9, longitude: -75.4, radius: .kilometers(1000))
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "location_municipality", "root_server_id", "distance_in_km"]
        },
        search("19-GetSearchResults-geo-320km.json") {
            $0.location = .init(latitude: 37.9, longitude: -75.4, radius: .kilometers(320))
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "location_municipality", "root_server_id", "distance_in_km"]
        },
        search("20-GetSearchResults-geo-1000mi-capped.json") {
            $0.location = .init(latitude: 37.9, longitude: -75.4, radius: .miles(1000))
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "location_municipality", "root_server_id", "distance_in_km"]
        },
        search("21-GetSearchResults-data_field_key-without-root_server_id.json") {
            $0.meetingIDs = [1, 1514, 3027]; $0.dataFieldKeys = ["id_bigint", "meeting_name"]
        },
        search("22-GetSearchResults-get_used_formats.json", extent: .meetingsAndFormats) {
            $0.fieldMatch = .init(key: "location_municipality", value: "Aquebogue"); $0.rootServerIDs = [2]
        },
        AggregatorCase(file: "23-GetFormats-all.json", expectation: .sent) { .read(.formats(try await $0.formats(includeUnused: false))) },
        AggregatorCase(file: "24-GetFormats-root_server_ids-2.json", expectation: .sent) {
            .read(.formats(try await $0.formats(fromRootServers: [2])))
        },
        AggregatorCase(file: "25-GetServiceBodies-all.json", expectation: .sent) { .read(.serviceBodies(try await $0.serviceBodies())) },
        AggregatorCase(file: "26-GetServiceBodies-root_server_ids-3.json", expectation: .sent) {
            .read(.serviceBodies(try await $0.serviceBodies(fromRootServers: [3])))
        },
        AggregatorCase(file: "27-GetFieldKeys.json", expectation: .sent) { .read(.fieldKeys(try await $0.fieldKeys())) },
        AggregatorCase(file: "28-GetChanges.json", expectation: .refused) { .read(.changes(try await $0.changes())) },
        other("29-jsonp-GetSearchResults.js", "BMLTKit reads the json interface, never jsonp"),
        other("30-tsml-GetSearchResults.json", "BMLTKit reads the json interface, never tsml (which has no root server)"),
        AggregatorCase(file: "31-api-rootservers.json", expectation: .sent) { .rootServers(try await $0.rootServers()) },
        AggregatorCase(file: "32-api-rootservers-2.json", expectation: .sent) { .rootServer(try await $0.rootServer(id: 2)) },
        AggregatorCase(file: "33-api-rootservers-999-404.json", expectation: .sent) { .rootServer(try await $0.rootServer(id: 999)) },
        other("34-api-rootservers-POST-500.json", "BMLTKit never creates root servers (the aggregator's list is its configuration)"),
        AggregatorCase(file: "35-root410-api-rootservers-404.json", expectation: .sent, validates: false) {
            .rootServers(try await $0.rootServers())
        },
        other("36-main_server-index.html", "the aggregator's web page, not an interface"),
        other("37-GetSearchResults-tsml-no-filter.json", "tsml; the same filter rule as 02, refused locally there"),
        other("38-api-auth-token-serveradmin.json", "a login works on an aggregator as on any 4.x server (rootserver-4x corpus)"),
        AggregatorCase(file: "39-api-meetings-1-PATCH-403.json", expectation: .refused) { connection in
            var meeting = BMLTMeeting(id: 1, serviceBodyID: 5, name: "aggregator write attempt")
            meeting.weekday = .monday
            _ = try await connection.saveAndWait(BMLTMeetingDraft(meeting))
            return nil
        },
        other("40-api-auth-logout.empty", "a logout works on an aggregator as on any 4.x server (rootserver-4x corpus)"),
        AggregatorCase(file: "41-api-rootservers-with-unreachable.json", expectation: .sent) { .rootServers(try await $0.rootServers()) },
        AggregatorCase(file: "42-api-rootservers-unreachable-never-imported.json", expectation: .sent) {
            .rootServer(try await $0.rootServer(id: 4))
        },
        search("43-GetSearchResults-root_server_ids-unreachable.json") { $0.rootServerIDs = [4] },
    ]
}
