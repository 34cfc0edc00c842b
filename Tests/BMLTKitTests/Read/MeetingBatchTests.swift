import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// `meetingBatches(matching:)` over real sockets: batches in the server's order that together are exactly
/// `meetings(matching:)`'s meetings; cut, retried, cancelled, cached, aggregator and non-JSON searches; a consumer that
/// stops reading; the search store's `meetingsSoFar` and `isComplete`.
@Suite("Meetings as they arrive (loopback)", .serialized)
@MainActor
struct MeetingBatchTests {
    /// The formats of `SampleReplies.formats`, as a search reply embeds them.
    nonisolated static let formatsJSON = SampleReplies.formats.replacingOccurrences(of: "\n", with: "")

    /// A `get_used_formats` reply of 400 meetings (about 110 KB), meetings first, then the formats (as every server
    /// version sends them).
    nonisolated static let body: Data = {
        let meetings = (1...400).map { index in
            #"{"id_bigint":"\#(index)","service_body_bigint":"3","weekday_tinyint":"\#(index % 7 + 1)","start_time":"19:30:00","duration_time":"01:00:00","meeting_name":"Meeting \#(index)","location_text":"Hall \#(index)","location_street":"\#(index) Main Street","location_municipality":"Springfield","formats":"O,BT","format_shared_id_list":"17,3","latitude":"40.5","longitude":"-73.25","published":"1"}"#
        }
        return Data((#"{"meetings":["# + meetings.joined(separator: ",") + #"],"formats":"# + formatsJSON + "}").utf8)
    }()

    nonisolated static func answer(_ request: LoopbackHTTPServer.Request, search: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
        request.query("switcher") == "GetSearchResults" ? search : LoopbackTransportTests.healthy(request)
    }

    /// A body sent slowly enough that it arrives in many pieces over about a second.
    nonisolated static let slowly = LoopbackHTTPServer.Behavior.drip(status: 200, body: body, chunkSize: 4096, interval: 0.04)

    /// `body`'s first 8 KiB (some 20 meetings) at once, the rest held until `gate` opens (or the server stops): "while
    /// the reply is still arriving" is then a state the test holds for certain. A drip's pace is a race a loaded machine
    /// can lose: behind a stall of seconds (seen under the thread sanitizer on two busy cores) the whole body is there
    /// at the first look.
    nonisolated static func held(_ body: Data = body, until gate: LoopbackGate) -> LoopbackHTTPServer.Behavior {
        .gated(status: 200, body: body, firstBytes: 8192, gate: gate)
    }

    private func connection(_ server: LoopbackHTTPServer, center: NotificationCenter = NotificationCenter(),
                            edit: (inout BMLTConfiguration) -> Void = { _ in }) async throws -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: center, timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        edit(&configuration)
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        _ = try await connection.validate()     // the server's formats, as a host's connect() loads them
        return connection
    }

    private var expected: [BMLTMeeting] {
        get throws { try BMLTSearchResults(jsonData: Self.body).meetings }
    }

    private func collect(_ stream: AsyncThrowingStream<[BMLTMeeting], any Error>) async -> (batches: [[BMLTMeeting]], error: (any Error)?) {
        var batches: [[BMLTMeeting]] = []
        do {
            for try await batch in stream { batches.append(batch) }
            return (batches, nil)
        } catch {
            return (batches, error)
        }
    }

    @Test("batches in the server's order, the first while the reply is still arriving; together exactly meetings(matching:)")
    func batchesAreTheResults() async throws {
        // The second search (the batches) holds the rest of its body until the test has its first batch.
        let gate = LoopbackGate()
        let searches = Locked(0)
        let server = try LoopbackHTTPServer { request in
            let second = request.query("switcher") == "GetSearchResults" && searches.withLock { $0 += 1; return $0 } == 2
            return Self.answer(request, search: second ? Self.held(until: gate) : Self.slowly)
        }
        defer { server.stop() }
        let connection = try await connection(server)
        let whole = try await connection.meetings(matching: BMLTSearchCriteria()).meetings
        let all = try expected
        #expect(whole == all && whole.first?.formats.map(\.name) == ["Open", "Basic Text"])
        var batches: [[BMLTMeeting]] = []
        var busyAtFirst = false
        for try await batch in connection.meetingBatches(matching: BMLTSearchCriteria()) {
            if batches.isEmpty { busyAtFirst = connection.isBusy }
            batches.append(batch)
            gate.open()
        }
        #expect(busyAtFirst, "the first batch came after the search had ended")
        #expect(batches.count >= 2, "one batch: nothing arrived before the whole reply")
        #expect(!batches.contains { $0.isEmpty })
        #expect(batches.flatMap { $0 } == whole)
        #expect(connection.search.isComplete && connection.search.meetingsSoFar == whole && connection.search.meetings == whole)
    }

    @Test("a connection not validated (no server formats yet): the batches still equal the results, formats resolved")
    func unvalidated() async throws {
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.slowly) }
        defer { server.stop() }
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [3]           // a narrowing filter: no GetServerInfo first
        let (batches, error) = await collect(connection.meetingBatches(matching: criteria))
        #expect(error == nil && connection.server.formats.isEmpty)
        let all = try expected
        #expect(batches.flatMap { $0 } == all && all.first?.formats.map(\.name) == ["Open", "Basic Text"])
    }

    @Test(".nearest(n): the n nearest of the server's answer (not its first n) as one batch at the end, equal to meetings(matching:)")
    func nearest() async throws {
        // 60 meetings (over a second of body in many pieces), the farthest first: the nearest 5 are the last 5 sent.
        let list = Data(("[" + (1...60).map { index in
            #"{"id_bigint":"\#(index)","service_body_bigint":"3","meeting_name":"M\#(index)","formats":"O","format_shared_id_list":"17","latitude":"\#(40.5 + Double(61 - index) * 0.01)","longitude":"-73.25","published":"1"}"#
        }.joined(separator: ",") + "]").utf8)
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .drip(status: 200, body: list, chunkSize: 512, interval: 0.03))
        }
        defer { server.stop() }
        let connection = try await connection(server)
        var criteria = BMLTSearchCriteria()
        criteria.location = .nearest(5, latitude: 40.5, longitude: -73.25)
        let (batches, error) = await collect(connection.meetingBatches(matching: criteria))
        #expect(error == nil)
        #expect(batches.count == 1, "a meeting handed over early might not be among the n kept")
        #expect(batches.flatMap { $0 }.map(\.id) == [56, 57, 58, 59, 60])
        let whole = try await connection.meetings(matching: criteria).meetings
        #expect(batches.flatMap { $0 } == whole)
    }

    @Test("a meetings-only (top-level list) reply streams the same way")
    func meetingsOnlyShape() async throws {
        let list = Data(("[" + (1...300).map { #"{"id_bigint":"\#($0)","service_body_bigint":"3","meeting_name":"M\#($0)","formats":"O","format_shared_id_list":"17"}"# }
            .joined(separator: ",") + "]").utf8)
        let gate = LoopbackGate()         // the rest of the list once the first batch is in
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(list, until: gate)) }
        defer { server.stop() }
        let connection = try await connection(server)
        var batches: [[BMLTMeeting]] = []
        var error: (any Error)?
        do {
            for try await batch in connection.meetingBatches(matching: BMLTSearchCriteria()) {
                batches.append(batch)
                gate.open()
            }
        } catch let thrown {
            error = thrown
        }
        #expect(error == nil)
        let whole = try await connection.meetings(matching: BMLTSearchCriteria()).meetings
        #expect(batches.flatMap { $0 } == whole && whole.count == 300 && batches.count >= 2)
        #expect(whole.first?.formats.map(\.key) == ["O"])
    }

    @Test("a reply cut midway: the whole meetings before the cut, then the error meetings(matching:) throws")
    func cut() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .closeMidBody(body: Self.body, bytes: Self.body.count / 2))
        }
        defer { server.stop() }
        let connection = try await connection(server)
        var plain: BMLTError?
        do { _ = try await connection.meetings(matching: BMLTSearchCriteria()) } catch let error as BMLTError { plain = error }
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        guard case .brokenReply? = plain else { Issue.record("expected a broken reply, got \(String(describing: plain))"); return }
        #expect(error as? BMLTError == plain)
        let got = batches.flatMap { $0 }
        let all = try expected
        #expect(got.count < all.count && Array(all.prefix(got.count)) == got, "a half-decoded or extra meeting")
        #expect(connection.search.isComplete && connection.search.meetingsSoFar == connection.search.meetings)
    }

    @Test("a consumer that stops reading, then a cut reply: it still gets the whole meetings that arrived, then the error")
    func slowConsumerCut() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .closeMidBody(body: Self.body, bytes: Self.body.count / 2))
        }
        defer { server.stop() }
        let connection = try await connection(server)
        let stream = connection.meetingBatches(matching: BMLTSearchCriteria())
        // Read nothing until the search has failed.
        await waitUntil("the search has failed") { connection.search.lastError != nil }
        let (batches, error) = await collect(stream)
        guard case .brokenReply? = error as? BMLTError else { Issue.record("expected a broken reply, got \(String(describing: error))"); return }
        let got = batches.flatMap { $0 }
        let all = try expected
        #expect(!got.isEmpty, "the meetings that arrived before the cut were dropped with the error")
        #expect(got.count < all.count && Array(all.prefix(got.count)) == got, "a half-decoded or extra meeting")
    }

    @Test("a cut reply retried: no meeting twice, together exactly the results")
    func retried() async throws {
        let (server, attempts) = try SearchChunkTransportTests.numberedSearches { attempt in
            attempt == 1 ? .closeMidBody(body: Self.body, bytes: Self.body.count / 2) : Self.slowly
        }
        defer { server.stop() }
        let connection = try await connection(server) { $0.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.01) }
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        #expect(error == nil)
        #expect(attempts.withLock { $0 } == 2)
        let got = batches.flatMap { $0 }
        #expect(Set(got.map(\.id)).count == got.count, "a meeting twice")
        let all = try expected
        #expect(got == all)
        #expect(connection.search.meetings == got)
    }

    @Test("a retry that lists other meetings: the stream stops and throws instead of mixing two lists")
    func retryDiverged() async throws {
        let other = Data(String(decoding: Self.body, as: UTF8.self).replacingOccurrences(of: #""id_bigint":"1""#, with: #""id_bigint":"9001""#).utf8)
        let (cutServer, attempts) = try SearchChunkTransportTests.numberedSearches { attempt in
            attempt == 1 ? .closeMidBody(body: Self.body, bytes: Self.body.count / 2) : .respond(status: 200, headers: [:], body: other)
        }
        defer { cutServer.stop() }
        let connection = try await connection(cutServer) { $0.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.01) }
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        #expect(attempts.withLock { $0 } == 2)
        let got = batches.flatMap { $0 }
        #expect(Set(got.map(\.id)).count == got.count)
        if got.isEmpty {
            // Nothing was handed over before the cut: the retry's list is simply the list.
            #expect(error == nil)
        } else {
            guard case .malformedResponse(_, let detail)? = error as? BMLTError else {
                Issue.record("expected the changed-list error, got \(String(describing: error))")
                return
            }
            guard case .listChangedOnRetry(let delivered) = detail else { Issue.record("\(detail)"); return }
            #expect(delivered > 0)
            #expect(detail.description.contains("changed between a cut reply and its retry"))
        }
        #expect(connection.search.meetings.first?.id == 9001, "the store has the retry's list, as meetings(matching:) would")
    }

    @Test("cancelling the consumer midway: no more batches, the loop ends, the request is cancelled: one .bmltRequestCancelled")
    func cancelled() async throws {
        // The rest of the body is held until the server stops: the cancellation always comes before the end.
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(until: LoopbackGate())) }
        defer { server.stop() }
        let center = NotificationCenter()
        let names = Locked<[Notification.Name]>([])
        let tokens = [Notification.Name.bmltRequestCancelled, .bmltMeetingSearchResults, .bmltError].map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { note in names.withLock { $0.append(note.name) } }
        }
        defer { tokens.forEach(center.removeObserver) }
        let connection = try await connection(server, center: center)
        let before = connection.search.meetings
        let stream = connection.meetingBatches(matching: BMLTSearchCriteria())
        let afterCancel = Locked<[[BMLTMeeting]]>([])
        let consumer = Task { @MainActor () -> (any Error)? in
            var cancelledYet = false
            do {
                for try await batch in stream {
                    if cancelledYet { afterCancel.withLock { $0.append(batch) } }
                    withUnsafeCurrentTask { $0?.cancel() }
                    cancelledYet = true
                }
                return nil
            } catch {
                return error
            }
        }
        let error = await consumer.value
        #expect(error == nil, "\(String(describing: error))")
        #expect(afterCancel.withLock { $0 }.isEmpty, "a batch after the cancellation")
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(names.withLock { $0 } == [.bmltRequestCancelled])
        #expect(connection.search.isComplete && connection.search.meetingsSoFar == before && connection.search.meetings == before)
    }

    @Test("a search cancelled by the host (cancelAllRequests): the stream throws BMLTError.cancelled after what it gave")
    func cancelledByHost() async throws {
        // The rest of the body is held until the server stops: the cancellation always comes before the end.
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(until: LoopbackGate())) }
        defer { server.stop() }
        let connection = try await connection(server)
        var batches: [[BMLTMeeting]] = []
        var thrown: (any Error)?
        do {
            for try await batch in connection.meetingBatches(matching: BMLTSearchCriteria()) {
                batches.append(batch)
                connection.cancelAllRequests()
            }
        } catch {
            thrown = error
        }
        #expect(thrown as? BMLTError == .cancelled)
        let all = try expected
        let got = batches.flatMap { $0 }
        #expect(!got.isEmpty && got.count < all.count && Array(all.prefix(got.count)) == got)
        #expect(connection.search.isComplete && connection.search.meetings.isEmpty && !connection.isBusy)
    }

    @Test("dropping the stream before its end cancels the search")
    func dropped() async throws {
        // The rest of the body is held until the server stops: the cancellation always comes before the end.
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(until: LoopbackGate())) }
        defer { server.stop() }
        let connection = try await connection(server)
        do {
            let stream = connection.meetingBatches(matching: BMLTSearchCriteria())
            for try await _ in stream { break }
        }
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(connection.search.meetings.isEmpty && connection.search.lastError == nil)
    }

    @Test("a consumer that stops reading: the download goes on, and what it did not take comes as one batch, never a queue")
    func slowConsumer() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .drip(status: 200, body: Self.body, chunkSize: 2048, interval: 0.005))
        }
        defer { server.stop() }
        let center = NotificationCenter()
        let connection = try await connection(server, center: center)
        let stream = connection.meetingBatches(matching: BMLTSearchCriteria())
        // Read nothing until the search has ended.
        await waitUntil("the search has ended with its meetings") {
            !connection.isBusy && connection.search.isComplete && !connection.search.meetings.isEmpty
        }
        let (batches, error) = await collect(stream)
        #expect(error == nil)
        #expect(batches.count == 1, "\(batches.count) batches were queued for a consumer that was not reading")
        let all = try expected
        #expect(batches.first == all)
    }

    @Test("the aggregator rule: refused before anything is sent, no batch", .needsCorpus)
    func aggregator() async throws {
        let stub = try AggregatorBehaviourTests.server(aggregator: true)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        #expect(batches.isEmpty)
        #expect(error as? BMLTError == .invalidArgument(.aggregatorSearchWithoutFilter))
        #expect(stub.requests.allSatisfy { $0.url?.query?.contains("GetSearchResults") != true })
    }

    @Test("a reply that is not JSON: no batch, the error meetings(matching:) throws")
    func notJSON() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .respond(status: 200, headers: ["Content-Type": "text/html"],
                                                  body: Data("<html><body>Maintenance</body></html>".utf8)))
        }
        defer { server.stop() }
        let connection = try await connection(server)
        var plain: BMLTError?
        do { _ = try await connection.meetings(matching: BMLTSearchCriteria()) } catch let error as BMLTError { plain = error }
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        #expect(plain != nil && batches.isEmpty && error as? BMLTError == plain)
    }

    @Test("cacheThenNetwork: the cached list reaches the store first; the stream's batches are the network's, exactly once")
    func cacheThenNetwork() async throws {
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.slowly) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-batch-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let center = NotificationCenter()
        let results = Locked<[(count: Int, fromCache: Bool)]>([])
        let token = center.addObserver(forName: .bmltMeetingSearchResults, object: nil, queue: nil) { note in
            let entry = (note.bmltMeetings?.count ?? -1, note.bmltRequest?.isFromCache == true)
            results.withLock { $0.append(entry) }
        }
        defer { center.removeObserver(token) }
        let connection = try await connection(server, center: center) {
            $0.cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
            $0.cachePolicy = .cacheThenNetwork
        }
        let first = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        let all = try expected
        #expect(first.error == nil && first.batches.flatMap { $0 } == all)
        results.withLock { $0 = [] }
        var storeAtFirstBatch: (count: Int, complete: Bool)?
        var batches: [[BMLTMeeting]] = []
        for try await batch in connection.meetingBatches(matching: BMLTSearchCriteria()) {
            if batches.isEmpty { storeAtFirstBatch = (connection.search.meetings.count, connection.search.isComplete) }
            batches.append(batch)
        }
        #expect(batches.flatMap { $0 } == all, "the cached list was yielded too, or a batch twice")
        #expect(storeAtFirstBatch?.count == 400, "the cached list was not in the store before the network's batches")
        let seen = results.withLock { $0 }
        #expect(seen.count == 2 && seen.first?.fromCache == true && seen.last?.fromCache == false, "\(seen)")
    }

    @Test("cacheElseNetwork answered by the cache: one batch, the whole list")
    func answeredByCache() async throws {
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.slowly) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-batch-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try await connection(server) {
            $0.cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
            $0.cachePolicy = .cacheElseNetwork
        }
        _ = try await connection.meetings(matching: BMLTSearchCriteria())
        let searches = server.requests.filter { $0.query("switcher") == "GetSearchResults" }.count
        let (batches, error) = await collect(connection.meetingBatches(matching: BMLTSearchCriteria()))
        let all = try expected
        #expect(error == nil && batches.count == 1 && batches.first == all)
        #expect(server.requests.filter { $0.query("switcher") == "GetSearchResults" }.count == searches, "the cache did not answer")
    }

    @Test("each batch is announced (.bmltMeetingsArrived, running count) after progress start, before the one results notification")
    func announced() async throws {
        let gate = LoopbackGate()         // the rest of the body once the first batch has been announced
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(until: gate)) }
        defer { server.stop() }
        let center = NotificationCenter()
        let seen = Locked<[(name: Notification.Name, batch: [BMLTMeeting]?, count: Int?)]>([])
        let token = center.addObserver(forName: nil, object: nil, queue: .main) { note in
            let entry = (note.name, note.bmltMeetingBatch, note.bmltMeetingCount)
            seen.withLock { $0.append(entry) }
            if note.name == .bmltMeetingsArrived { gate.open() }
        }
        defer { center.removeObserver(token) }
        let connection = try await connection(server, center: center)
        await waitUntil("the connection is idle") { !connection.isBusy }
        // The validation's progress stop, delivered (on the main queue) before the list is cleared: waited for, not slept for.
        await waitUntil("the validation's progress stop is delivered") { seen.withLock { $0.contains { $0.name == .bmltProgressDidStop } } }
        seen.withLock { $0 = [] }
        let results = try await connection.meetings(matching: BMLTSearchCriteria())
        let events = seen.withLock { $0 }.filter { $0.name.rawValue.hasPrefix("org.bmlt.kit.") }
        let arrived = events.indices.filter { events[$0].name == .bmltMeetingsArrived }
        let start = events.firstIndex { $0.name == .bmltProgressDidStart }
        let final = events.indices.filter { events[$0].name == .bmltMeetingSearchResults }
        #expect(arrived.count >= 2 && final.count == 1, "\(events.map(\.name.rawValue))")
        if let start, let first = arrived.first, let last = arrived.last, let end = final.first {
            #expect(start < first && last < end, "\(events.map(\.name.rawValue))")
        } else {
            Issue.record("no progress start or no batch: \(events.map(\.name.rawValue))")
        }
        let batches = arrived.compactMap { events[$0].batch }
        #expect(batches.flatMap { $0 } == results.meetings)
        var running = 0
        let expectedCounts = batches.map { running += $0.count; return running }
        #expect(arrived.compactMap { events[$0].count } == expectedCounts)
    }

    @Test("plain searches fill meetingsSoFar as they arrive too, and end with it equal to meetings")
    func storeWhileArriving() async throws {
        let gate = LoopbackGate()         // the rest of the body once the store has shown a partial list
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: Self.held(until: gate)) }
        defer { server.stop() }
        let connection = try await connection(server)
        let store = connection.search
        let request = connection.searchMeetings(BMLTSearchCriteria())
        var partial: [Int] = []
        while !request.isFinished {
            if !store.isComplete { partial.append(store.meetingsSoFar.count) }
            if !store.isComplete && store.meetingsSoFar.count > 0 { gate.open() }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        await waitUntil("the connection is idle") { !connection.isBusy }
        #expect(!partial.isEmpty, "the store never showed a partial list")
        #expect(partial.allSatisfy { $0 > 0 && $0 <= 400 } && partial == partial.sorted())
        let all = try expected
        #expect(store.isComplete && store.meetingsSoFar == store.meetings && store.meetings == all)
    }
}

