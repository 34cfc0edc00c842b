import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// Decoding while the body arrives: a loopback server sends the ×10 search payload in 64 KB pieces, 2 ms apart (about
/// 0.5 s in all, as a real server producing a large search does); the time from its last byte to the search's results
/// (decoded, stored and announced) is set beside decoding the same payload whole, which is what a search added after
/// the last byte before the chunked decoder. Median of `runs`.
enum OverlapBenchmark {
    static func run(base: Data, runs: Int) async {
        let payload = Payload.replicated(base, factor: 10)
        guard let server = try? LoopbackHTTPServer(recordsRequests: false, handler: { request in
            request.query("switcher") == "GetSearchResults"
                ? .drip(status: 200, body: payload, chunkSize: 65_536, interval: 0.002)
                : PipelineBenchmark.validationReply(request)
        }) else {
            print("overlap: could not start the loopback server")
            return
        }
        defer { server.stop() }
        let connection = await BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"),
                                              configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), retryPolicy: .none))
        var after: [Double] = [], whole: [Double] = []
        var count = 0
        do {
            _ = try await connection.validate()
            for _ in 0..<runs {
                let results = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly)
                let done = DispatchTime.now().uptimeNanoseconds
                guard let lastByte = server.lastDripEndNanoseconds else { throw BMLTError.timeout }
                after.append(Double(done) / 1e6 - Double(lastByte) / 1e6)
                count = results.meetings.count
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try BMLTSearchResults(jsonData: payload)
                whole.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        } catch {
            print("overlap: a search failed: \(error)")
            return
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(String(format: "overlap: results %.1f ms after the last byte (whole-body decode %.1f ms)", median(after), median(whole)))
        print(String(format: "  (%d meetings, %.1f MB in 64 KB pieces 2 ms apart, loopback; median of %d)",
                     count, Double(payload.count) / 1_048_576, runs))
    }
}
