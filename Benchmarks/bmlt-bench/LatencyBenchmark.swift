import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// What round trips cost: BMLTKit's calls against one bare `URLSession` GET of the same search, on a loopback server
/// that emulates a phone's network (a round trip per request and per new TCP connection, one shared downlink) and
/// keeps connections alive, as Apache does. The server answers with the 2.16.6 captures (read in place from
/// `../shared/fixtures/rootserver`; the pipeline benchmark's small replies when they are missing).
///
/// Run: `swift run -c release bmlt-bench --latency [--runs N]` (default 5 runs per cell; medians).
enum LatencyBenchmark {
    /// The network conditions measured: 300 ms and 250 KB/s (a phone on a poor cell), 50 ms and 5 MB/s.
    static let networks: [(name: String, conditions: LoopbackHTTPServer.Conditions)] = [
        ("300 ms round trip, 250 KB/s", .init(roundTrip: 0.3, bytesPerSecond: 250_000)),
        ("50 ms round trip, 5 MB/s", .init(roundTrip: 0.05, bytesPerSecond: 5_000_000)),
    ]

    /// The replies, by request: a real 2.16.6 server's.
    struct Replies: Sendable {
        var serverInfo, serviceBodies, formats, languages, search: Data
        var source: String
        /// The whole region's meetings (see `WholeRegionLatency`), for a search with no service-body or weekday filter.
        var wholeRegion = WholeRegionLatency.body().data
        /// A 3.1.2 server's GetServerInfo, GetServiceBodies and GetFormats (`show_all`), served under `/v3/` (no GetLangs.php).
        var modern: (serverInfo: Data, serviceBodies: Data, formats: Data)?

        static func load() -> Replies {
            let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let folder = here.deletingLastPathComponent().appendingPathComponent("shared/fixtures/rootserver")
            func file(_ name: String) -> Data? { try? Data(contentsOf: folder.appendingPathComponent(name)) }
            if let info = file("json_GetServerInfo.json"), let bodies = file("json_GetServiceBodies.json"),
               let formats = file("json_GetFormats_show_all.json"), let languages = file("json_GetLangs.json"),
               let search = file("json_GetSearchResults_services_1002.json") {
                let modernFolder = here.deletingLastPathComponent().appendingPathComponent("shared/fixtures/rootserver-3x")
                func modernFile(_ name: String) -> Data? { try? Data(contentsOf: modernFolder.appendingPathComponent(name)) }
                var modern: (Data, Data, Data)?
                if let info = modernFile("001-GetServerInfo.json"), let bodies = modernFile("004-GetServiceBodies.json"),
                   let formats = modernFile("003-GetFormats-show_all.json") {
                    modern = (info, bodies, formats)
                }
                return Replies(serverInfo: info, serviceBodies: bodies, formats: formats, languages: languages, search: search,
                               source: "2.16.6 captures (GetSearchResults&services[]=1002: \(search.count) bytes)", modern: modern)
            }
            return Replies(serverInfo: Data(PipelineBenchmark.serverInfo.utf8), serviceBodies: Data(PipelineBenchmark.serviceBodies.utf8),
                           formats: Data(PipelineBenchmark.formats.utf8), languages: Data(PipelineBenchmark.languages.utf8),
                           search: Payload.generated(count: 60), source: "small generated replies (the captures were not found)")
        }