/// The search store's partial list, by its rules.
@Suite("Search store: meetings so far")
@MainActor
struct SearchStoreArrivalTests {
    @Test("batches add up; the end shows the results; another search's batches replace, a stale end is ignored")
    func rules() {
        let store = BMLTSearchStore()
        let first = BMLTRequest(kind: .meetingSearch), second = BMLTRequest(kind: .meetingSearch)
        let meetings = (1...6).map { BMLTMeeting(id: $0, serviceBodyID: 1) }
        #expect(store.isComplete && store.meetingsSoFar.isEmpty)
        store.arrive(Array(meetings[0..<2]), of: first)
        store.arrive(Array(meetings[2..<3]), of: first)
        #expect(!store.isComplete && store.meetingsSoFar.map(\.id) == [1, 2, 3])
        store.arrive(Array(meetings[3..<4]), of: second)
        #expect(store.meetingsSoFar.map(\.id) == [4])
        store.endArrival(of: first)
        #expect(!store.isComplete && store.meetingsSoFar.map(\.id) == [4], "an older search's end took over")
        store.meetings = meetings
        store.endArrival(of: second)
        #expect(store.isComplete && store.meetingsSoFar == meetings)
        store.meetings.removeAll { $0.id == 3 }     // a deletion saved while no search arrives
        #expect(store.meetingsSoFar.map(\.id) == [1, 2, 4, 5, 6])
    }

