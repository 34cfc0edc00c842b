import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// `BMLTMeetingQuery` refreshed the way a SwiftUI view does (`@MainActor`, `.task` / `.refreshable` awaiting
/// `refresh()`), over real sockets: a later refresh that fails or is cancelled leaves the previous list (its own
/// meetings in `meetingsSoFar`); a superseded refresh's caller returns when the newer refresh's data is there; under
/// `.cacheThenNetwork` the cached list is shown first. The replies are `MeetingQueryTests.body`'s: the 2.16.6
/// `GetSearchResults` shape with `get_used_formats` (`rootserver/json_GetSearchResults_get_used_formats.json`).
@Suite("Meeting queries: previous list kept, superseded callers wait, cached list first (loopback)", .serialized)
@MainActor
struct MeetingQueryRefreshTests {
    /// Tuesday's list as the server holds it at first, and after it changed.
    nonisolated static let before = MeetingQueryTests.body(first: 1001, count: 200)
    nonisolated static let after = MeetingQueryTests.body(first: 5001, count: 200)

    /// Tuesday's searches answered in turn by `replies` (the last one again once they run out); anything else healthy.
    nonisolated static func server(_ replies: [LoopbackHTTPServer.Behavior]) throws -> (LoopbackHTTPServer, Locked<Int>) {
        let searches = Locked(0)
        let server = try LoopbackHTTPServer { request in
            guard request.query("switcher") == "GetSearchResults" else { return LoopbackTransportTests.healthy(request) }
            let index = searches.withLock { count -> Int in
                count += 1
                return count - 1
            }
            return replies[min(index, replies.count - 1)]
        }
        return (server, searches)
    }

