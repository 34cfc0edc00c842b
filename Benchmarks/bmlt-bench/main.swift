// bmlt-bench: decoding and request-pipeline benchmarks for BMLTKit, every baseline measured in the same run.
// Run: swift run -c release bmlt-bench [--runs N] [--sizes 1,10,100] [--skip-decoders] [--skip-overlap] [--skip-pipeline] [--skip-cache] [--skip-soak]
// Diagnostic: swift run -c release bmlt-bench --layer  (BMLTKit's own work per connect(), on canned replies)
// Latency: swift run -c release bmlt-bench --latency [--runs N]  (round trips on an emulated phone network; only this section)
// Refresh: swift run -c release bmlt-bench --refresh  (a list brought up to date from the change log vs a whole download)
import Foundation

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

// Child mode: decode one payload file once with one decoder and print the peak memory it took.
if let decoderName = option("child-memory"), let file = option("payload") {
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    let before = Measure.residentBytes()
    let decoder = Decoders.all.first { $0.name == decoderName }!
    let count = decoder.run(data)
    print("\(count) \(Measure.peakResidentBytes() - before)")
    exit(0)
}

// Child mode: one side of the soak (see SoakBenchmark).
if let side = option("child-soak") {
    await SoakBenchmark.runChild(side)
}

// Diagnostic mode: BMLTKit's layer on canned replies, no network (see LayerProbe).
if arguments.contains("--layer") {
    await LayerProbe.run()
    exit(0)
}

// The latency section alone (see LatencyBenchmark).
if arguments.contains("--latency") {
    await LatencyBenchmark.run(runs: max(3, Int(option("runs") ?? "5") ?? 5))
    exit(0)
}

// The refresh section alone (see RefreshBenchmark).
if arguments.contains("--refresh") {
    await RefreshBenchmark.run()
    exit(0)
}

// Child mode: the request pipeline, all three sides in one fresh process (see PipelineBenchmark).
if arguments.contains("--child-pipeline") {
    await PipelineBenchmark.run()
    exit(0)
}

// Child mode: the peak memory of one search (see SearchMemoryBenchmark).
if let way = option("child-search-memory") {
    await SearchMemoryBenchmark.runChild(way)
}

#if DEBUG
print("note: this is a debug build; run `swift run -c release bmlt-bench` for meaningful numbers")
#endif
let runs = max(5, Int(option("runs") ?? "5") ?? 5)
let sizes = arguments.contains("--skip-decoders") ? [] : (option("sizes") ?? "1,10,100").split(separator: ",").compactMap { Int($0) }
let (base, source) = Payload.base()
print("bmlt-bench — inputs: \(source), \(base.count) bytes; median of \(runs) runs per cell; decoders interleaved")
print("")

for factor in sizes {
    let payload = Payload.replicated(base, factor: factor)
    let megabytes = Double(payload.count) / 1_048_576
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-bench-\(factor).json")
    try payload.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    // Interleave: run 1 of every decoder, then run 2 of every decoder, …
    var times: [String: [Double]] = [:]
    var counts: [String: Int] = [:]
    for _ in 0..<runs {
        for decoder in Decoders.all {
            let (seconds, count) = Measure.median(runs: 1) { decoder.run(payload) }
            times[decoder.name, default: []].append(seconds)
            counts[decoder.name] = count
        }
    }
    func median(_ name: String) -> Double { let sorted = times[name]!.sorted(); return sorted[sorted.count / 2] }

    let expected = counts["a"] ?? 0
    print("× \(factor): \(expected) meetings, \(String(format: "%.1f", megabytes)) MB")
    for (name, count) in counts.sorted(by: { $0.key < $1.key }) where count != expected {
        print("  WARNING: decoder (\(name)) produced \(count) meetings instead of \(expected): its time is not comparable")
    }
    print("  decoder                                          median s     MB/s   meetings/s   peak extra MB")
    for decoder in Decoders.all {
        let seconds = median(decoder.name)
        let peak = Decoders.peakMemory(decoder: decoder.name, payload: file)
        print("  (\(decoder.name)) " + decoder.title.padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: "%8.3f %8.1f %12.0f %12.1f", seconds, megabytes / seconds,
                       Double(counts[decoder.name] ?? 0) / seconds, Double(peak) / 1_048_576))
    }
    if times["d"] != nil {
        print(String(format: "  ratios: d/c = %.2f×   d/b = %.2f×   (peak extra of d = %.1f× the payload)",
                     median("d") / median("c"), median("d") / median("b"),
                     Double(Decoders.peakMemory(decoder: "d", payload: file)) / Double(payload.count)))
    }
    print("")
}

if !arguments.contains("--skip-overlap") {
    await OverlapBenchmark.run(base: base, runs: runs)
    SearchMemoryBenchmark.run()
    print("")
}
if !arguments.contains("--skip-pipeline") {
    // In a process of its own, as the soak: after the decoders above, this process's heap is over 100 MB and
    // fragmented, which no side of the comparison would meet in an app making these requests.
    print(Measure.childOutput(["--child-pipeline"]) ?? "request pipeline: the child process failed\n")
}
if !arguments.contains("--skip-cache") {
    await CacheBenchmark.run(payload: base, runs: runs)
}
if !arguments.contains("--skip-soak") {
    await SoakBenchmark.run()
}