    @Test("two searches at once (search as you type): the one begun last owns the partial list; the older one's batches and end do not show")
    func overlapping() {
        let store = BMLTSearchStore()
        let older = BMLTRequest(kind: .meetingSearch), newer = BMLTRequest(kind: .meetingSearch)
        let meetings = (1...8).map { BMLTMeeting(id: $0, serviceBodyID: 1) }
        store.beginArrival(of: older)
        store.arrive(Array(meetings[0..<2]), of: older)
        store.beginArrival(of: newer)
        store.arrive(Array(meetings[4..<5]), of: newer)
        store.arrive(Array(meetings[2..<3]), of: older)        // the older search's next batch: not mixed in
        #expect(!store.isComplete && store.meetingsSoFar.map(\.id) == [5])
        store.arrive(Array(meetings[5..<6]), of: newer)
        #expect(store.meetingsSoFar.map(\.id) == [5, 6])
        store.meetings = Array(meetings[0..<4])                  // the older search's results land first
        store.endArrival(of: older)
        #expect(!store.isComplete && store.meetingsSoFar.map(\.id) == [5, 6], "the older search's end took over")
        store.meetings = Array(meetings[4..<8])
        store.endArrival(of: newer)
        #expect(store.isComplete && store.meetingsSoFar.map(\.id) == [5, 6, 7, 8])
        // A newer search that streams nothing (`.nearest(n)`) still ends the partial list of an older one.
        let third = BMLTRequest(kind: .meetingSearch), fourth = BMLTRequest(kind: .meetingSearch)
        store.beginArrival(of: third)
        store.arrive(Array(meetings[0..<1]), of: third)
        store.beginArrival(of: fourth)
        store.meetings = Array(meetings[1..<3])
        store.endArrival(of: fourth)
        #expect(store.isComplete && store.meetingsSoFar.map(\.id) == [2, 3])
    }
}

