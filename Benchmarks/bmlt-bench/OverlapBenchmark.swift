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

/// Peak memory of one ×10 search, each way in a process of its own (`--child-search-memory stream|whole`): through a
/// connection (decoded while it arrives), and the body fetched whole with `URLSession` and then decoded. The body comes
/// in 64 KB pieces 2 ms apart (32 MB/s, faster than real servers send; with no pause at all, pieces wait in
/// `URLSession`'s delivery queue faster than they are decoded, and the streamed figure rises towards the whole one). The loopback
/// server in the same process holds the payload before the figure's baseline is read, so the figure is the client's.
enum SearchMemoryBenchmark {
    static func run() {
        guard let stream = child("stream"), let whole = child("whole") else {
            print("memory: a child process failed")
            return
        }
        print(String(format: "memory: a ×10 search peaks %.1f MB above its start decoded while it arrives, %.1f MB fetched whole then decoded (body %.1f MB)",
                     Double(stream.peak) / 1_048_576, Double(whole.peak) / 1_048_576, Double(stream.body) / 1_048_576))
    }

    static func child(_ way: String) -> (peak: Int, body: Int)? {
        guard let numbers = Measure.child(["--child-search-memory", way]), numbers.count == 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// In the child: one search one way; prints `peak-extra-bytes body-bytes`.
    static func runChild(_ way: String) async {
        let payload = Payload.replicated(Payload.base().data, factor: 10)
        guard let server = try? LoopbackHTTPServer(recordsRequests: false, handler: { request in
            request.query("switcher") == "GetSearchResults"
                ? .drip(status: 200, body: payload, chunkSize: 65_536, interval: 0.002)
                : PipelineBenchmark.validationReply(request)
        }) else { exit(1) }
        let root = server.baseURL.appendingPathComponent("main_server")
        var count = 0
        if way == "stream" {
            let connection = await BMLTConnection(rootServerURL: root, configuration: BMLTConfiguration(
                notificationCenter: NotificationCenter(), retryPolicy: .none))
            _ = try? await connection.validate()
            let before = Measure.residentBytesInUse()
            Measure.resetPeak()
            count = (try? await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly))?.meetings.count ?? 0
            print("\(Measure.peakResidentBytes() - before) \(payload.count)")
        } else {
            let url = URL(string: root.absoluteString + "/client_interface/json/?switcher=GetSearchResults")!
            let session = URLSession(configuration: .ephemeral)
            _ = try? await session.data(from: URL(string: root.absoluteString + "/client_interface/json/?switcher=GetServerInfo")!)
            let before = Measure.residentBytesInUse()
            Measure.resetPeak()
            if let (data, _) = try? await session.data(from: url) {
                count = (try? BMLTSearchResults(jsonData: data))?.meetings.count ?? 0
            }
            print("\(Measure.peakResidentBytes() - before) \(payload.count)")
        }
        server.stop()
        exit(count > 0 ? 0 : 1)
    }
}
