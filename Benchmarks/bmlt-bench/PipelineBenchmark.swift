import BMLTKit
import Foundation
import Observation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// 500 operations in flight at once against a loopback HTTP server started here: BMLTKit's pipeline (each
/// operation a `connect()`: GetServerInfo, GetServiceBodies and GetFormats together, then GetLangs.php once
/// GetServerInfo is in) against bare `URLSession` making the same four requests in the same order, without decoding. Twenty rounds
/// each, interleaved; memory is read after every round.
enum PipelineBenchmark {
    /// Operations in flight at once (500; `BMLT_BENCH_OPERATIONS` sets another number, also for the soak, to see what
    /// depends on how much is in flight rather than on how many requests were made).
    static let operations = Int(ProcessInfo.processInfo.environment["BMLT_BENCH_OPERATIONS"] ?? "") ?? 500
    /// Rounds per side (20; `BMLT_BENCH_ROUNDS` sets another number). With 10, the median of a side moved by up to 5 %
    /// from one run to the next on the 2-core VM (p3/p1 1.06–1.16× over six full runs, each side's rounds spread
    /// 0.49–0.66 s); twenty rounds per side gave 1.07–1.11× in three runs of the pipeline alone. The rounds cost about
    /// 0.6 s each.
    static let rounds = Int(ProcessInfo.processInfo.environment["BMLT_BENCH_ROUNDS"] ?? "") ?? 20

    static let serverInfo = #"[{"version":"2.16.6","versionInt":"2016006","langs":"en,es","nativeLang":"en","distanceUnits":"mi","semanticAdmin":"1"}]"#
    static let serviceBodies = #"[{"id":"1","parent_id":"0","name":"Region","description":"","type":"RS","url":"","helpline":"","world_id":""},{"id":"2","parent_id":"1","name":"Area","description":"","type":"AS","url":"","helpline":"","world_id":""}]"#
    static let formats = #"[{"key_string":"O","name_string":"Open","description_string":"","lang":"en","id":"17","world_id":"OPEN","format_type_enum":"O"}]"#
    static let languages = #"{"languages":[{"key":"en","name":"English","default":true}]}"#

    /// A loopback server answering the four validation requests (also used by the soak run).
    static func validationServer() -> LoopbackHTTPServer? {
        try? LoopbackHTTPServer(recordsRequests: false, handler: validationReply)
    }