/// The batcher across attempts of one request (a cut reply retried).
@Suite("Search batcher: attempts")
struct SearchBatcherAttemptTests {
    @Test("a retry is told apart by its attempt number (not its consumer's address, which a freed consumer may leave to the next): what was handed over is skipped once, the rest handed over")
    func retryByNumber() {
        let delivered = Locked<[[Int]]>([])
        let batcher = SearchBatcher(serverFormats: []) { batch in delivered.withLock { $0.append(batch.map(\.id)) } }
        let meetings = (1...5).map { BMLTMeeting(id: $0, serviceBodyID: 1) }
        let first = batcher.beginAttempt()
        batcher.offer(Array(meetings[0..<3]), attempt: first)
        let retry = batcher.beginAttempt()
        #expect(retry != first)
        batcher.offer(Array(meetings[0..<2]), attempt: retry)     // already handed over: skipped
        batcher.offer(Array(meetings[2..<4]), attempt: retry)     // 3 skipped, 4 new
        #expect(batcher.handedCount == 4)
        batcher.finish(meetings)
        #expect(delivered.withLock { $0 } == [[1, 2, 3], [4], [5]])
        #expect(!batcher.hasDiverged)
    }
}

/// A search reply's side list of formats never costs its meetings.
@Suite("Damaged format lists beside meetings")
struct DamagedFormatListTests {
    /// The real shape: good `formats` keys on the meetings, a trimmed list whose entries have no `id`.
    static let idless = """
    {"meetings":[{"id_bigint":"11","service_body_bigint":"2","meeting_name":"A","formats":"O,C,WC"},\
    {"id_bigint":"12","service_body_bigint":"2","meeting_name":"B","formats":"C"},\
    {"id_bigint":"13","service_body_bigint":"2","meeting_name":"C","formats":"O"}],\
    "formats":[\((1...11).map { #"{"key_string":"K\#($0)","name_string":"N\#($0)","world_id":"W","root_server_uri":"https://x"}"# }.joined(separator: ","))]}
    """

