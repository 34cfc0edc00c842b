import BMLTKit
import Foundation
import CaptureReplay
import LoopbackHTTPServer
import Testing

/// Written only from design/API.md's names — `BMLTConnection(rootServerURL:configuration:)` (with
/// `BMLTConfiguration(timeout:)`, a hang guard), `connect()`, `validate()`,
/// `.bmltServerValidated`, `.bmltProgressDidStart/Stop`, `inFlightRequests`, `cancelAllRequests()`,
/// `BMLTRequest.cancel()` — with no `@testable` import, against the replies real 2.16.6, 3.1.2, 4.1.0 and 4.2.7 root
/// servers gave (read in place from ../shared/fixtures) served over real HTTP on 127.0.0.1.
@Suite("API contract against replayed real root servers", .needsCaptures)
@MainActor
struct RealServerReplayTests {
    @Test("connect() → progress start, serverValidated(valid) with the real version, progress stop", arguments: RealServerReplay.servers)
    func connects(server: RealServerReplay) async throws {
        let http = try server.start()
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let names = Locked()
        let center = NotificationCenter.default
        let tokens = [Notification.Name.bmltProgressDidStart, .bmltServerValidated, .bmltProgressDidStop].map { name in
            center.addObserver(forName: name, object: connection, queue: nil) { note in
                names.append(note.name.rawValue + (note.bmltIsServerValid.map { " \($0)" } ?? ""))
            }
        }
        defer { tokens.forEach(center.removeObserver) }

        let request = connection.connect()
        #expect(connection.inFlightRequests.contains(request))
        let info = try await connection.validate()
        try await settle(connection)

        #expect(info.version == server.version)
        #expect(info.versionInt == server.versionInt)
        #expect(connection.isValid)
        #expect(connection.server.serviceBodies.count == server.serviceBodyCount)
        #expect(connection.server.formats.count == server.formatCount)
        #expect(names.values == ["org.bmlt.kit.progress.didStart", "org.bmlt.kit.server.validated true",
                                 "org.bmlt.kit.server.validated true", "org.bmlt.kit.progress.didStop"])
        #expect(connection.capabilities.contains(server.version.hasPrefix("2") ? .legacyAdmin : .restAdmin))
        // 4.x: settings over REST; its json.php (an auth-only shim) and missing contact.php are never offered.
        let is4x = server.version.hasPrefix("4")
        #expect(connection.capabilities.contains(.serverSettings) == is4x)
        if is4x { #expect(!connection.capabilities.contains(.legacyAdmin) && !connection.capabilities.contains(.contactMessages)) }
    }

    @Test("cancel() and cancelAllRequests() end requests without an error; the next validation works", arguments: RealServerReplay.servers)
    func cancels(server: RealServerReplay) async throws {
        let http = try server.start(delay: 0.3)
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
            configuration: BMLTConfiguration(timeout: hangGuardTimeout))
        let outcomes = Locked()
        let center = NotificationCenter.default
        let tokens = [Notification.Name.bmltRequestCancelled, .bmltError, .bmltServerValidated].map { name in
            center.addObserver(forName: name, object: connection, queue: nil) { note in outcomes.append(note.name.rawValue) }
        }
        defer { tokens.forEach(center.removeObserver) }

        let first = connection.connect()
        connection.connect()
        connection.connect()
        #expect(connection.inFlightRequests.count == 3)
        first.cancel()
        connection.cancelAllRequests()
        try await settle(connection)
        #expect(outcomes.values == Array(repeating: "org.bmlt.kit.request.cancelled", count: 3))
        _ = try await connection.validate()
        #expect(connection.isValid)
    }
}

/// One real server's replies, served by a loopback HTTP server.
struct RealServerReplay: Sendable, CustomStringConvertible {
    let folder: String
    let serverInfo: String
    let serviceBodies: String
    let formats: String
    let languages: String?
    let version: String
    let versionInt: Int
    let serviceBodyCount: Int
    let formatCount: Int

    var description: String { "root server \(version)" }

    static let root = FixtureCaptures.root

    static var isAvailable: Bool { FixtureCaptures.isAvailable }

    static let servers: [RealServerReplay] = [
        RealServerReplay(folder: "rootserver", serverInfo: "json_GetServerInfo.json", serviceBodies: "json_GetServiceBodies.json",
                         formats: "json_GetFormats_show_all.json", languages: "json_GetLangs.json",
                         version: "2.16.6", versionInt: 2_016_006, serviceBodyCount: count("rootserver", "json_GetServiceBodies.json"),
                         formatCount: count("rootserver", "json_GetFormats_show_all.json")),
        RealServerReplay(folder: "rootserver-3x", serverInfo: "001-GetServerInfo.json", serviceBodies: "004-GetServiceBodies.json",
                         formats: "003-GetFormats-show_all.json", languages: nil,
                         version: "3.1.2", versionInt: 3_001_002, serviceBodyCount: count("rootserver-3x", "004-GetServiceBodies.json"),
                         formatCount: count("rootserver-3x", "003-GetFormats-show_all.json")),
        RealServerReplay(folder: "rootserver-4x", serverInfo: "001-GetServerInfo.json", serviceBodies: "004-GetServiceBodies.json",
                         formats: "003-GetFormats-show_all.json", languages: nil,
                         version: "4.1.0", versionInt: 4_001_000, serviceBodyCount: count("rootserver-4x", "004-GetServiceBodies.json"),
                         formatCount: count("rootserver-4x", "003-GetFormats-show_all.json")),
        RealServerReplay(folder: "rootserver-42", serverInfo: "001-GetServerInfo.json", serviceBodies: "004-GetServiceBodies.json",
                         formats: "003-GetFormats-show_all.json", languages: nil,
                         version: "4.2.7", versionInt: 4_002_007, serviceBodyCount: count("rootserver-42", "004-GetServiceBodies.json"),
                         formatCount: count("rootserver-42", "003-GetFormats-show_all.json")),
    ]

    /// The number of objects in a capture's top-level list, counted independently with JSONSerialization.
    static func count(_ folder: String, _ file: String) -> Int {
        let data = (try? Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file))) ?? Data()
        return ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.count ?? -1
    }

    func body(_ file: String) -> Data {
        (try? Data(contentsOf: Self.root.appendingPathComponent(folder).appendingPathComponent(file))) ?? Data()
    }

    /// Starts a loopback server answering like this root server did.
    func start(delay: TimeInterval = 0) throws -> LoopbackHTTPServer {
        let replies = (info: body(serverInfo), bodies: body(serviceBodies), formats: body(formats), languages: languages.map(body))
        return try LoopbackHTTPServer { request in
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if request.path.hasSuffix("GetLangs.php") {
                guard let languages = replies.languages else {
                    return .respond(status: 404, headers: ["Content-Type": "text/html"], body: Data("<html>Not Found</html>".utf8))
                }
                return .respond(status: 200, headers: [:], body: languages)
            }
            switch request.query("switcher") {
            case "GetServerInfo": return .respond(status: 200, headers: [:], body: replies.info)
            case "GetServiceBodies": return .respond(status: 200, headers: [:], body: replies.bodies)
            case "GetFormats": return .respond(status: 200, headers: [:], body: replies.formats)
            default: return .json("[]")
            }
        }
    }
}

/// Waits until the connection has nothing in flight (each fire-and-forget call then has posted its outcome).
@MainActor
func settle(_ connection: BMLTConnection, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    await waitUntil("nothing is in flight", sourceLocation: sourceLocation) { connection.inFlightRequests.isEmpty }
}

/// A thread-safe list of strings.
final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var values: [String] { lock.withLock { items } }
}
