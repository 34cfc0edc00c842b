import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// A long run through the pipeline: `BMLT_BENCH_SOAK` requests (default 100,000) on one connection against a loopback
/// server, 500 `connect()`s (4 requests each) at a time, as an app or `watch` left open for days would make them.
/// Resident memory (after `malloc_trim`) is read after a warm-up of 10,000 requests and at the end; the same is done
/// for bare delegate `URLSession` in the same run, so growth of Linux Foundation itself shows beside BMLTKit's.
enum SoakBenchmark {
    static func run() async {
        let total = Int(ProcessInfo.processInfo.environment["BMLT_BENCH_SOAK"] ?? "") ?? 100_000
        guard let server = PipelineBenchmark.validationServer() else {
            print("soak: could not start the loopback server")
            return
        }
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server")
        let perRound = PipelineBenchmark.operations * 4
        let rounds = max(2, total / perRound)
        let warmUp = max(1, 10_000 / perRound)

        let center = NotificationCenter()
        var configuration = BMLTConfiguration(notificationCenter: center, retryPolicy: .none)
        // BMLT_BENCH_SOAK_TRANSPORT=async: BMLTKit over URLSession's async data(for:) instead of its delegate session,
        // to tell growth in the pipeline from growth in Foundation's delegate path.
        if ProcessInfo.processInfo.environment["BMLT_BENCH_SOAK_TRANSPORT"] == "async" { configuration.httpTransport = AsyncDataTransport() }
        let connection = await BMLTConnection(rootServerURL: root, configuration: configuration)
        var kit: (after: Int, end: Int) = (0, 0)
        for round in 1...rounds {
            _ = await PipelineBenchmark.timeBMLTKit(connection, center: center)
            if round == warmUp { kit.after = Measure.residentBytesInUse() }
        }
        kit.end = Measure.residentBytesInUse()
        // BMLT_BENCH_SOAK_EXIT=1: end here with the connection alive, so a heap profiler (heaptrack) lists what it holds.
        if ProcessInfo.processInfo.environment["BMLT_BENCH_SOAK_EXIT"] == "1" {
            print("soak: kit side only, \(rounds * perRound) requests, resident MB \(Double(kit.after) / 1_048_576) -> \(Double(kit.end) / 1_048_576)")
            withExtendedLifetime(connection) { exit(0) }
        }

        let collector = BodyCollector()
        let session = URLSession(configuration: .ephemeral, delegate: collector, delegateQueue: nil)
        var bare: (after: Int, end: Int) = (0, 0)
        for round in 1...rounds {
            _ = await PipelineBenchmark.timeBareDelegate(collector, session: session, root: root)
            if round == warmUp { bare.after = Measure.residentBytesInUse() }
        }
        bare.end = Measure.residentBytesInUse()
        func mb(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
        print("soak: \(rounds * perRound) requests, resident MB after warm-up \(mb(kit.after)) -> \(mb(kit.end))"
              + "  (bare delegate URLSession, same run: \(mb(bare.after)) -> \(mb(bare.end)))")
    }
}

/// BMLTKit's requests through `URLSession.data(for:)` (the soak's comparison transport).
struct AsyncDataTransport: BMLTHTTPTransport {
    let session = URLSession(configuration: .ephemeral)
    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return BMLTHTTPResponse(statusCode: http?.statusCode ?? 0, headers: [:], body: data, url: http?.url)
    }
}