    private func connection(_ server: LoopbackHTTPServer, cache: BMLTResponseCache? = nil) async throws -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = hangGuardTimeout   // a hang guard: these tests are not about the deadline (issue 50)
        configuration.retryPolicy = .none
        if let cache {
            configuration.cache = cache
            configuration.cachePolicy = .cacheThenNetwork
        }
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        _ = try await connection.validate()
        return connection
    }

    private static var tuesday: BMLTSearchCriteria {
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.tuesday]
        return criteria
    }

    @Test("a pull-to-refresh cancelled or failing mid-stream keeps the previous whole list; its meetings so far apart")
    func laterRefreshKeepsPreviousList() async throws {
        let gate = LoopbackGate()
        defer { gate.open() }
        let (server, searches) = try Self.server([
            .respond(status: 200, headers: ["Content-Type": "application/json"], body: Self.before),
            .gated(status: 200, body: Self.after, firstBytes: 16_384, gate: gate),
            .closeMidBody(body: Self.after, bytes: 16_384),
            .respond(status: 200, headers: ["Content-Type": "application/json"], body: Self.after),
        ])
        defer { server.stop() }
        let connection = try await connection(server)
        let held = try BMLTSearchResults(jsonData: Self.before).meetings.map(\.id)
        let changed = try BMLTSearchResults(jsonData: Self.after).meetings.map(\.id)
        let query = BMLTMeetingQuery(connection, criteria: Self.tuesday)
        await query.refresh()
        #expect(query.meetings.map(\.id) == held && query.meetingsSoFar.map(\.id) == held && query.isComplete)

        // A pull-to-refresh: its first meetings arrive (the rest held back), the list on screen stays whole.
        let pull = Task { await query.refresh() }
        await waitUntil("query.isLoading && !query.meetingsSoFar.isEmpty") { query.isLoading && !query.meetingsSoFar.isEmpty }
        #expect(query.isLoading && !query.isComplete)
        #expect(query.meetings.map(\.id) == held, "the previous list was replaced by the first batch of the new one")
        #expect(query.meetingsSoFar.count < changed.count && query.meetingsSoFar.allSatisfy { $0.id > 5000 })
        query.cancel()
        await pull.value
        #expect(query.lastError == .cancelled && !query.isLoading && !query.isComplete)
        #expect(query.meetings.map(\.id) == held, "a cancelled refresh left a half list")
        #expect(!query.meetingsSoFar.isEmpty && query.meetingsSoFar.count < changed.count)

        // The reply cut off mid-body: the refresh fails, the previous list stays.
        await query.refresh()
        #expect(query.lastError != nil && query.lastError != .cancelled && !query.isComplete)
        #expect(query.meetings.map(\.id) == held, "a failed refresh left a half list")

        // The next success replaces the list whole.
        await query.refresh()
        #expect(query.meetings.map(\.id) == changed && query.meetingsSoFar.map(\.id) == changed && query.isComplete && query.lastError == nil)
        #expect(searches.withLock { $0 } == 4)
    }

    @Test("a superseded refresh's caller returns once the newer refresh's meetings are in (a .refreshable spinner)")
    func supersededCallerWaitsForNewer() async throws {
        let monday = LoopbackGate(), tuesday = LoopbackGate()
        defer { monday.open(); tuesday.open() }
        let server = try MeetingQueryTests.server(gates: (monday, tuesday))
        defer { server.stop() }
        let connection = try await connection(server)
        let expectedTuesdays = try BMLTSearchResults(jsonData: MeetingQueryTests.tuesdays).meetings.map(\.id)
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.monday]
        let query = BMLTMeetingQuery(connection, criteria: criteria)
        // What the older caller sees when its `refresh()` returns (a spinner stops there).
        let olderSaw = Locked<(complete: Bool, meetings: [BMLTMeeting])?>(nil)
        let older = Task { @MainActor in
            await query.refresh()
            let seen = (complete: query.isComplete, meetings: query.meetings)
            olderSaw.withLock { $0 = seen }
        }
        await waitUntil("!query.meetings.isEmpty") { !query.meetings.isEmpty }             // Monday's first meetings are shown
        let olderRequest = try #require(query.request)
        query.criteria = Self.tuesday
        let newer = Task { @MainActor in await query.refresh() }
        // The older search is cancelled and over; Tuesday's reply is still held back.
        await waitUntil("the older request is cancelled and gone") { olderRequest.isCancelled && !connection.inFlightRequests.contains { $0 === olderRequest } }
        // Room for a wrong early return (a lower bound only: with the fix nothing can end before the gate opens).
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(olderSaw.withLock { $0 } == nil, "the superseded refresh returned before the newer one's meetings arrived")
        #expect(query.isLoading)
        tuesday.open()
        await newer.value
        await older.value
        let saw = olderSaw.withLock { $0 }
        #expect(saw?.complete == true && saw?.meetings.map(\.id) == expectedTuesdays)
        #expect(query.meetings.map(\.id) == expectedTuesdays && query.isComplete && !query.isLoading)

        // A superseded caller whose own task is cancelled (its view went away) returns at once, the newer refresh
        // (Monday's, held back) still running.
        let shown = try #require(query.request)
        query.criteria = criteria
        let gone = Task { @MainActor in await query.refresh() }
        await waitUntil("query.request !== shown") { query.request !== shown }
        let goneRequest = try #require(query.request)
        let last = Task { @MainActor in await query.refresh() }
        await waitUntil("the request is cancelled and gone") { goneRequest.isCancelled && !connection.inFlightRequests.contains { $0 === goneRequest } }
        // Only if the cancelled caller kept waiting: the newer reply goes on after a while, so the test ends.
        let safety = Task { try await Task.sleep(nanoseconds: 10_000_000_000); monday.open() }
        gone.cancel()
        await gone.value
        #expect(query.isLoading && !monday.wasOpened, "the cancelled superseded caller waited for the newer refresh")
        monday.open()
        safety.cancel()
        await last.value
        #expect(query.isComplete && query.meetings.count == 300 && query.meetings.allSatisfy { $0.id < 1000 })
    }

    @Test(".cacheThenNetwork: a new view's query shows the cached list at once, then the server's whole; offline it stays")
    func cachedListFirst() async throws {
        let gate = LoopbackGate()
        defer { gate.open() }
        let (server, _) = try Self.server([
            .respond(status: 200, headers: ["Content-Type": "application/json"], body: Self.before),
            .closeMidBody(body: Self.after, bytes: 16_384),
            .gated(status: 200, body: Self.after, firstBytes: 16_384, gate: gate),
        ])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-query-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try await connection(server, cache: BMLTResponseCache(directory: directory, maximumBytes: 10_000_000))
        let held = try BMLTSearchResults(jsonData: Self.before).meetings.map(\.id)
        let changed = try BMLTSearchResults(jsonData: Self.after).meetings.map(\.id)
        let first = BMLTMeetingQuery(connection, criteria: Self.tuesday)
        await first.refresh()                                   // nothing cached yet: the server's list, now cached
        #expect(first.meetings.map(\.id) == held && first.isComplete && !first.isFromCache)

        // Offline (the reply cut off): a new view's query shows the cached list, and keeps it with the error.
        let offline = BMLTMeetingQuery(connection, criteria: Self.tuesday)
        await offline.refresh()
        #expect(offline.meetings.map(\.id) == held && offline.isFromCache && !offline.isComplete)
        #expect(offline.lastError != nil && offline.lastError != .cancelled)

        // Another view's query: the cached list at once, whole, while the server's reply is held back.
        let list = BMLTMeetingQuery(connection, criteria: Self.tuesday)
        let refresh = Task { @MainActor in await list.refresh() }
        await waitUntil("!list.meetings.isEmpty") { !list.meetings.isEmpty }
        #expect(list.meetings.map(\.id) == held, "the first meetings shown were not the cached list")
        #expect(list.isFromCache && list.isLoading && !list.isComplete)
        await waitUntil("!list.meetingsSoFar.isEmpty") { !list.meetingsSoFar.isEmpty }
        #expect(list.meetings.map(\.id) == held, "the server's first batch replaced the cached list")
        gate.open()
        await refresh.value
        #expect(list.meetings.map(\.id) == changed && list.isComplete && !list.isFromCache && list.lastError == nil)
    }
}
