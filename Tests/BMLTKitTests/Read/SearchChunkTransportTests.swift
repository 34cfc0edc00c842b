import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Observation
import Testing
@testable import BMLTKit

/// Searches over real sockets with the chunked decoder: the body is decoded while it arrives, retries after a body cut
/// short start over with a new decoder, a custom transport's whole body goes through the same decoder, non-2xx
/// answers keep their body for the error, and a cached search stores the body it decoded.
@Suite("Search bodies decoded while they arrive (loopback)", .serialized)
@MainActor
struct SearchChunkTransportTests {
    /// A search reply of 400 meetings, about 100 KB.
    nonisolated static let body: Data = {
        let meetings = (1...400).map { index in
            #"{"id_bigint":"\#(index)","service_body_bigint":"3","weekday_tinyint":"\#(index % 7 + 1)","start_time":"19:30:00","duration_time":"01:00:00","meeting_name":"Meeting \#(index) — Ñandú","location_text":"Hall \#(index)","location_street":"\#(index) Main Street","location_municipality":"Springfield","formats":"O,C","format_shared_id_list":"17,4","latitude":"40.5","longitude":"-73.25","published":"1"}"#
        }
        return Data(("[" + meetings.joined(separator: ",") + "]").utf8)
    }()

    nonisolated static func answer(_ request: LoopbackHTTPServer.Request, search: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
        request.query("switcher") == "GetSearchResults" ? search : LoopbackTransportTests.healthy(request)
    }

    /// A server whose searches are answered by their number (1 for the first) and every other request as a healthy
    /// server would; also the number of searches asked so far.
    static func numberedSearches(_ search: @escaping @Sendable (Int) -> LoopbackHTTPServer.Behavior) throws -> (LoopbackHTTPServer, Locked<Int>) {
        let count = Locked(0)
        let server = try LoopbackHTTPServer { request in
            guard request.query("switcher") == "GetSearchResults" else { return LoopbackTransportTests.healthy(request) }
            return search(count.withLock { $0 += 1; return $0 })
        }
        return (server, count)
    }

    private func connection(_ server: LoopbackHTTPServer, edit: (inout BMLTConfiguration) -> Void = { _ in }) -> BMLTConnection {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        edit(&configuration)
        return BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
    }

    private var expected: [BMLTMeeting] {
        get throws { try BMLTSearchResults(jsonData: Self.body).meetings }
    }

