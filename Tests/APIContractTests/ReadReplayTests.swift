import BMLTKit
import Foundation
import CaptureReplay
import LoopbackHTTPServer
import Testing

/// Written only from design/API.md's names (no `@testable`): searches and a change list against the real
/// 2.16.6 and 3.1.2 servers, replayed over HTTP on 127.0.0.1 by a server that answers each request with the
/// capture whose recorded request asked the same thing. The meetings must be the raw JSON's, id for id.
@Suite("API contract: searches and changes against replayed real root servers", .needsCaptures, .serialized)
@MainActor
struct ReadReplayTests {
    struct Search: Sendable, CustomStringConvertible {
        let folder: String
        let file: String
        let criteria: BMLTSearchCriteria
        var extent: BMLTSearchExtent = .meetingsOnly
        var description: String { "\(folder)/\(file)" }
    }

    nonisolated static func criteria(_ build: (inout BMLTSearchCriteria) -> Void) -> BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        build(&criteria)
        return criteria
    }

    nonisolated static let searches: [Search] = [
        Search(folder: "rootserver", file: "json_GetSearchResults_weekdays.json",
               criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday, .wednesday] }),
        Search(folder: "rootserver", file: "json_GetSearchResults_services_1002.json", criteria: criteria { $0.serviceBodyIDs = [1002] }),
        Search(folder: "rootserver", file: "json_GetSearchResults_services_recursive.json", criteria: criteria {
            $0.serviceBodyIDs = [1052]; $0.includeChildServiceBodies = true; $0.dataFieldKeys = ["id_bigint", "service_body_bigint", "meeting_name"]
        }),
        Search(folder: "rootserver", file: "json_GetSearchResults_formats_or.json", criteria: criteria {
            $0.serviceBodyIDs = [1002]; $0.formats = .any(of: [17, 3])
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats", "format_shared_id_list"]
        }),
        Search(folder: "rootserver", file: "json_GetSearchResults_formats_and.json", criteria: criteria {
            $0.serviceBodyIDs = [1002]; $0.formats = .all(of: [17, 3])
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "formats", "format_shared_id_list"]
        }),
        Search(folder: "rootserver", file: "json_GetSearchResults_geo_radius_miles.json", criteria: criteria {
            $0.location = .init(latitude: 40.7070026, longitude: -73.6233694, radius: .miles(3)); $0.sortByDistance = true
        }),
        Search(folder: "rootserver", file: "json_GetSearchResults_SearchString.json",
               criteria: criteria { $0.text = "Recovery"; $0.serviceBodyIDs = [1002] }),
        Search(folder: "rootserver", file: "json_GetSearchResults_starts_after.json", criteria: criteria {
            $0.serviceBodyIDs = [1002]; $0.startsAfter = .init(hour: 19, minute: 30)
            $0.dataFieldKeys = ["id_bigint", "weekday_tinyint", "start_time", "duration_time", "meeting_name"]
        }),
        Search(folder: "rootserver", file: "json_GetSearchResults_paged.json",
               criteria: criteria { $0.serviceBodyIDs = [1002]; $0.page = .init(size: 5, number: 2) }),
        Search(folder: "rootserver-3x", file: "005-GetSearchResults-services-weekday.json",
               criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday] }),
        Search(folder: "rootserver-3x", file: "006-GetSearchResults-get_used_formats.json",
               criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday] }, extent: .meetingsAndFormats),
        Search(folder: "rootserver", file: "json_GetSearchResults_get_used_formats.json",
               criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday] }, extent: .meetingsAndFormats),
        Search(folder: "rootserver-3x", file: "014-GetSearchResults-recursive.json", criteria: criteria {
            $0.serviceBodyIDs = [2]; $0.includeChildServiceBodies = true; $0.page = .init(size: 10, number: 1)
            $0.dataFieldKeys = ["id_bigint", "service_body_bigint"]
        }),
        Search(folder: "rootserver-3x", file: "013-GetSearchResults-geo-radius.json", criteria: criteria {
            $0.location = .nearest(5, latitude: 40.7, longitude: -73.6); $0.sortByDistance = true
            $0.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_miles", "distance_in_km"]
        }),
        Search(folder: "rootserver-3x", file: "022-GetSearchResults-searchstring.json", criteria: criteria {
            $0.text = "Hope"; $0.page = .init(size: 5, number: 1); $0.dataFieldKeys = ["id_bigint", "meeting_name"]
        }),
        Search(folder: "rootserver-3x", file: "009-GetSearchResults-paging-p2.json", criteria: criteria {
            $0.serviceBodyIDs = [1002]; $0.sortKeys = ["id_bigint"]; $0.page = .init(size: 5, number: 2)
        }),
    ] + ["rootserver-4x", "rootserver-42"].flatMap(searches4x)

    /// 4.1.0 and 4.2.7: the same questions (the corpora are numbered alike).
    nonisolated static func searches4x(_ folder: String) -> [Search] {
        [
            Search(folder: folder, file: "005-GetSearchResults-services-weekday.json",
                   criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday] }),
            Search(folder: folder, file: "006-GetSearchResults-get_used_formats.json",
                   criteria: criteria { $0.serviceBodyIDs = [1002]; $0.weekdays = [.monday] }, extent: .meetingsAndFormats),
            Search(folder: folder, file: "013-GetSearchResults-geo-radius.json", criteria: criteria {
                $0.location = .nearest(5, latitude: 40.7, longitude: -73.6); $0.sortByDistance = true
                $0.dataFieldKeys = ["id_bigint", "meeting_name", "distance_in_miles", "distance_in_km"]
            }),
            Search(folder: folder, file: "009-GetSearchResults-paging-p2.json", criteria: criteria {
                $0.serviceBodyIDs = [1002]; $0.sortKeys = ["id_bigint"]; $0.page = .init(size: 5, number: 2)
            }),
        ]
    }

    @Test("a search gets exactly the raw JSON's meetings, in order", arguments: searches)
    func search(_ search: Search) async throws {
        let http = try CaptureReplayServer.start(folder: search.folder)
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        _ = try await connection.validate()
        let results = search.extent == .meetingsAndFormats
            ? try await connection.meetings(matching: search.criteria)
            : try await connection.meetings(matching: search.criteria, extent: search.extent)
        let raw = try CaptureReplayServer.objects(search.folder, search.file)
        let rawFormats = try CaptureReplayServer.objects(search.folder, search.file, key: "formats")
        #expect(results.formats.map(\.id) == rawFormats.compactMap { ($0["id"] as? String).flatMap { Int($0) } })
        #expect(!raw.isEmpty)
        // `.nearest(n)` is exact: the server's answer (every meeting inside the circle that holds n, sorted by
        // distance here) cut to its first n.
        var rawIDs = raw.compactMap { ($0["id_bigint"] as? String).flatMap { Int($0) } }
        if let location = search.criteria.location, case .nearest(let count) = location.radius {
            #expect(rawIDs.count > count, "the server answers more than the n asked for (what the cut is for)")
            rawIDs = Array(rawIDs.prefix(count))
        }
        #expect(results.meetings.map(\.id) == rawIDs)
        #expect(results.meetings.map(\.name) == raw.prefix(rawIDs.count).map { ($0["meeting_name"] as? String) ?? "" })
        #expect(connection.search.meetings == results.meetings)
    }

    @Test("the change list of one meeting, with the meeting before and after each change",
          arguments: [("rootserver", 2339, "json_GetChanges_meeting_id.json"), ("rootserver-3x", 2, "201-GetChanges-meeting_id-2.json"),
                      ("rootserver-4x", 2, "201-GetChanges-meeting_id-2.json"), ("rootserver-42", 2, "201-GetChanges-meeting_id-2.json")])
    func changes(folder: String, meetingID: Int, file: String) async throws {
        let http = try CaptureReplayServer.start(folder: folder)
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        _ = try await connection.validate()
        let changes = try await connection.changes(meetingID: meetingID)
        let raw = try CaptureReplayServer.objects(folder, file)
        #expect(changes.map(\.id) == raw.compactMap { ($0["change_id"] as? String).flatMap { Int($0) } })
        #expect(!changes.isEmpty && changes.allSatisfy { $0.meetingID == meetingID && $0.date != nil })
        for (change, object) in zip(changes, raw) {
            let data = object["json_data"] as? [String: [String: Any]]
            #expect(change.before?.name == data?["before"]?["meeting_name"] as? String)
            #expect(change.after?.name == data?["after"]?["meeting_name"] as? String)
            #expect(change.before?.id == meetingID && change.after?.id == meetingID)
        }
        #expect(connection.changes.changes == changes)
    }
}