    static func variant(_ formats: String) -> String {
        #"{"meetings":[{"id_bigint":"11","service_body_bigint":"2","formats":"O,C","format_shared_id_list":"17,4"}],"formats":"# + formats + "}"
    }

    /// Every decoder path: the single pass, the reference tree, and the chunked decoder fed byte by byte.
    static func decodeAllWays(_ json: String) throws -> [BMLTSearchResults] {
        let data = Data(json.utf8)
        var chunks = WireSearchChunks(query: [], serverFormats: [])
        for byte in data { chunks.consume(Data([byte])) }
        return [try BMLTSearchResults(jsonData: data), try WireSearchStream.reference(data, serverFormats: []), try chunks.finish().results]
    }

    @Test("entries without an id: the three meetings, their keys as carried, 11 skipped")
    func idlessEntries() throws {
        for results in try Self.decodeAllWays(Self.idless) {
            #expect(results.meetings.map(\.id) == [11, 12, 13])
            #expect(results.meetings.map(\.formatKeys) == [["O", "C", "WC"], ["C"], ["O"]])
            #expect(results.formats.isEmpty && results.skippedFormats == 11)
        }
    }

    @Test("null, an object, text, mixed entries, ids the meetings do not use: the meetings are kept")
    func variants() throws {
        let cases: [(String, Int, Int)] = [
            ("null", 0, 1),
            (#"{"17":{"key_string":"O","id":"17"}}"#, 0, 1),
            (#""O""#, 0, 1),
            (#"[{"key_string":"O","id":"17","name_string":"Open"},null,3,{"name_string":"no id"}]"#, 1, 3),
            (#"[{"key_string":"Z","id":"99","name_string":"Unused"}]"#, 1, 0),
            ("{}", 0, 0),
        ]
        for (formats, kept, skipped) in cases {
            for results in try Self.decodeAllWays(Self.variant(formats)) {
                #expect(results.meetings.map(\.id) == [11], "\(formats)")
                #expect(results.meetings.first?.formatKeys == ["O", "C"] && results.meetings.first?.formatIDs == [17, 4], "\(formats)")
                #expect(results.formats.count == kept && results.skippedFormats == skipped, "\(formats): \(results.formats.count), \(results.skippedFormats)")
            }
        }
        let resolved = try Self.decodeAllWays(Self.variant(#"[{"key_string":"O","id":"17","name_string":"Open"},null]"#))
        #expect(resolved.allSatisfy { $0.meetings.first?.formats.map(\.name) == ["Open"] })
    }

    @Test("a formats-only reply is the answer itself: still refused when unreadable")
    func formatsOnlyStrict() {
        #expect(throws: BMLTError.self) { try BMLTSearchResults(jsonData: Data(#"{"formats":[{"key_string":"K"}]}"#.utf8)) }
    }

    @Test("over a connection: the search succeeds, the log and the result say what was left out")
    @MainActor
    func overAConnection() async throws {
        let server = try LoopbackHTTPServer { request in
            request.query("switcher") == "GetSearchResults" ? .json(Self.idless) : LoopbackTransportTests.healthy(request)
        }
        defer { server.stop() }
        let lines = Locked<[String]>([])
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.logLevel = .errors
        configuration.logHandler = { _, line in lines.withLock { $0.append(line) } }
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        let results = try await connection.meetings(matching: BMLTSearchCriteria())
        #expect(results.meetings.count == 3 && results.skippedFormats == 11)
        #expect(connection.search.lastError == nil && connection.search.meetings.count == 3)
        #expect(lines.withLock { $0 }.contains { $0.contains("11 entries without a usable id or key") }, "\(lines.withLock { $0 })")
        let (batches, error) = await {
            var batches: [[BMLTMeeting]] = []
            do { for try await batch in connection.meetingBatches(matching: BMLTSearchCriteria()) { batches.append(batch) } } catch { return (batches, error as Error?) }
            return (batches, nil)
        }()
        #expect(error == nil && batches.flatMap { $0 } == results.meetings)
    }
}
