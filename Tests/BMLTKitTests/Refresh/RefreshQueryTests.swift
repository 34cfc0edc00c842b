import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// Everywhere a list is refreshed: a `BMLTMeetingQuery`'s pull-to-refresh after a complete refresh reads only what
/// changed; other criteria download whole; the fire-and-forget form fills `connection.search` with the whole list and
/// posts one `.bmltMeetingSearchResults`. On the 4.2.7 stand-in (`RefreshStandIn`, built from `rootserver-42/`).
@Suite("Refresh: a meeting query's pull-to-refresh and the search store", .serialized, .needsCorpus)
@MainActor
struct RefreshQueryTests {
    @Test("a query's second refresh reads the change log and the changed meetings only, and equals a new download")
    func queryRefreshReadsChanges() async throws {
        let stand = try RefreshStandIn(.v42, seed: 48)
        let connection = try await RefreshTesting.connection(stand)
        let query = BMLTMeetingQuery(connection, criteria: RefreshTesting.weekdays)
        await query.refresh()
        #expect(query.isComplete && !query.meetings.isEmpty)
        for _ in 0..<3 {
            stand.randomEdit([.rename, .weekday, .time, .delete, .create, .unpublish])
            let mark = stand.server.requests.count
            await query.refresh()
            let asked = stand.server.requests[mark...]
            let download = try await connection.meetings(matching: RefreshTesting.weekdays)
            #expect(query.isComplete && query.lastError == nil)
            #expect(query.meetings == download.meetings, "the query's list equals a new download")
            #expect(asked.contains { $0.query("switcher") == "GetChanges" })
            #expect(!asked.contains(where: RefreshTesting.isWholeDownload),
                    "no whole download")
        }
        // Other criteria: the whole list of those.
        query.criteria = BMLTSearchCriteria()
        let mark = stand.server.requests.count
        await query.refresh()
        #expect(stand.server.requests[mark...].contains(where: RefreshTesting.isWholeDownload))
        let whole = try await connection.meetings(matching: BMLTSearchCriteria()).meetings
        #expect(query.meetings == whole)
    }

    @Test("2.16.6: a whole region's query after meetings published, unpublished and moved holds what a download holds")
    func legacyQueryRefresh() async throws {
        let stand = try RefreshStandIn(.v2, seed: 1514)
        let connection = try await RefreshTesting.connection(stand)
        let query = BMLTMeetingQuery(connection, criteria: BMLTSearchCriteria())
        await query.refresh()
        #expect(query.isComplete && !query.meetings.isEmpty)
        stand.change(6, ["meeting_name": "Renamed, still unpublished"])   // named by the change log, never in the list
        for edits in [[RefreshStandIn.Edit.unpublish, .rename], [.publish, .weekday], [.unpublish, .time, .create]] {
            for edit in edits { stand.edit(edit) }
            let mark = stand.server.requests.count
            await query.refresh()
            let asked = stand.server.requests[mark...]
            let download = try await connection.meetings(matching: BMLTSearchCriteria())
            #expect(query.lastError == nil && query.meetings == download.meetings,
                    "\(edits): \(query.meetings.count) meetings against \(download.meetings.count)")
            #expect(!query.meetings.contains { $0.isPublished != true }, "no unpublished meeting")
            #expect(asked.contains { $0.query("switcher") == "GetChanges" } && !asked.contains(where: RefreshTesting.isWholeDownload))
        }
    }

    @Test("the fire-and-forget form fills the search store with the whole list and posts one search result")
    func storeRefresh() async throws {
        let stand = try RefreshStandIn(.v2, seed: 49)
        let recorder = EventRecorder()
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = hangGuardTimeout   // a hang guard: these tests are not about the deadline (issue 50)
        configuration.retryPolicy = .none
        configuration.eventMonitors = [recorder]
        let connection = BMLTConnection(rootServerURL: stand.rootURL, configuration: configuration)
        _ = try await connection.validate()
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        stand.edit(.rename)
        stand.edit(.delete)
        recorder.removeAll()
        let request = connection.searchMeetings(BMLTSearchCriteria(), updating: list)
        var spins = 0   // a bound with huge room (two minutes), not a timing assertion
        while !request.isFinished || connection.search.meetings.isEmpty, spins < 12_000 {
            spins += 1
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let download = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(connection.search.meetings == download.meetings)
        let results = recorder.all.compactMap { event -> [BMLTMeeting]? in
            if case .meetingSearchResults(let meetings, let of) = event, of === request { return meetings }
            return nil
        }
        #expect(results.count == 1 && results.first == download.meetings, "one notification with the whole list")
    }
    @Test("a host reading only connection.events finds a refresh's delta on the search's request (review R11)")
    func deltaOnTheEventsSequence() async throws {
        let stand = try RefreshStandIn(.v42, seed: 50)
        let connection = try await RefreshTesting.connection(stand)
        let list = try await connection.meetings(matching: BMLTSearchCriteria())
        let renamed = stand.edit(.rename)
        stand.edit(.delete)
        // As a host does: the sequence made before the call, read in a task of its own until the search's result.
        let events = connection.events
        let reader = Task { @MainActor () -> (delta: BMLTSearchDelta?, kind: BMLTRequestKind)? in
            for await event in events {
                if case .meetingSearchResults(_, let request) = event { return (request.searchDelta, request.kind) }
            }
            return nil
        }
        let fresh = try await connection.meetings(matching: BMLTSearchCriteria(), updating: list)
        let seen = try #require(await reader.value, "the events sequence carried the search's result")
        let delta = try #require(fresh.delta, "brought up to date from the change log: \(renamed)")
        #expect(seen.kind == .meetingSearch)
        #expect(seen.delta == delta, "the request in the event carries the same delta as the results")
        #expect(!(delta.added + delta.changed + delta.removed).isEmpty, "the edits show in the delta: \(delta)")
        // A whole download's request carries none.
        let whole = connection.events
        let second = Task { @MainActor () -> BMLTSearchDelta?? in
            for await event in whole {
                if case .meetingSearchResults(_, let request) = event { return .some(request.searchDelta) }
            }
            return nil
        }
        _ = try await connection.meetings(matching: BMLTSearchCriteria())
        let none = try #require(await second.value)
        #expect(none == nil)
    }
}
