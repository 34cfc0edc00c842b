import CaptureReplay
import Foundation
import LoopbackHTTPServer
import Testing

/// The response cache across processes: one `bmlt-observer` run against the replayed real 4.1.0 server fills a cache
/// directory; the server goes away; a new process with the same directory still validates and shows the same
/// meetings, each notification saying it came from the cache.
@Suite("bmlt-observer --cache across processes", .needsCaptures,
       .enabled(if: ChildProcess.isSupported, "child processes need Process (macOS and Linux only)"))
struct CacheProcessTests {
    @Test("a server that has since gone down: a new process shows Monday's meetings of service body 1002 from the cache")
    func offlineInANewProcess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-observer-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CaptureReplayServer.start(folder: "rootserver-4x")
        let root = server.baseURL.appendingPathComponent("main_server").absoluteString
        let search = ["--no-spinner", "--server", root, "--cache", directory.path, "search", "--service-body", "1002", "--weekday", "mon"]
        let online = try #require(try await HostAppProcessTests.run("bmlt-observer", search, environment: hangGuardEnvironment))
        #expect(online.status == 0, "\(online.output)")
        #expect(!online.output.contains("from the cache"))
        let found = try #require(online.output.split(separator: "\n").first { $0.hasSuffix(" meetings") || $0.hasSuffix(" meeting") })
        server.stop()

        let offline = try #require(try await HostAppProcessTests.run("bmlt-observer", search, environment: hangGuardEnvironment))
        #expect(offline.status == 0, "\(offline.output)")
        #expect(offline.output.contains("serverValidated        valid: root server 4.1.0 (from the cache)"), "\(offline.output)")
        #expect(offline.output.split(separator: "\n").contains { $0.contains("searchMeetings") && $0.hasSuffix("(from the cache)") })
        #expect(offline.output.split(separator: "\n").contains(found), "the same meetings: \(found)")

        let refused = try #require(try await HostAppProcessTests.run("bmlt-observer", Array(search.prefix(3)) + ["search", "--service-body", "1002"],
                                                                 environment: hangGuardEnvironment))
        #expect(refused.status == 1, "a search never made online has nothing to fall back on")
    }
}