    @Test("a body sent in 4 KB pieces: the transport hands each piece to the decoder as it arrives, none kept")
    func piecesReachTheDecoder() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .drip(status: 200, body: Self.body, chunkSize: 4096, interval: 0.005))
        }
        defer { server.stop() }
        let transport = Transport(configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let recorder = PieceRecorder()
        let url = server.baseURL.appendingPathComponent("main_server/client_interface/json/")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "switcher", value: "GetSearchResults")]
        let reply = try await transport.send(transport.makeRequest(components.url!), consumer: { length in
            recorder.expectedLength = length
            return recorder
        })
        #expect(reply.data.isEmpty, "the body was also collected")
        #expect(reply.consumer === recorder)
        #expect(reply.bodyLength == Self.body.count)
        #expect(recorder.expectedLength == Self.body.count)
        #expect(recorder.pieces.count >= 10, "only \(recorder.pieces.count) pieces")
        #expect(recorder.pieces.reduce(Data(), +) == Self.body)
    }

    @Test("a search over a dripping server gives exactly the whole-body decoder's meetings")
    func dripped() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .drip(status: 200, body: Self.body, chunkSize: 1000, interval: 0.001))
        }
        defer { server.stop() }
        let meetings = try await connection(server).meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let wanted = try expected
        #expect(meetings == wanted)
        #expect(meetings.count == 400)
    }

    @Test("a body cut short, then retried: the retry decodes afresh (no meeting twice, none from the cut attempt)")
    func retriedAfterCut() async throws {
        let (server, attempts) = try Self.numberedSearches { attempt in
            attempt == 1 ? .closeMidBody(body: Self.body, bytes: Self.body.count / 2) : .respond(status: 200, headers: [:], body: Self.body)
        }
        defer { server.stop() }
        let connection = connection(server) { $0.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.01) }
        let meetings = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        #expect(attempts.withLock { $0 } == 2)
        let wanted = try expected
        #expect(meetings == wanted)
    }

    @Test("a body cut short and not retried: a broken reply, and the meetings held before are kept")
    func cutNotRetried() async throws {
        let (server, _) = try Self.numberedSearches { search in
            search == 1 ? .respond(status: 200, headers: [:], body: Self.body) : .closeMidBody(body: Self.body, bytes: Self.body.count / 2)
        }
        defer { server.stop() }
        let connection = connection(server)
        _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
        await #expect(throws: BMLTError.self) {
            _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
        }
        guard case .brokenReply? = connection.search.lastError else {
            Issue.record("expected a broken reply, got \(String(describing: connection.search.lastError))")
            return
        }
        let wantedFirst = try expected
        #expect(connection.search.meetings == wantedFirst, "the first search's meetings were lost")
    }

    @Test("an error status keeps its body for the error's message (never given to the decoder)")
    func errorStatus() async throws {
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, search: .respond(status: 500, headers: [:], body: Data(#"{"message":"database is down"}"#.utf8)))
        }
        defer { server.stop() }
        do {
            _ = try await connection(server).meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
            Issue.record("a 500 was accepted")
        } catch let error as BMLTError {
            #expect(error == .httpStatus(code: 500, message: "database is down"))
        }
    }

    @Test("PHP notices after a streamed body: salvaged, and the warning is logged as before")
    func phpNoticeAfter() async throws {
        let noisy = Self.body + Data("\n<br />\n<b>Warning</b>:  Undefined array key 3 in /var/www/main_server/x.php on line 7<br />\n".utf8)
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: .respond(status: 200, headers: [:], body: noisy)) }
        defer { server.stop() }
        let lines = Locked<[String]>([])
        let connection = connection(server) {
            $0.logLevel = .errors
            $0.logHandler = { _, line in lines.withLock { $0.append(line) } }
        }
        let meetings = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let wanted = try expected
        #expect(meetings == wanted)
        #expect(lines.withLock { $0 }.contains { $0.contains("display_errors") && $0.contains("Undefined array key 3") })
    }

    @Test("an app's own transport: its whole body goes through the same decoder")
    func customTransport() async throws {
        let server = try LoopbackHTTPServer { request in Self.answer(request, search: .respond(status: 200, headers: [:], body: Self.body)) }
        defer { server.stop() }
        let connection = connection(server) { $0.httpTransport = SocketTransport() }
        let meetings = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let wanted = try expected
        #expect(meetings == wanted)
    }

    @Test("a cached search stores the body it decoded while it arrived; the cache then answers the same meetings")
    func cachedWhileStreamed() async throws {
        let up = Locked(true)
        let server = try LoopbackHTTPServer { request in
            guard up.withLock({ $0 }) else { return .respond(status: 503, headers: [:], body: Data()) }
            return Self.answer(request, search: .drip(status: 200, body: Self.body, chunkSize: 8192, interval: 0.001))
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-chunk-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = connection(server) {
            $0.cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
            $0.cachePolicy = .networkElseCache
        }
        let first = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        up.withLock { $0 = false }
        let second = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let wanted = try expected
        #expect(first == wanted)
        #expect(second == first)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty && !files.contains { $0.hasPrefix(".tmp") }, "\(files)")
    }

    @Test("a cached search cut short, then retried: one entry, written from the retry, no temporary file left")
    func cachedRetry() async throws {
        let (server, attempts) = try Self.numberedSearches { attempt in
            attempt == 1 ? .closeMidBody(body: Self.body, bytes: Self.body.count / 3)
                : .drip(status: 200, body: Self.body, chunkSize: 8192, interval: 0.001)
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-chunk-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
        let connection = connection(server) {
            $0.cache = cache
            $0.cachePolicy = .cacheElseNetwork
            $0.retryPolicy = BMLTRetryPolicy(maximumRetries: 1, baseDelay: 0.01)
        }
        let first = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty && !files.contains { $0.hasPrefix(".tmp") }, "\(files)")
        let second = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        #expect(attempts.withLock { $0 } == 2, "the second search went to the server instead of the cache")
        #expect(first == (try expected) && second == first)
    }
}

/// Records the pieces a transport hands over.
final class PieceRecorder: BodyConsumer, @unchecked Sendable {
    private let state = Locked<(pieces: [Data], length: Int?)>(([], nil))
    var pieces: [Data] { state.withLock { $0.pieces } }
    var expectedLength: Int? {
        get { state.withLock { $0.length } }
        set { state.withLock { $0.length = newValue } }
    }
    func consume(_ piece: Data) { state.withLock { $0.pieces.append(piece) } }
}

/// The search store's `meetings` is observed by hand (no comparison of the old and new lists on the main actor):
/// observers must still see every search that sets it, also one that finds the same meetings again.
@Suite("Search store observation")
@MainActor
struct SearchStoreObservationTests {
    @Test("withObservationTracking sees each search's meetings, the same ones again too, and not a formats-only search")
    func observed() async throws {
        let server = try LoopbackHTTPServer { request in
            SearchChunkTransportTests.answer(request, search: .respond(status: 200, headers: [:], body: SearchChunkTransportTests.body))
        }
        defer { server.stop() }
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout)
        configuration.retryPolicy = .none
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        let store = connection.search
        for round in 1...2 {
            let changed = Locked(false)
            withObservationTracking { _ = store.meetings } onChange: { changed.withLock { $0 = true } }
            _ = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
            #expect(changed.withLock { $0 }, "search \(round): the change of meetings was not observed")
            #expect(store.meetings.count == 400)
        }
        let changed = Locked(false)
        withObservationTracking { _ = store.meetings } onChange: { changed.withLock { $0 = true } }
        _ = try? await connection.meetings(matching: BMLTSearchCriteria(), extent: .formatsOnly)
        #expect(!changed.withLock { $0 }, "a formats-only search touched the meetings")
    }
}