        func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
            let body: Data
            if WholeRegionLatency.isWholeRegion(request) {
                body = wholeRegion
            } else if request.path.hasPrefix("/v3/"), let modern {
                switch request.query("switcher") {
                case "GetServerInfo": body = modern.serverInfo
                case "GetServiceBodies": body = modern.serviceBodies
                case "GetFormats": body = modern.formats
                case "GetSearchResults": body = search
                default: return .respond(status: 404, headers: ["Content-Type": "text/html"], body: Data("<html>Not Found</html>".utf8))
                }
            } else if request.path.hasSuffix("GetLangs.php") {
                body = languages
            } else {
                switch request.query("switcher") {
                case "GetServerInfo": body = serverInfo
                case "GetServiceBodies": body = serviceBodies
                case "GetFormats": body = formats
                case "GetSearchResults": body = search
                default: body = Data("[]".utf8)
                }
            }
            return .respond(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: body)
        }
    }

    /// One row: its median and how many TCP connections one run of it opened.
    struct Row {
        var title: String
        var seconds: [Double] = []
        var connections = 0
        var median: Double { seconds.isEmpty ? .nan : seconds.sorted()[seconds.count / 2] }
    }

    static func run(runs: Int) async {
        let replies = Replies.load()
        print("latency: BMLTKit's calls against one bare URLSession GET of the same search, median of \(runs) runs per row;")
        print("  loopback server with keep-alive, a round trip per request and per new connection, one shared downlink;")
        print("  replies: \(replies.source)")
        for network in networks {
            await measure(network.name, network.conditions, replies: replies, runs: runs)
        }
    }

    @MainActor
    static func measure(_ name: String, _ conditions: LoopbackHTTPServer.Conditions, replies: Replies, runs: Int) async {
        guard let server = try? LoopbackHTTPServer(recordsRequests: false, handler: { replies.answer($0) }) else {
            print("latency: could not start the loopback server")
            return
        }
        defer { server.stop() }
        server.conditions = conditions
        server.keepsConnectionsAlive = true
        let root = server.baseURL.appendingPathComponent("main_server")
        let modernRoot = server.baseURL.appendingPathComponent("v3/main_server")
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [1002]
        var unfiltered = BMLTSearchCriteria()
        unfiltered.weekdays = [.monday]
        let searchURL = URL(string: root.absoluteString + "/client_interface/json/?switcher=GetSearchResults&services[]=1002")!
        let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-bench-latency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        func configuration(_ policy: BMLTCachePolicy = .networkOnly, center: NotificationCenter = NotificationCenter()) -> BMLTConfiguration {
            BMLTConfiguration(notificationCenter: center, retryPolicy: .none,
                              cache: policy == .networkOnly ? nil : BMLTResponseCache(directory: cacheDirectory, maximumBytes: 50_000_000),
                              cachePolicy: policy)
        }
        // The warm connections: one bare session and one BMLTConnection kept for the whole run, as an app keeps them.
        let keptSession = URLSession(configuration: .ephemeral)
        defer { keptSession.finishTasksAndInvalidate() }
        _ = try? await keptSession.data(from: searchURL)
        let kept = BMLTConnection(rootServerURL: root, configuration: configuration())
        // The cache a cold `.cacheThenNetwork` connection finds: written by an earlier connection.
        do {
            let writer = BMLTConnection(rootServerURL: root, configuration: configuration(.networkElseCache))
            _ = try await writer.validate()
            _ = try await writer.meetings(matching: criteria)
            _ = try await kept.validate()
        } catch {
            print("latency: the warm-up failed: \(error)")
            return
        }

        var rows: [Row] = [
            Row(title: "bare URLSession GET, new connection"),
            Row(title: "bare URLSession GET, kept-alive connection"),
            Row(title: "cold search (services[]), fresh BMLTConnection"),
            Row(title: "cold search, weekday only (aggregator rule)"),
            Row(title: "validate(), fresh BMLTConnection"),
            Row(title: "validate(), 3.1.2 server (no GetLangs.php)"),
            Row(title: "warm search (after validation, same connection)"),
            Row(title: "validate(), then search"),
            Row(title: "validate() beside the search (bmlt-observer search)"),
            Row(title: "cacheThenNetwork, warm cache: cached results"),
            Row(title: "cacheThenNetwork, warm cache: network results"),
        ]
        func time(_ index: Int, _ body: () async throws -> Void) async {
            let before = server.connectionsAccepted
            let start = DispatchTime.now().uptimeNanoseconds
            do { try await body() } catch { print("latency: \(rows[index].title) failed: \(error)") }
            rows[index].seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            rows[index].connections = server.connectionsAccepted - before
        }
        for _ in 0..<runs {
            await time(0) {
                let session = URLSession(configuration: .ephemeral)
                defer { session.finishTasksAndInvalidate() }
                _ = try await session.data(from: searchURL)
            }
            await time(1) { _ = try await keptSession.data(from: searchURL) }
            await time(2) { _ = try await BMLTConnection(rootServerURL: root, configuration: configuration()).meetings(matching: criteria) }
            await time(3) { _ = try await BMLTConnection(rootServerURL: root, configuration: configuration()).meetings(matching: unfiltered) }
            await time(4) { _ = try await BMLTConnection(rootServerURL: root, configuration: configuration()).validate() }
            await time(5) {
                guard replies.modern != nil else { return }
                _ = try await BMLTConnection(rootServerURL: modernRoot, configuration: configuration()).validate()
            }
            await time(6) { _ = try await kept.meetings(matching: criteria) }
            await time(7) {
                let connection = BMLTConnection(rootServerURL: root, configuration: configuration())
                _ = try await connection.validate()
                _ = try await connection.meetings(matching: criteria)
            }
            await time(8) {
                // What `bmlt-observer search` does when the search needs nothing validation learns (SearchCommand).
                let connection = BMLTConnection(rootServerURL: root, configuration: configuration())
                let search = Task { @MainActor in try await connection.meetings(matching: criteria) }
                _ = try await connection.validate()
                _ = try await search.value
            }
            // The cached delivery, then the network's: one call, two rows.
            let center = NotificationCenter()
            let firstDelivery = Locked<UInt64?>(nil)
            let observer = center.addObserver(forName: .bmltMeetingSearchResults, object: nil, queue: nil) { note in
                guard note.bmltRequest?.isFromCache == true else { return }
                let now = DispatchTime.now().uptimeNanoseconds
                firstDelivery.withLock { if $0 == nil { $0 = now } }
            }
            let start = DispatchTime.now().uptimeNanoseconds
            await time(10) {
                _ = try await BMLTConnection(rootServerURL: root, configuration: configuration(.cacheThenNetwork, center: center))
                    .meetings(matching: criteria)
            }
            center.removeObserver(observer)
            rows[9].seconds.append(firstDelivery.withLock { $0 }.map { Double($0 - start) / 1e9 } ?? .nan)
            rows[9].connections = 0
        }

        let fresh = rows[0].median, warm = rows[1].median
        print("")
        print("\(name):")
        print("  what                                                     median s   × bare new   × bare kept   TCP connections")
        for row in rows {
            print("  " + row.title.padding(toLength: 55, withPad: " ", startingAt: 0)
                  + String(format: "%9.3f %12.2f %13.2f %13d", row.median, row.median / fresh, row.median / warm, row.connections))
        }
        let handshake = fresh - warm
        print(String(format: "  a new TCP connection costs one round trip that no client can avoid (here %.0f ms: new − kept = %.0f ms;", conditions.connectionDelay * 1000, handshake * 1000))
        print("  TLS adds one or two more on https): a host that keeps one BMLTConnection per server pays it once, then reuses")
        print(String(format: "  the connection (warm search %.2f× the bare kept-alive GET). Cold calls are compared with the bare new-connection GET.", rows[6].median / warm))
        print(String(format: "  a search without a narrowing filter on a server not yet validated asks GetServerInfo first (the aggregator rule is"))
        print(String(format: "  checked before the search is sent): %.0f ms more than a filtered one here.", (rows[3].median - rows[2].median) * 1000))
        print(String(format: "  validate() on 2.x: GetLangs.php can only go out once GetServerInfo has said 2.x (3.x and 4.x have none): %.0f ms", (rows[4].median - rows[5].median) * 1000))
        print("  more than on 3.1.2 here, about a round trip less what the lists still had to transfer.")
        await WholeRegionLatency.measure(server: server, root: root, kept: kept, bytes: replies.wholeRegion.count, runs: runs)
    }
}

/// A value behind a lock, for the bench's notification observers.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
