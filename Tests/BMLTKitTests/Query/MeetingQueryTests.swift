import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// `BMLTMeetingQuery` over real sockets: two queries of one connection refreshed at once, each with its own meetings
/// (arriving in batches, then whole), the one progress pair and the notifications with their requests, the search
/// store untouched; a newer refresh superseding an older one; a connection that has gone; nearby queries.
@Suite("Meeting queries: one search per view (loopback)", .serialized)
@MainActor
struct MeetingQueryTests {
    /// A search reply of `count` meetings with ids from `first` (meetings, then the formats, as servers send them).
    nonisolated static func body(first: Int, count: Int) -> Data {
        let meetings = (first..<first + count).map { index in
            #"{"id_bigint":"\#(index)","service_body_bigint":"3","weekday_tinyint":"2","start_time":"19:30:00","duration_time":"01:00:00","meeting_name":"Meeting \#(index)","location_text":"Hall \#(index)","location_municipality":"Springfield","formats":"O,BT","format_shared_id_list":"17,3","latitude":"40.5","longitude":"-73.25","published":"1"}"#
        }
        let formats = SampleReplies.formats.replacingOccurrences(of: "\n", with: "")
        return Data((#"{"meetings":["# + meetings.joined(separator: ",") + #"],"formats":"# + formats + "}").utf8)
    }

    nonisolated static let mondays = body(first: 1, count: 300)
    nonisolated static let tuesdays = body(first: 1001, count: 200)

    /// Monday's and Tuesday's searches answered slowly (over a second, in pieces), so that both are in flight at once.
    /// With `gates`, each reply sends its first 16 KiB and then holds the rest until the test opens its gate (or the
    /// server stops): "still arriving" is then a state the test holds for certain, not a race with the machine's load.
    nonisolated static func server(gates: (monday: LoopbackGate, tuesday: LoopbackGate)? = nil) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            guard request.query("switcher") == "GetSearchResults" else { return LoopbackTransportTests.healthy(request) }
            switch (request.query("weekdays[]"), gates) {
            case ("2", let gates?): return .gated(status: 200, body: mondays, firstBytes: 16_384, gate: gates.monday)
            case ("3", let gates?): return .gated(status: 200, body: tuesdays, firstBytes: 16_384, gate: gates.tuesday)
            case ("2", nil): return .drip(status: 200, body: mondays, chunkSize: 4096, interval: 0.04)
            case ("3", nil): return .drip(status: 200, body: tuesdays, chunkSize: 4096, interval: 0.04)
            default: return .json("[]")
            }
        }
    }

