import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// The response cache: time from the call to the results for the base search (1,512 meetings), answered by a
/// loopback server (`.networkOnly`) and by the cache (`.cacheElseNetwork`), each the median of `runs`, interleaved.
enum CacheBenchmark {
    static func run(payload: Data, runs: Int) async {
        // The search answers the payload; validation's requests get the pipeline benchmark's small replies (a
        // service body list made of meetings is refused, as it should be, and validation would fail).
        guard let server = try? LoopbackHTTPServer(recordsRequests: false, handler: { request in
            request.query("switcher") == "GetSearchResults" ? .respond(
                status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: payload)
                : PipelineBenchmark.validationReply(request)
        }) else {
            print("cache: could not start the loopback server")
            return
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = server.baseURL.appendingPathComponent("main_server")
        func connection(_ policy: BMLTCachePolicy) async -> BMLTConnection {
            await BMLTConnection(rootServerURL: root, configuration: BMLTConfiguration(
                notificationCenter: NotificationCenter(), retryPolicy: .none,
                cache: BMLTResponseCache(directory: directory, maximumBytes: 100_000_000), cachePolicy: policy))
        }
        let network = await connection(.networkOnly), cached = await connection(.cacheElseNetwork)
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [1]
        var networkTimes: [Double] = [], cacheTimes: [Double] = []
        var count = 0
        do {
            _ = try await network.validate()
            _ = try await cached.validate()
            for _ in 0..<runs {
                var start = DispatchTime.now().uptimeNanoseconds
                count = try await network.meetings(matching: criteria, extent: .meetingsOnly).meetings.count
                networkTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                start = DispatchTime.now().uptimeNanoseconds
                _ = try await cached.meetings(matching: criteria, extent: .meetingsOnly)
                cacheTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        } catch {
            print("cache: a search failed: \(error)")
            return
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(String(format: "cache hit: %d meetings in %.1f ms (network %.1f ms, loopback)", count, median(cacheTimes), median(networkTimes)))
    }
}
