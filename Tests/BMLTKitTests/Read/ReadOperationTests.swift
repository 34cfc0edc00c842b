import Foundation
import Testing
@testable import BMLTKit

/// The read calls through the connection: which notifications, in which order, what the stores hold, and that
/// a failure keeps the last good results.
@Suite("Read operations")
@MainActor
struct ReadOperationTests {
    nonisolated static let meetings = """
    [{"id_bigint":"1","service_body_bigint":"11","weekday_tinyint":"2","start_time":"19:00:00","formats":"O","meeting_name":"One"},
     {"id_bigint":"2","service_body_bigint":"12","weekday_tinyint":"4","start_time":"07:00:00","formats":"BT","meeting_name":"Two"}]
    """
    nonisolated static let usedFormats = """
    [{"key_string":"O","name_string":"Open","lang":"en","id":"17"},{"key_string":"BT","name_string":"Basic Text","lang":"en","id":"3"}]
    """

    private func connection(_ handler: @escaping StubServer.Handler) -> (BMLTConnection, EventRecorder, StubServer) {
        let stub = StubServer(handler)
        let recorder = EventRecorder()
        return (BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder])), recorder, stub)
    }

    @Test("meetings and formats: meeting results, then format results, bracketed by progress; the store holds them")
    func searchBoth() async throws {
        let (connection, recorder, stub) = connection { request in
            request.query("get_used_formats") == "1"
                ? .json(#"{"meetings":\#(Self.meetings),"formats":\#(Self.usedFormats)}"#) : .json("[]")
        }
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.monday, .wednesday]
        let request = connection.searchMeetings(criteria, extent: .meetingsAndFormats)
        #expect(request.kind == .meetingSearch && connection.inFlightRequests == [request])
        await waitUntil("the connection is idle") { !connection.isBusy }
        // The reply arrives in one piece: its meetings are one batch, announced before the results.
        #expect(recorder.names == ["progress.didStart", "search.meetingsArrived", "search.meetings", "search.formats", "progress.didStop"])
        #expect(connection.search.meetings.map(\.id) == [1, 2] && connection.search.formats.count == 2)
        #expect(connection.search.meetings.first?.formats.first?.name == "Open")
        #expect(connection.search.criteria == criteria && connection.search.extent == .meetingsAndFormats)
        // Unvalidated and without a narrowing filter, the search first asks GetServerInfo (an aggregator would answer it with []).
        let search = stub.requests.first { $0.query("switcher") == "GetSearchResults" }
        #expect(search?.queryItems.filter { $0.name == "weekdays[]" }.map(\.value) == ["2", "4"])
        #expect(stub.requests.first?.query("switcher") == "GetServerInfo")
        // Indexed only when there: a missing event fails the test, never crashes the whole suite (it did, issue 50).
        if recorder.all.count > 3, case .formatSearchResults(_, let isAll, let sameRequest) = recorder.all[3] {
            #expect(!isAll && sameRequest == request)
        } else { Issue.record("no format results") }
    }

    @Test("meetings only posts no format results; formats only posts no meeting results and keeps the meetings")
    func extents() async throws {
        let (connection, recorder, _) = connection { request in
            request.query("get_formats_only") == "1" ? .json(#"{"formats":\#(Self.usedFormats)}"#) : .json(Self.meetings)
        }
        let results = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
        #expect(results.meetings.count == 2 && results.formats.isEmpty)
        #expect(recorder.count(.bmltMeetingSearchResults) == 1 && recorder.count(.bmltFormatSearchResults) == 0)
        let formats = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .formatsOnly)
        #expect(formats.meetings.isEmpty && formats.formats.count == 2)
        #expect(recorder.count(.bmltMeetingSearchResults) == 1 && recorder.count(.bmltFormatSearchResults) == 1)
        #expect(connection.search.meetings.count == 2, "a formats-only search keeps the meetings")
    }

    @Test("a failed search sets lastError, posts one error, keeps the last good meetings; the next success clears it")
    func failureKeepsResults() async throws {
        let (connection, recorder, stub) = connection { _ in .json(Self.meetings) }
        _ = try await connection.meetings(matching: BMLTSearchCriteria())
        stub.answer { _ in .text("<html><title>Oops</title></html>", status: 200) }
        await #expect(throws: BMLTError.self) { try await connection.meetings(matching: BMLTSearchCriteria()) }
        #expect(connection.search.meetings.map(\.id) == [1, 2])
        #expect(connection.search.lastError == .malformedResponse(what: .meetingSearch,
                                                                  detail: .page))
        #expect(recorder.errors.count == 1 && recorder.count(.bmltMeetingSearchResults) == 1)
        stub.answer { _ in .json("{}") }
        let empty = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(empty.meetings.isEmpty && connection.search.meetings.isEmpty && connection.search.lastError == nil)
    }

    @Test("many searches at once: one outcome each, one progress pair, each gets its own criteria's results")
    func concurrentSearches() async throws {
        let (connection, recorder, _) = connection { request in
            let id = request.query("meeting_ids[]") ?? "0"
            return .json(#"[{"id_bigint":"\#(id)","meeting_name":"M\#(id)"}]"#, delay: 0.05)
        }
        var tasks: [Int: Task<[Int], any Error>] = [:]
        for id in 1...20 {
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = [id]
            let sent = criteria
            tasks[id] = Task { try await connection.meetings(matching: sent).meetings.map(\.id) }
        }
        var results: [Int: [Int]] = [:]
        for (id, task) in tasks { results[id] = try await task.value }
        #expect(results.count == 20 && results.allSatisfy { $0.value == [$0.key] })
        #expect(recorder.count(.bmltProgressDidStart) == 1 && recorder.count(.bmltProgressDidStop) == 1)
        #expect(recorder.count(.bmltMeetingSearchResults) == 20 && recorder.count(.bmltFormatSearchResults) == 20)
    }

    @Test("server-units radius on an unvalidated connection asks GetServerInfo first, then searches in km")
    func serverUnits() async throws {
        let (connection, _, stub) = connection { request in
            request.query("switcher") == "GetServerInfo" ? .json(SampleReplies.serverInfo2x) : .json("[]")
        }
        var criteria = BMLTSearchCriteria()
        criteria.location = .init(latitude: 39.7, longitude: -105, radius: .serverUnits(5))
        _ = try await connection.meetings(matching: criteria, extent: .meetingsOnly)
        #expect(stub.requests.map { $0.query("switcher") } == ["GetServerInfo", "GetSearchResults"])
        #expect(stub.requests.last?.query("geo_width_km") == "5")
    }

    @Test("changes and deleted meetings fill their own lists in the change store")
    func changesAndDeletions() async throws {
        let record: @Sendable (Int, Int, String) -> String = { id, sb, type in
            #"{"change_id":"\#(id)","meeting_id":"\#(id * 10)","service_body_id":"\#(sb)","change_type":"comdef_change_type_\#(type)","date_int":"\#(1000 + id)","meeting_exists":"0","user_id":"\#(id % 2)"}"#
        }
        let (connection, recorder, stub) = connection { request in
            let sb = request.query("service_body_id")
            let list = [record(1, 11, "delete"), record(2, 12, "delete"), record(3, 11, "change")]
                .filter { sb == nil || $0.contains(#""service_body_id":"\#(sb!)""#) }
            return .json("[" + list.joined(separator: ",") + "]")
        }
        let changes = try await connection.changes()
        #expect(changes.map(\.id) == [1, 2, 3] && connection.changes.changes.map(\.id) == [1, 2, 3])
        #expect(try await connection.changes(madeBy: 1).map(\.id) == [1, 3])
        let deleted = try await connection.deletedMeetings(serviceBodyIDs: [11, 12])
        #expect(deleted.map(\.id) == [2, 1] && connection.changes.deletedMeetings.map(\.id) == [2, 1])
        #expect(Set(stub.requests.suffix(2).compactMap { $0.query("service_body_id") }) == ["11", "12"])
        #expect(connection.changes.changes.map(\.id) == [1, 3], "the user filter's result")
        #expect(recorder.count(.bmltChangeListResults) == 3)
    }

    @Test("formats, service bodies, field keys and values, coverage, NAWS: each posts its results and fills its store")
    func otherQueries() async throws {
        let (connection, recorder, stub) = connection { request in
            switch request.query("switcher") {
            case "GetFormats": return .json(SampleReplies.formats)
            case "GetServiceBodies": return .json(SampleReplies.serviceBodies)
            case "GetFieldKeys": return .json(#"[{"key":"meeting_name","description":"Name"}]"#)
            case "GetFieldValues": return .json(#"[{"location_municipality":"Hempstead","ids":"1,2"}]"#)
            case "GetCoverageArea":
                return .json(#"[{"nw_corner_longitude":"-79","nw_corner_latitude":"45","se_corner_longitude":"-72","se_corner_latitude":"40"}]"#)
            case "GetNAWSDump": return .text("Committee,bmlt_id\nC1,5\n", contentType: "text/csv")
            default: return .json("[]")
            }
        }
        #expect(try await connection.formats(ids: [17]).map(\.key) == ["O"])
        #expect(connection.server.formats.isEmpty, "a filtered list does not replace the server's formats")
        #expect(try await connection.formats().count == 3 && connection.server.formats.count == 3)
        #expect(stub.requests.last?.query("show_all") == "1")
        #expect(try await connection.allUsedFormats().count == 3 && connection.server.usedFormats.count == 3)
        let bodies = try await connection.serviceBodies()
        #expect(bodies.count == 4 && Set(connection.server.serviceBodyTree.map(\.id)) == [10, 13])
        _ = try await connection.serviceBodies(ids: [10], includeChildren: true)
        #expect(stub.requests.last?.queryItems.map(\.name) == ["switcher", "services[]", "recursive"])
        #expect(try await connection.fieldKeys().map(\.key) == ["meeting_name"] && connection.server.fieldKeys.count == 1)
        #expect(try await connection.fieldValues(forKey: "location_municipality").first?.meetingIDs == [1, 2])
        #expect(try await connection.coverageArea().northWest.latitude == 45 && connection.server.coverageArea != nil)
        #expect(try await connection.nawsExport(serviceBodyID: 1002).rows == [["Committee": "C1", "bmlt_id": "5"]])
        #expect(stub.requests.last?.url?.path.contains("client_interface/csv") == true && stub.requests.last?.query("sb_id") == "1002")
        await #expect(throws: BMLTError.invalidArgument(.emptyFieldKey)) { try await connection.fieldValues(forKey: "") }
        #expect(recorder.count(.bmltFormatSearchResults) == 3 && recorder.count(.bmltServiceBodyResults) == 2)
        #expect(recorder.count(.bmltFieldKeyResults) == 1 && recorder.count(.bmltFieldValueResults) == 1)
        #expect(recorder.count(.bmltCoverageAreaResults) == 1 && recorder.count(.bmltNAWSExportResults) == 1)
        #expect(recorder.errors == [.invalidArgument(.emptyFieldKey)])
    }

    @Test("a cancelled search posts only .bmltRequestCancelled and leaves the store alone")
    func cancelledSearch() async throws {
        let (connection, recorder, _) = connection { _ in .json(Self.meetings, delay: 60) }   // the cancel always comes first
        let request = connection.searchMeetings(BMLTSearchCriteria(), extent: .meetingsOnly)
        try await Task.sleep(nanoseconds: 50_000_000)
        request.cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(recorder.count(.bmltRequestCancelled) == 1 && recorder.errors.isEmpty)
        #expect(recorder.count(.bmltMeetingSearchResults) == 0 && connection.search.meetings.isEmpty && connection.search.lastError == nil)
    }
}
