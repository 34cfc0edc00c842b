import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `BMLT_OBSERVER_DEADLINE`: the whole call's deadline from the environment (what the CLI tests use as a hang guard),
/// which unlike `--timeout` keeps the reads' retries and the words of a run without `--timeout`.
@Suite("bmlt-observer BMLT_OBSERVER_DEADLINE", .serialized)
@MainActor
struct ObserverDeadlineTests {
    /// Counts the GetServerInfo requests; the first one is refused with 503 (a transient failure a read retries).
    private final class Refusals: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { count += 1; return count } }
    }

    /// A 2.16.6-shaped root server (the replies of `rootserver/` in short) whose first GetServerInfo is a 503.
    private func serverRefusingOnce() throws -> LoopbackHTTPServer {
        let refusals = Refusals()
        return try LoopbackHTTPServer { request in
            if request.path.hasSuffix("GetLangs.php") { return .json(#"{"languages":[{"key":"en","name":"English","default":true}]}"#) }
            switch request.query("switcher") {
            case "GetServerInfo":
                if refusals.next() == 1 { return .respond(status: 503, headers: ["Content-Type": "text/html"], body: Data("<html>Busy</html>".utf8)) }
                return .json(#"[{"version":"2.16.6","versionInt":"2016006","langs":"en","nativeLang":"en","distanceUnits":"mi"}]"#)
            case "GetServiceBodies": return .json(#"[{"id":"1002","parent_id":"0","name":"Area","type":"AS"}]"#)
            case "GetFormats": return .json(#"[{"key_string":"O","name_string":"Open","lang":"en","id":"17"}]"#)
            default: return .json("[]")
            }
        }
    }

    @Test("a 503 is still retried under BMLT_OBSERVER_DEADLINE (exit 0), where --timeout tries once (exit 1)")
    func retriesKept() async throws {
        let http = try serverRefusingOnce()
        defer { http.stop() }
        let root = http.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["--server", root, "info"], environment: ["BMLT_OBSERVER_DEADLINE": "900"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(http.requests.filter { $0.query("switcher") == "GetServerInfo" }.count == 2, "\(http.requests.map(\.target))")

        let other = try serverRefusingOnce()
        defer { other.stop() }
        let once = await observe(["--server", other.baseURL.appendingPathComponent("main_server").absoluteString, "--timeout", "900", "info"])
        #expect(once.status == 1, "--timeout turns the retries off")
        #expect(other.requests.filter { $0.query("switcher") == "GetServerInfo" }.count == 1, "\(other.requests.map(\.target))")
    }

    @Test("a silent server under BMLT_OBSERVER_DEADLINE 1: exit 1, the message names the variable; a bad value is a usage error")
    func wordsAndUsage() async throws {
        let http = try LoopbackHTTPServer { _ in .silence }
        defer { http.stop() }
        let root = http.baseURL.appendingPathComponent("main_server").absoluteString
        let run = await observe(["--server", root, "info"], environment: ["BMLT_OBSERVER_DEADLINE": "1"])
        #expect(run.status == 1)
        #expect(run.errors.contains("within BMLT_OBSERVER_DEADLINE 1 s"), "\(run.errors)")
        let bad = await observe(["--server", root, "info"], environment: ["BMLT_OBSERVER_DEADLINE": "soon"])
        #expect(bad.status == 2 && bad.errors.contains("BMLT_OBSERVER_DEADLINE needs a number of seconds"), "\(bad.errors)")
    }
}
