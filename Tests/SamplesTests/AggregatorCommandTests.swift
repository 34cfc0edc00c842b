import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing
@testable import ObserverCLI

/// `bmlt-observer --server URL` against the real 4.1.0 aggregator (three root servers), replayed over HTTP on
/// 127.0.0.1: a strict replay answers only the requests recorded in `index.md`.
@Suite("bmlt-observer against a replayed aggregator", .needsCaptures, .serialized)
@MainActor
struct AggregatorCommandTests {
    private func run(_ http: LoopbackHTTPServer, _ arguments: [String]) async -> Int32 {
        let server = http.baseURL.appendingPathComponent("main_server").absoluteString
        return await ObserverCLI.run(["--no-spinner", "--server", server] + arguments, environment: hangGuardEnvironment)
    }

    private func searches(_ http: LoopbackHTTPServer) -> Int {
        http.requests.filter { $0.target.contains("switcher=GetSearchResults") }.count
    }

    @Test("root-servers lists them: exit 0, from the list validation read")
    func rootServers() async throws {
        let http = try CaptureReplayServer.start(folder: "aggregator-4x")
        defer { http.stop() }
        #expect(await run(http, ["root-servers"]) == 0)
        #expect(http.requests.filter { $0.target.hasSuffix("/api/v1/rootservers") }.count == 1)
    }

    @Test("search --root-server and a filtered search: exit 0, the recorded request")
    func filteredSearch() async throws {
        let http = try CaptureReplayServer.start(folder: "aggregator-4x")
        defer { http.stop() }
        #expect(await run(http, ["search", "--meetings-only", "--service-body", "5", "--service-body", "49", "--service-body", "93",
                                 "--weekday", "mon"]) == 0)
        #expect(await run(http, ["search", "--meetings-only", "--root-server", "4"]) == 0)
        #expect(http.requests.contains { $0.target.contains("root_server_ids") && $0.target.contains("=4") })
        #expect(searches(http) == 2)
    }

    @Test("search --weekday tue on an aggregator: a usage error (exit 2) naming what to add, nothing searched")
    func unfilteredSearch() async throws {
        let http = try CaptureReplayServer.start(folder: "aggregator-4x")
        defer { http.stop() }
        #expect(await run(http, ["search", "--weekday", "tue"]) == 2)
        #expect(searches(http) == 0)
        #expect(RootServersCommand.filterAdvice.contains("--root-server"))
    }
}
