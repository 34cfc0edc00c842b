import BenchSupport
import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// The latency section's whole-region rows: one search for every meeting of the region (the 2.16.6 capture of all
/// 1,512 meetings, 1.65 MB; generated meetings of the same size when the capture is missing), on warm connections.
///
/// - the bare request: one `URLSession` GET on a kept-alive connection, its first body byte and its last;
/// - `meetingBatches(matching:)` on a validated connection kept for the run: its first batch and its last;
/// - `meetings(matching:)`, the whole list, on the same connection;
/// - the peak of malloc's bytes in use above the level before each call (sampled every millisecond), for the whole-list
///   search and the batches (a consumer that drops each batch once counted, as a host that draws them would); the two
///   alternate which goes first in a run.
///
/// Times are also given as ratios of the bare request's last byte, the physical limit of any client.
enum WholeRegionLatency {
    /// The whole-region body.
    static func body() -> (data: Data, source: String) {
        let base = Payload.base()
        return (base.data, base.source)
    }

    /// Whether a search request is the whole-region one (no service-body or weekday filter).
    static func isWholeRegion(_ request: LoopbackHTTPServer.Request) -> Bool {
        request.query("switcher") == "GetSearchResults" && !request.target.contains("services") && !request.target.contains("weekdays")
    }

    @MainActor
    static func measure(server: LoopbackHTTPServer, root: URL, kept: BMLTConnection, bytes: Int, runs: Int) async {
        let url = URL(string: root.absoluteString + "/client_interface/json/?switcher=GetSearchResults")!
        let probe = ByteTimes()
        let session = URLSession(configuration: .ephemeral, delegate: probe, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        _ = await probe.fetch(url, on: session)                   // the kept-alive connection, opened
        _ = try? await kept.meetings(matching: BMLTSearchCriteria())   // the same for the connection
        var bareFirst: [Double] = [], bareLast: [Double] = []
        var batchFirst: [Double] = [], batchLast: [Double] = [], whole: [Double] = []
        var batchCounts: [Int] = [], peakWhole: [Int] = [], peakBatches: [Int] = []
        var meetingCount = 0
        for run in 0..<runs {
            let bare = await probe.fetch(url, on: session)
            bareFirst.append(bare.first)
            bareLast.append(bare.last)

            // The two searches alternate which goes first, so that neither always finds the other's garbage.
            func streamed() async {
                let sampler = PeakSampler()
                let start = DispatchTime.now().uptimeNanoseconds
                var first: UInt64?
                var batches = 0, count = 0
                do {
                    for try await batch in kept.meetingBatches(matching: BMLTSearchCriteria()) {
                        if first == nil { first = DispatchTime.now().uptimeNanoseconds }
                        batches += 1
                        count += batch.count
                    }
                } catch {
                    print("latency: meetingBatches failed: \(error)")
                }
                let end = DispatchTime.now().uptimeNanoseconds
                peakBatches.append(sampler.stop())
                batchFirst.append(Double((first ?? end) - start) / 1e9)
                batchLast.append(Double(end - start) / 1e9)
                batchCounts.append(batches)
                meetingCount = count
            }
            func wholeList() async {
                let wholeSampler = PeakSampler()
                let start = DispatchTime.now().uptimeNanoseconds
                do {
                    let results = try await kept.meetings(matching: BMLTSearchCriteria())
                    if meetingCount > 0, results.meetings.count != meetingCount {
                        print("latency: the batches held \(meetingCount) meetings, the whole list \(results.meetings.count)")
                    }
                } catch {
                    print("latency: meetings(matching:) failed: \(error)")
                }
                whole.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                peakWhole.append(wholeSampler.stop())
            }
            if run % 2 == 0 {
                await streamed()
                await wholeList()
            } else {
                await wholeList()
                await streamed()
            }
        }
        func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
        let last = median(bareLast), firstByte = median(bareFirst)
        let firstBatch = median(batchFirst), lastBatch = median(batchLast)
        print("")
        print("  whole-region search (\(bytes) bytes, \(meetingCount) meetings), warm connections, median of \(runs) runs:")
        print("  what                                                     median s   × bare last byte")
        func row(_ title: String, _ seconds: Double, _ note: String = "") {
            print("  " + title.padding(toLength: 55, withPad: " ", startingAt: 0) + String(format: "%9.3f %12.3f", seconds, seconds / last) + note)
        }
        row("bare URLSession GET, kept-alive: first byte", firstByte)
        row("bare URLSession GET, kept-alive: last byte", last)
        row("meetingBatches: first batch", firstBatch,
            String(format: "   %+.3f s after the bare first byte (goal ≤ 0.25 s)", firstBatch - firstByte))
        row("meetingBatches: last batch", lastBatch, "   (goal ≤ 1.02×)")
        row("meetings(matching:), the whole list", median(whole))
        print("  batches per search: median \(median(batchCounts)) (first as soon as one meeting is decoded, then at most every 75 ms)")
        print(String(format: "  peak heap above the level before the call (malloc's bytes in use, median): whole list %.1f MB, batches %.1f MB",
                     Double(median(peakWhole)) / 1e6, Double(median(peakBatches)) / 1e6))
    }
}

/// The times of one GET's first body byte and its end, from a URLSession delegate.
private final class ByteTimes: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var start: UInt64 = 0
    private var first: UInt64?
    private var continuation: CheckedContinuation<(first: Double, last: Double), Never>?

    func fetch(_ url: URL, on session: URLSession) async -> (first: Double, last: Double) {
        await withCheckedContinuation { continuation in
            lock.lock()
            self.continuation = continuation
            first = nil
            start = DispatchTime.now().uptimeNanoseconds
            lock.unlock()
            session.dataTask(with: url).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if first == nil { first = now }
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        let waiting = continuation
        continuation = nil
        let times = (first: Double((first ?? now) - start) / 1e9, last: Double(now - start) / 1e9)
        lock.unlock()
        waiting?.resume(returning: times)
    }
}

/// malloc's bytes in use, sampled every millisecond on a thread of its own; `stop()` gives the peak above the first sample.
private final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var peak = 0
    private let baseline: Int
    private let done = DispatchSemaphore(value: 0)

    init() {
        baseline = Int(bench_malloc_in_use())
        let thread = Thread { [self] in
            while true {
                let now = Int(bench_malloc_in_use())
                lock.lock()
                peak = max(peak, now)
                let goOn = running
                lock.unlock()
                if !goOn { break }
                usleep(1000)
            }
            done.signal()
        }
        thread.start()
    }

    func stop() -> Int {
        lock.lock()
        running = false
        lock.unlock()
        done.wait()
        return max(0, peak - baseline)
    }
}
