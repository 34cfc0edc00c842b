import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// A long run through the pipeline: `BMLT_BENCH_SOAK` requests (default 100,000) on one connection against a loopback
/// server, 500 `connect()`s (4 requests each) at a time, as an app or `watch` left open for days would make them.
/// Resident memory (after `malloc_trim`) is read after a warm-up of 10,000 requests and at the end; the same is done
/// for bare delegate `URLSession` in the same run (each in a process of its own), so growth of Linux Foundation itself
/// shows beside BMLTKit's; then both again with FoundationNetworking's per-request leak fixed, to show what is left.
enum SoakBenchmark {
    static var total: Int { Int(ProcessInfo.processInfo.environment["BMLT_BENCH_SOAK"] ?? "") ?? 100_000 }

    /// Each side runs in a process of its own (this executable again, `--child-soak kit|bare`), so that neither
    /// starts on a heap the other has already grown or fragmented.
    static func run() async {
        guard let kit = child("kit"), let bare = child("bare") else {
            print("soak: a child process failed")
            return
        }
        func mb(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
        print("soak: \(kit.requests) requests, resident MB after warm-up \(mb(kit.after)) -> \(mb(kit.end))"
              + "  (bare delegate URLSession, same run: \(mb(bare.after)) -> \(mb(bare.end)))")
        // What malloc counts as handed out and not given back, in the same children: memory held, not pages kept.
        if kit.heapEnd > 0 {
            print("  held (malloc's bytes in use, mallinfo2) after warm-up -> end: BMLTKit \(mb(kit.heapAfter)) -> \(mb(kit.heapEnd)), "
                  + "bare delegate URLSession \(mb(bare.heapAfter)) -> \(mb(bare.heapEnd))")
        }
        // Both sides again with FoundationNetworking's host-check leak fixed (Benchmarks/FoundationLeakFix, preloaded),
        // then also with one malloc arena: what is left is what each side holds, apart from the allocator's
        // per-thread arenas filling up as more threads take part.
        guard let fix = leakFix() else {
            print("  (no C compiler found: the soak with FoundationNetworking's leak fixed was not run)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: fix) }
        if let kit = child("kit", preload: fix), let bare = child("bare", preload: fix) {
            print("  with FoundationNetworking's host-check leak fixed (preloaded): BMLTKit \(mb(kit.after)) -> \(mb(kit.end)), "
                  + "bare delegate URLSession \(mb(bare.after)) -> \(mb(bare.end))")
            print("    along the way (each quarter after the warm-up): BMLTKit " + kit.path.map(mb).joined(separator: " ")
                  + ", bare " + bare.path.map(mb).joined(separator: " "))
            if kit.heapEnd > 0 {
                print("    held (malloc's bytes in use): BMLTKit \(mb(kit.heapAfter)) -> \(mb(kit.heapEnd)), "
                      + "bare delegate URLSession \(mb(bare.heapAfter)) -> \(mb(bare.heapEnd))")
            }
        }
        if let kit = child("kit", preload: fix, oneArena: true), let bare = child("bare", preload: fix, oneArena: true) {
            print("  … and one malloc arena (MALLOC_ARENA_MAX=1): BMLTKit \(mb(kit.after)) -> \(mb(kit.end)), "
                  + "bare delegate URLSession \(mb(bare.after)) -> \(mb(bare.end))")
        }
    }

    /// Runs one side in a child process and reads its figures.
    static func child(_ side: String, preload: String? = nil, oneArena: Bool = false)
        -> (requests: Int, after: Int, end: Int, heapAfter: Int, heapEnd: Int, path: [Int])? {
        var environment: [String: String]?
        if preload != nil || oneArena {
            environment = ProcessInfo.processInfo.environment
            if let preload { environment?["LD_PRELOAD"] = preload }
            if oneArena { environment?["MALLOC_ARENA_MAX"] = "1" }
        }
        guard let numbers = Measure.child(["--child-soak", side], environment: environment), numbers.count >= 5 else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], Array(numbers.dropFirst(5)))
    }

    /// Compiles `Benchmarks/FoundationLeakFix/host_check.c` into a shared library to preload, or `nil` without a C
    /// compiler (or off Linux, where there is no FoundationNetworking).
    static func leakFix() -> String? {
        #if os(Linux)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FoundationLeakFix/host_check.c").path
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-bench-host-check-\(getpid()).so").path
        for compiler in ["cc", "clang", "gcc"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [compiler, "-O2", "-shared", "-fPIC", "-o", library, source]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            process.waitUntilExit()
            if process.terminationStatus == 0 { return library }
        }
        #endif
        return nil
    }

    /// One side's soak in this process: prints `requests after-warm-up-bytes end-bytes heap-after heap-end`, then the
    /// resident bytes at each checkpoint (`heap-…`: malloc's bytes in use, `Measure.mallocBytesInUse`).
    static func runChild(_ side: String) async {
        guard let server = PipelineBenchmark.validationServer() else { exit(1) }
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server")
        if side == "kit" {
            let center = NotificationCenter()
            var configuration = BMLTConfiguration(notificationCenter: center, retryPolicy: .none)
            // BMLT_BENCH_SOAK_TRANSPORT=async: BMLTKit over URLSession's async data(for:) instead of its delegate session,
            // to tell growth in the pipeline from growth in Foundation's delegate path.
            if ProcessInfo.processInfo.environment["BMLT_BENCH_SOAK_TRANSPORT"] == "async" { configuration.httpTransport = AsyncDataTransport() }
            let connection = await BMLTConnection(rootServerURL: root, configuration: configuration)
            await soak { _ = await PipelineBenchmark.timeBMLTKit(connection, center: center) }
            // BMLT_BENCH_SOAK_EXIT=1: end here with the connection alive, so a heap profiler (heaptrack) lists what it holds.
            withExtendedLifetime(connection) { exit(0) }
        }
        let collector = BodyCollector()
        let session = URLSession(configuration: .ephemeral, delegate: collector, delegateQueue: nil)
        await soak { _ = await PipelineBenchmark.timeBareDelegate(collector, session: session, root: root) }
        exit(0)
    }

    /// Runs `round` (one round of `PipelineBenchmark.operations` operations, 4 requests each) until `total` requests,
    /// reads memory after the warm-up, at each checkpoint and at the end, and prints the readings (see `runChild`).
    static func soak(_ round: () async -> Void) async {
        let perRound = PipelineBenchmark.operations * 4
        let rounds = max(2, total / perRound)
        let warmUp = min(max(1, 10_000 / perRound), rounds - 1)   // a short soak (BMLT_BENCH_SOAK) still reads both
        var after = 0
        var heapAfter = 0
        var path: [Int] = []
        for number in 1...rounds {
            await round()
            if number == warmUp { after = Measure.residentBytesInUse(); heapAfter = Measure.mallocBytesInUse() }
            if isCheckpoint(number, warmUp: warmUp, rounds: rounds) { path.append(Measure.residentBytesInUse()) }
        }
        let end = Measure.residentBytesInUse()
        print("\(rounds * perRound) \(after) \(end) \(heapAfter) \(Measure.mallocBytesInUse()) " + path.map(String.init).joined(separator: " "))
    }

    /// Four readings between the warm-up and the end (a quarter of the way, half, three quarters, the end), to tell
    /// memory that keeps growing from memory that reaches a level and stays.
    static func isCheckpoint(_ round: Int, warmUp: Int, rounds: Int) -> Bool {
        let span = rounds - warmUp
        return span >= 4 && (1...4).contains { warmUp + span * $0 / 4 == round }
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