    private func connection(_ server: LoopbackHTTPServer, monitors: [any BMLTEventMonitor]) async throws -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        configuration.eventMonitors = monitors
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        _ = try await connection.validate()
        return connection
    }

    private static func criteria(_ day: BMLTWeekday) -> BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [day]
        return criteria
    }

    @Test("two queries on one connection refreshed at once: each its own meetings, one progress pair, the store untouched")
    func twoQueriesAtOnce() async throws {
        // Each reply holds its rest until the test has seen what it looks for (both in flight, the list's first meetings):
        // on a loaded machine a dripped reply can arrive whole before the first look.
        let gates = (monday: LoopbackGate(), tuesday: LoopbackGate())
        let server = try Self.server(gates: gates)
        defer { server.stop() }
        let recorder = EventRecorder()
        let connection = try await connection(server, monitors: [recorder])
        let expectedMondays = try BMLTSearchResults(jsonData: Self.mondays).meetings
        let expectedTuesdays = try BMLTSearchResults(jsonData: Self.tuesdays).meetings
        recorder.removeAll()
        let list = BMLTMeetingQuery(connection, criteria: Self.criteria(.monday))
        let map = BMLTMeetingQuery(connection, criteria: Self.criteria(.tuesday))
        #expect(list.meetings.isEmpty && !list.isLoading && !list.isComplete && list.request == nil, "nothing sent before refresh()")
        // As a view would: each query refreshed by a task of its own, and watched while it loads.
        let listTask = Task { await list.refresh() }
        let mapTask = Task { await map.refresh() }
        var bothInFlight = false, partial = false
        while !listTask.isCancelled, list.isLoading || map.isLoading || list.request == nil || map.request == nil {
            if connection.inFlightRequests.count == 2 && list.isLoading && map.isLoading { bothInFlight = true }
            if list.isLoading && !list.meetings.isEmpty && list.meetings.count < expectedMondays.count { partial = true }
            if bothInFlight { gates.tuesday.open() }
            if bothInFlight && partial { gates.monday.open() }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        await listTask.value
        await mapTask.value
        #expect(bothInFlight, "the two searches never ran at once")
        #expect(partial, "the list query never showed the meetings so far while they arrived")
        #expect(list.meetings == expectedMondays && list.isComplete && list.lastError == nil && !list.isLoading)
        #expect(map.meetings == expectedTuesdays && map.isComplete && map.lastError == nil && !map.isLoading)
        #expect(list.meetings.first?.formats.map(\.name) == ["Open", "Basic Text"])
        // The stores are the classic pattern's: untouched by queries.
        #expect(connection.search.meetings.isEmpty && connection.search.meetingsSoFar.isEmpty)
        #expect(connection.search.criteria == nil && connection.search.lastError == nil && connection.search.isComplete)
        // The same notifications as any search, each with its query's request; one busy period for both.
        let results = recorder.all.compactMap { event -> (BMLTRequest, [BMLTMeeting])? in
            if case .meetingSearchResults(let meetings, let request) = event { (request, meetings) } else { nil }
        }
        #expect(results.count == 2)
        #expect(results.first { $0.0 === list.request }?.1 == expectedMondays)
        #expect(results.first { $0.0 === map.request }?.1 == expectedTuesdays)
        let arrived = recorder.all.compactMap { event -> BMLTRequest? in
            if case .meetingsArrived(_, _, let request) = event { request } else { nil }
        }
        #expect(arrived.contains { $0 === list.request } && arrived.contains { $0 === map.request })
        #expect(recorder.count(.bmltProgressDidStart) == 1 && recorder.count(.bmltProgressDidStop) == 1)
        #expect(recorder.all.first?.notificationName == .bmltProgressDidStart && recorder.all.last?.notificationName == .bmltProgressDidStop)
        #expect(connection.inFlightRequests.isEmpty)
        // The classic pattern still works beside them, and does not touch the queries.
        let classic = try await connection.meetings(matching: Self.criteria(.tuesday)).meetings
        #expect(classic == expectedTuesdays && connection.search.meetings == expectedTuesdays)
        #expect(list.meetings == expectedMondays)
    }

    @Test("criteria changed mid-refresh: the newer refresh supersedes the older, whose meetings never appear after")
    func newerRefreshSupersedes() async throws {
        // Monday's reply sends its first meetings and holds the rest until the server stops: only the newer refresh's
        // cancellation can end it (a dripped 8 s reply could end by itself behind a stall of a loaded machine).
        let gates = (monday: LoopbackGate(), tuesday: LoopbackGate())
        gates.tuesday.open()
        let server = try Self.server(gates: gates)
        defer { server.stop() }
        let recorder = EventRecorder()
        let connection = try await connection(server, monitors: [recorder])
        let expectedTuesdays = try BMLTSearchResults(jsonData: Self.tuesdays).meetings
        let query = BMLTMeetingQuery(connection, criteria: Self.criteria(.monday))
        let older = Task { await query.refresh() }
        await waitUntil("the query shows its first meetings") { !query.meetings.isEmpty }             // Monday's first meetings are shown
        let olderRequest = try #require(query.request)
        #expect(query.meetings.allSatisfy { $0.id < 1000 } && query.isLoading)
        query.criteria = Self.criteria(.tuesday)
        let seen = Locked<[Int]>([])         // the first id shown, each time it changes
        let watcher = Task { @MainActor in
            while !Task.isCancelled {
                if let id = query.meetings.first?.id, seen.withLock({ $0.last }) != id { seen.withLock { $0.append(id) } }
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
        }
        await query.refresh()
        await older.value
        await waitUntil("the watcher has seen Tuesday's first meeting shown") { seen.withLock { $0.last } == 1001 }
        watcher.cancel()
        await watcher.value
        #expect(olderRequest.isCancelled && query.request !== olderRequest)
        #expect(query.meetings == expectedTuesdays && query.isComplete && query.lastError == nil && !query.isLoading)
        // Once Tuesday's meetings were shown, Monday's never came back.
        let shown = seen.withLock { $0 }
        #expect(shown.first == 1 && shown.last == 1001, "\(shown)")
        if let firstTuesday = shown.firstIndex(where: { $0 > 1000 }) {
            #expect(shown[firstTuesday...].allSatisfy { $0 > 1000 }, "\(shown)")
        }
        let cancelled = recorder.all.compactMap { if case .requestCancelled(let request) = $0 { request } else { nil } }
        #expect(cancelled.count == 1 && cancelled.first === olderRequest)
        #expect(connection.search.meetings.isEmpty && connection.search.lastError == nil)
    }

    @Test("a query whose connection has gone ends cleanly: .cancelled, the meetings kept, nothing loading")
    func connectionGone() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var connection: BMLTConnection? = try await connection(server, monitors: [])
        let events = connection!.events                        // ends when the connection goes away
        let query = BMLTMeetingQuery(connection!, criteria: Self.criteria(.tuesday))
        await query.refresh()
        let held = query.meetings
        #expect(held.count == 200 && query.isComplete)
        connection = nil
        for await _ in events {}                                // the query does not keep it alive
        await query.refresh()
        #expect(query.lastError == .cancelled && !query.isLoading && !query.isComplete)
        #expect(query.meetings == held)
    }

    @Test("cancel() and the refreshing task's cancellation end the search with .cancelled, the meetings so far kept")
    func cancelled() async throws {
        // Monday's reply holds the rest of its body until the server stops: only the cancellations end the searches.
        let gates = (monday: LoopbackGate(), tuesday: LoopbackGate())
        let server = try Self.server(gates: gates)
        defer { server.stop() }
        let connection = try await connection(server, monitors: [])
        let query = BMLTMeetingQuery(connection, criteria: Self.criteria(.monday))
        let refresh = Task { await query.refresh() }
        await waitUntil("the query shows its first meetings") { !query.meetings.isEmpty }
        query.cancel()
        await refresh.value
        #expect(query.lastError == .cancelled && !query.isLoading && !query.isComplete && !query.meetings.isEmpty)
        let again = Task { await query.refresh() }
        await waitUntil("the query is loading again") { query.isLoading && connection.isBusy }
        again.cancel()
        await again.value
        #expect(query.lastError == .cancelled && !query.isLoading && query.request?.isCancelled == true)
        await waitUntil("the connection is idle") { !connection.isBusy }
    }
}