    /// The answer to one of the four validation requests (`[]` for anything else).
    @Sendable static func validationReply(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Behavior {
        if request.path.hasSuffix("GetLangs.php") { return .json(languages) }
        switch request.query("switcher") {
        case "GetServerInfo": return .json(serverInfo)
        case "GetServiceBodies": return .json(serviceBodies)
        case "GetFormats": return .json(formats)
        default: return .json("[]")
        }
    }

    static func run() async {
        guard let server = validationServer() else {
            print("request pipeline: could not start the loopback server")
            return
        }
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("main_server")
        print("request pipeline: \(operations) operations in flight × \(rounds) rounds, 4 HTTP requests each, loopback server")

        var bare: [Double] = []
        var bareDelegate: [Double] = []
        var kit: [Double] = []
        var memory: [Int] = []
        var pairs: [(Int, Int)] = []
        let session = URLSession(configuration: .ephemeral)
        let collector = BodyCollector()
        let delegateSession = URLSession(configuration: .ephemeral, delegate: collector, delegateQueue: nil)
        // One connection for all rounds, as an app keeps one per server (and each bare side keeps one session).
        let center = NotificationCenter()
        let connection = await BMLTConnection(rootServerURL: root, configuration: BMLTConfiguration(notificationCenter: center, retryPolicy: .none))
        // BMLT_BENCH_ONLY=p1,kit (any of p1, p2, kit, or "bare" for p1 and p2): run only those sides.
        let only = ProcessInfo.processInfo.environment["BMLT_BENCH_ONLY"].map { Set($0.replacingOccurrences(of: "bare", with: "p1,p2").split(separator: ",").map(String.init)) }
        func runs(_ side: String) -> Bool { only?.contains(side) ?? true }
        // The sides take turns going first (p1 p2 p3, then p2 p3 p1, …), so that none always runs on the heap and
        // the server threads the same other side has just left.
        for round in 0..<rounds {
            for turn in 0..<3 {
                switch (round + turn) % 3 {
                case 0 where runs("p1"):
                    bare.append(await timeBare(session: session, root: root))
                case 1 where runs("p2"):
                    bareDelegate.append(await timeBareDelegate(collector, session: delegateSession, root: root))
                case 2 where runs("kit"):
                    let (seconds, starts, stops) = await timeBMLTKit(connection, center: center)
                    kit.append(seconds)
                    pairs.append((starts, stops))
                default:
                    break
                }
            }
            memory.append(Measure.residentBytesInUse())
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        func line(_ title: String, _ values: [Double]) -> String {
            String(format: "  %@ median %.3f s per round  (%.0f µs per request)",
                   title.padding(toLength: 40, withPad: " ", startingAt: 0), median(values), median(values) / Double(operations * 4) * 1e6)
        }
        print(line("(p1) bare URLSession, async data(from:)", bare))
        print(line("(p2) bare URLSession, delegate + dataTask", bareDelegate))
        print(line("(p3) BMLTKit connect()", kit))
        print(String(format: "  ratios: p3/p1 = %.2f×   p3/p2 = %.2f×", median(kit) / median(bare), median(kit) / median(bareDelegate)))
        // The same rounds paired: each round's p3 over that round's p1 (the sides ran within seconds of each other),
        // so that a busy stretch of the machine, which slows every side of its rounds, cancels out; with its spread.
        func paired(_ values: [Double], _ baseline: [Double]) -> String {
            let ratios = zip(values, baseline).map { $0 / $1 }.sorted()
            guard !ratios.isEmpty else { return "nan" }
            return String(format: "%.2f× (middle half %.2f–%.2f×)", ratios[ratios.count / 2], ratios[ratios.count / 4], ratios[ratios.count * 3 / 4])
        }
        print("  paired by round: p3/p1 = " + paired(kit, bare) + "   p3/p2 = " + paired(kit, bareDelegate))
        if ProcessInfo.processInfo.environment["BMLT_BENCH_VERBOSE"] == "1" {
            for (name, values) in [("p1", bare), ("p2", bareDelegate), ("p3", kit)] {
                print("  \(name) rounds: " + values.map { String(format: "%.3f", $0) }.joined(separator: " "))
            }
        }
        print("  progress pairs per BMLTKit round (start, stop): " + pairs.map { "(\($0.0),\($0.1))" }.joined(separator: " "))
        print("  resident MB after each round (all sides, after malloc_trim): "
              + memory.map { String(format: "%.0f", Double($0) / 1_048_576) }.joined(separator: " "))
    }

    /// The same four requests per operation, in the same order, with nothing decoded.
    static func timeBare(session: URLSession, root: URL) async -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<operations {
                group.addTask {
                    async let bodies = try? session.data(from: url(root, "client_interface/json/?switcher=GetServiceBodies"))
                    async let formats = try? session.data(from: url(root, "client_interface/json/?switcher=GetFormats&show_all=1"))
                    _ = try? await session.data(from: url(root, "client_interface/json/?switcher=GetServerInfo"))
                    _ = try? await session.data(from: url(root, "client_interface/json/GetLangs.php"))
                    _ = await (bodies, formats)
                }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The same requests as `timeBare`, made the way BMLTKit makes them: data tasks on a session with a
    /// delegate that collects each body and resumes one continuation.
    static func timeBareDelegate(_ collector: BodyCollector, session: URLSession, root: URL) async -> Double {
        func get(_ suffix: String) async {
            let task = session.dataTask(with: url(root, suffix))
            await withCheckedContinuation { continuation in
                collector.start(task, continuation)
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<operations {
                group.addTask {
                    async let bodies: Void = get("client_interface/json/?switcher=GetServiceBodies")
                    async let formats: Void = get("client_interface/json/?switcher=GetFormats&show_all=1")
                    await get("client_interface/json/?switcher=GetServerInfo")
                    await get("client_interface/json/GetLangs.php")
                    _ = await (bodies, formats)
                }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// `operations` × `connect()` on one connection, waiting for the busy period to end.
    @MainActor
    static func timeBMLTKit(_ connection: BMLTConnection, center: NotificationCenter) async -> (Double, Int, Int) {
        let counts = CountBox()
        let start = center.addObserver(forName: .bmltProgressDidStart, object: connection, queue: nil) { _ in counts.add(start: 1) }
        let stop = center.addObserver(forName: .bmltProgressDidStop, object: connection, queue: nil) { _ in counts.add(stop: 1) }
        defer { center.removeObserver(start); center.removeObserver(stop) }
        let began = DispatchTime.now().uptimeNanoseconds
        let requests = (0..<operations).map { _ in connection.connect() }
        precondition(connection.inFlightRequests.count == requests.count)
        await idle(connection)
        if let error = connection.lastError { print("  a validation failed: \(error)") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let pair = counts.value
        return (seconds, pair.0, pair.1)
    }

    /// Returns when the connection is no longer busy, woken by the change itself (observed) rather than by polling: a
    /// 0.5 ms polling loop put 2,000 wake-ups a second on the main actor the operations need, which the bare sides,
    /// awaiting task groups, did not pay.
    @MainActor
    static func idle(_ connection: BMLTConnection) async {
        while connection.isBusy {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = connection.isBusy } onChange: { continuation.resume() }
            }
        }
    }

    static func url(_ root: URL, _ suffix: String) -> URL { URL(string: root.absoluteString + "/" + suffix)! }
}

/// A thread-safe pair of counters.
final class CountBox: @unchecked Sendable {
    private let lock = NSLock()
    private var starts = 0
    private var stops = 0
    func add(start: Int = 0, stop: Int = 0) { lock.withLock { starts += start; stops += stop } }
    var value: (Int, Int) { lock.withLock { (starts, stops) } }
}

/// A bare session delegate: collects bodies per task and resumes each request's continuation once.
final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Int: (CheckedContinuation<Void, Never>, Data)] = [:]

    func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Void, Never>) {
        lock.withLock { pending[task.taskIdentifier] = (continuation, Data()) }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { pending[dataTask.taskIdentifier]?.1.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let entry = lock.withLock { pending.removeValue(forKey: task.taskIdentifier) }
        entry?.0.resume()
    }
}
