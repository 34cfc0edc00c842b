import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// `.cacheThenNetwork` brings a cached list up to date: the cache keeps each reply's server time (`Date` header), the
/// cached delivery carries it, and the network half reads the change log instead of downloading the list again; the
/// list it brings up to date is kept under the search's entry with its new server time (the next launch starts from
/// it). On the refresh stand-ins (`RefreshStandIn`, built from `rootserver-42/` and `rootserver-3x/`).
@Suite("Refresh: .cacheThenNetwork brings the cached list up to date", .serialized, .needsCorpus)
@MainActor
struct RefreshCacheTests {
    private static func connection(_ stand: RefreshStandIn, cache directory: URL, recorder: EventRecorder) async throws -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = hangGuardTimeout   // a hang guard: these tests are not about the deadline (issue 50)
        configuration.retryPolicy = .none
        configuration.cache = BMLTResponseCache(directory: directory, maximumBytes: 50_000_000)
        configuration.cachePolicy = .cacheThenNetwork
        configuration.eventMonitors = [recorder]
        let connection = BMLTConnection(rootServerURL: stand.rootURL, configuration: configuration)
        _ = try await connection.validate()
        return connection
    }

    /// The `.bmltMeetingSearchResults` events since the recorder was emptied: meetings, whether from the cache, delta.
    private static func searchResults(_ recorder: EventRecorder) -> [(meetings: [BMLTMeeting], fromCache: Bool, delta: BMLTSearchDelta?)] {
        recorder.all.compactMap { event in
            guard case .meetingSearchResults(let meetings, let request) = event else { return nil }
            return (meetings, request.isFromCache, request.searchDelta)
        }
    }

    @Test("4.2.7: the network half reads the change log, equals a new download; the next launch starts from the updated list")
    func cachedListBroughtUpToDate42() async throws { try await cachedListBroughtUpToDate(.v42) }

    @Test("3.1.2: the network half reads the change log, equals a new download; the next launch starts from the updated list")
    func cachedListBroughtUpToDate3() async throws { try await cachedListBroughtUpToDate(.v3) }

    @Test("2.16.6 (meeting_ids[] alone, unpublished meetings by id): the network half equals a new download")
    func cachedListBroughtUpToDate216() async throws { try await cachedListBroughtUpToDate(.v2) }

    private func cachedListBroughtUpToDate(_ generation: RefreshStandIn.Generation) async throws {
        let stand = try RefreshStandIn(generation, seed: 148)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-refresh-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = EventRecorder()
        let criteria = RefreshTesting.weekdays
        let connection = try await Self.connection(stand, cache: directory, recorder: recorder)
        let first = try await connection.meetings(matching: criteria)   // nothing cached yet: a whole download, kept
        #expect(first.delta == nil && !first.meetings.isEmpty)

        for edit in [RefreshStandIn.Edit.rename, .delete, .create, .time] { stand.edit(edit) }
        let plain = try await RefreshTesting.connection(stand)   // no cache: what a new download gives now
        let download = try await plain.meetings(matching: criteria)
        recorder.removeAll()
        let mark = stand.server.requests.count
        let fresh = try await connection.meetings(matching: criteria)
        let asked = stand.server.requests[mark...]
        #expect(fresh == download && fresh.meetings == download.meetings, "the network half equals a new download")
        #expect(fresh.delta == RefreshTesting.expectedDelta(from: first, to: download))
        #expect(asked.contains { $0.query("switcher") == "GetChanges" }, "the change log was read")
        #expect(!asked.contains(where: RefreshTesting.isWholeDownload),
                "no whole GetSearchResults")
        let delivered = Self.searchResults(recorder)
        #expect(delivered.count == 2, "the cached list, then the list brought up to date")
        #expect(delivered.first?.fromCache == true && delivered.first?.meetings == first.meetings)
        #expect(delivered.last?.fromCache == false && delivered.last?.meetings == download.meetings, "one whole list")
        #expect(delivered.last?.delta == fresh.delta && fresh.delta != nil, "the notification carries the delta")

        // The next launch: its cached delivery is the updated list, and it is brought up to date from its new time.
        stand.edit(.rename)
        let again = try await plain.meetings(matching: criteria)
        let recorder2 = EventRecorder()
        let next = try await Self.connection(stand, cache: directory, recorder: recorder2)
        let mark2 = stand.server.requests.count
        let third = try await next.meetings(matching: criteria)
        let delivered2 = Self.searchResults(recorder2)
        #expect(delivered2.first?.fromCache == true && delivered2.first?.meetings == download.meetings,
                "the cache kept the updated list")
        #expect(third.meetings == again.meetings && third.delta != nil)
        #expect(!stand.server.requests[mark2...].contains(where: RefreshTesting.isWholeDownload), "no whole GetSearchResults at the next launch either")
    }

    @Test("a meeting query under .cacheThenNetwork shows the cached list, then brings it up to date from the change log")
    func queryBringsCachedListUpToDate() async throws {
        let stand = try RefreshStandIn(.v42, seed: 150)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-refresh-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let criteria = RefreshTesting.weekdays
        let earlier = try await Self.connection(stand, cache: directory, recorder: EventRecorder())
        let cached = try await earlier.meetings(matching: criteria)   // the last launch's list, in the cache
        stand.edit(.rename)
        stand.edit(.time)
        let download = try await RefreshTesting.connection(stand).meetings(matching: criteria)
        let recorder = EventRecorder()
        let connection = try await Self.connection(stand, cache: directory, recorder: recorder)
        let query = BMLTMeetingQuery(connection, criteria: criteria)
        recorder.removeAll()
        let mark = stand.server.requests.count
        await query.refresh()
        let asked = stand.server.requests[mark...]
        #expect(query.isComplete && query.lastError == nil)
        #expect(query.meetings == download.meetings, "the query's list equals a new download")
        #expect(asked.contains { $0.query("switcher") == "GetChanges" })
        #expect(!asked.contains(where: RefreshTesting.isWholeDownload),
                "no whole download")
        let delivered = Self.searchResults(recorder)
        #expect(delivered.first?.fromCache == true && delivered.first?.meetings == cached.meetings, "the cached list first")
        #expect(delivered.last?.delta != nil)
    }

    @Test("a cached entry without a server time (written before it was kept) is a list downloaded whole, not a crash")
    func oldEntryDownloadsWhole() async throws {
        let stand = try RefreshStandIn(.v42, seed: 149)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-refresh-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = EventRecorder()
        let connection = try await Self.connection(stand, cache: directory, recorder: recorder)
        let criteria = RefreshTesting.weekdays
        _ = try await connection.meetings(matching: criteria)
        // Rewrite every entry as the previous version wrote it: the same header without `serverDate`.
        var rewritten = 0
        for url in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        where url.pathExtension == CacheKey.fileExtension {
            let file = try Data(contentsOf: url)
            let magicEnd = try #require(file.firstIndex(of: 0x0A))
            let headerEnd = try #require(file[(magicEnd + 1)...].firstIndex(of: 0x0A))
            var header = try #require(try JSONSerialization.jsonObject(with: file[(magicEnd + 1)..<headerEnd]) as? [String: Any])
            #expect(header.removeValue(forKey: "serverDate") != nil, "the entry kept the reply's server time")
            var old = file[...magicEnd]
            old.append(try JSONSerialization.data(withJSONObject: header))
            old.append(file[headerEnd...])
            try old.write(to: url)
            rewritten += 1
        }
        #expect(rewritten > 0)
        stand.edit(.rename)
        recorder.removeAll()
        let mark = stand.server.requests.count
        let fresh = try await connection.meetings(matching: criteria)
        #expect(fresh.delta == nil)
        #expect(Self.searchResults(recorder).first?.fromCache == true, "the old entry still answers the cached delivery")
        #expect(stand.server.requests[mark...].contains(where: RefreshTesting.isWholeDownload), "downloaded whole")
        let direct = try await RefreshTesting.connection(stand).meetings(matching: criteria).meetings
        #expect(fresh.meetings == direct)
    }
}
