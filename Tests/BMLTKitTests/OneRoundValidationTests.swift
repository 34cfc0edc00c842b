import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// Validation sends GetServiceBodies and GetFormats beside GetServerInfo (one round of requests): what a server that is
/// not a root server answers to them must never reach the stores, the cache or the notifications.
@Suite("Validation in one round")
@MainActor
struct OneRoundValidationTests {
    /// What the lists sent beside GetServerInfo get from a server that is not a root server.
    nonisolated static let listAnswers: [(String, StubServer.Response)] = [
        ("an HTTP error", .text("<html><title>Internal Server Error</title></html>", status: 500)),
        ("an HTML page", .text("<!DOCTYPE html><html><body>Welcome to my blog</body></html>")),
        ("nothing (never answers)", .hanging),
        ("a lost connection", .failing(.networkConnectionLost)),
        ("lists that look real", .json(SampleReplies.serviceBodies)),
    ]

    /// What GetServerInfo says, and the cause that must be reported.
    nonisolated static let infoAnswers: [(String, StubServer.Response, BMLTError)] = [
        ("an HTML page", StubServer.Response(status: 200, headers: ["Content-Type": "text/html"],
                                             body: Data("<!DOCTYPE html><html><body>Welcome</body></html>".utf8), delay: 0.2),
         .notARootServer(reason: .unreadable(.page))),
        ("JSON that is not a root server", .json(#"[{"name":"my blog"}]"#, delay: 0.2), .notARootServer(reason: .noVersion)),
        ("a version too old", .json(#"[{"version":"1.10.3","versionInt":"1010003"}]"#, delay: 0.2),
         .unsupportedServerVersion(found: "1.10.3", minimum: "2.0.0")),
    ]

    @Test("GetServerInfo says it is not a root server while the lists sent beside it fail: one serverValidated(false) with the true cause, nothing of the lists kept",
          arguments: 0..<3, 0..<5)
    func notARootServer(info infoIndex: Int, lists listIndex: Int) async throws {
        let (infoName, infoAnswer, expected) = Self.infoAnswers[infoIndex]
        let (listName, listAnswer) = Self.listAnswers[listIndex]
        let label = "GetServerInfo: \(infoName); lists: \(listName)"
        let stub = StubServer { request in
            request.query("switcher") == "GetServerInfo" ? infoAnswer : listAnswer
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-one-round-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
        let recorder = EventRecorder()
        let center = NotificationCenter()
        var configuration = stub.configuration(center: center, monitors: [recorder])
        configuration.cache = cache
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        let posted = Locked<[(isValid: Bool?, error: BMLTError?)]>([])
        let tokens = [Notification.Name.bmltServerValidated, .bmltServiceBodyResults, .bmltFormatSearchResults].map { name in
            center.addObserver(forName: name, object: connection, queue: nil) { note in
                posted.withLock { $0.append((name == .bmltServerValidated ? note.bmltIsServerValid : nil, note.bmltError)) }
            }
        }
        defer { for token in tokens { center.removeObserver(token) } }

        var thrown: BMLTError?
        do { _ = try await connection.validate() } catch { thrown = error as? BMLTError }

        #expect(thrown.map(ServerValidationTests.normalized) == expected, "\(label)")
        #expect(recorder.names == ["progress.didStart", "server.validated", "error", "progress.didStop"], "\(label)")
        #expect(recorder.errors.map(ServerValidationTests.normalized) == [expected], "\(label)")
        let notes = posted.withLock { $0 }
        #expect(notes.count == 1 && notes.first?.isValid == false, "\(label): \(notes)")
        #expect(notes.first?.error.map(ServerValidationTests.normalized) == expected, "\(label)")
        #expect(!connection.isValid && connection.server.info == nil, "\(label)")
        #expect(connection.server.serviceBodies.isEmpty && connection.server.formats.isEmpty && connection.server.languages.isEmpty, "\(label)")
        #expect(connection.server.lastError.map(ServerValidationTests.normalized) == expected, "\(label)")
        #expect(connection.inFlightRequests.isEmpty && connection.transport.pendingCount == 0, "\(label): no request outlives the validation")
        for (switcher, query) in [("GetServiceBodies", [URLQueryItem]()), ("GetFormats", AggregatorValidation.rootServerFormatQuery)] {
            let url = connection.transport.urls.url(root: connection.rootServerURL, path: "client_interface/json/",
                                                    query: [URLQueryItem(name: "switcher", value: switcher)] + query)
            #expect(cache.body(for: CacheKey(root: connection.rootServerURL, url: url)) == nil, "\(label): \(switcher) was cached")
        }
        // A later validation of a healthy server is not disturbed by anything left from this one.
        stub.answer(SampleReplies.healthy())
        _ = try await connection.validate()
        #expect(connection.isValid && connection.server.serviceBodies.count == 4, "\(label)")
    }

    @Test("the lists sent beside GetServerInfo are kept in the cache once the server is known to be a root server")
    func listsCachedWhenUsed() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bmlt-one-round-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = BMLTResponseCache(directory: directory, maximumBytes: 10_000_000)
        var configuration = stub.configuration()
        configuration.cache = cache
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        for (switcher, query) in [("GetServiceBodies", [URLQueryItem]()), ("GetFormats", AggregatorValidation.rootServerFormatQuery)] {
            let url = connection.transport.urls.url(root: connection.rootServerURL, path: "client_interface/json/",
                                                    query: [URLQueryItem(name: "switcher", value: switcher)] + query)
            #expect(cache.body(for: CacheKey(root: connection.rootServerURL, url: url)) != nil, "\(switcher)")
        }
    }

    @Test("GetServiceBodies and GetFormats are sent before GetServerInfo has answered; GetLangs.php only once it has said 2.x")
    func oneRound() async throws {
        let infoAnswered = Locked(false)
        let sentBeforeInfo = Locked<Set<String>>([])
        // A real server (a thread per connection): GetServerInfo answers only once both lists have been asked for, or
        // after 900 s (a hang guard), and then the test fails.
        let server = try LoopbackHTTPServer { request in
            let name = request.path.hasSuffix("GetLangs.php") ? "GetLangs.php" : (request.query("switcher") ?? "")
            if !infoAnswered.withLock({ $0 }) { sentBeforeInfo.withLock { _ = $0.insert(name) } }
            if name == "GetServerInfo" {
                let deadline = Date().addingTimeInterval(900)
                while sentBeforeInfo.withLock({ !$0.isSuperset(of: ["GetServiceBodies", "GetFormats"]) }), Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.005)
                }
                infoAnswered.withLock { $0 = true }
            }
            return LoopbackTransportTests.healthy(request)
        }
        defer { server.stop() }
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout, retryPolicy: .none))
        _ = try await connection.validate()
        #expect(sentBeforeInfo.withLock { $0 } == ["GetServerInfo", "GetServiceBodies", "GetFormats"])
        #expect(connection.capabilities.contains(.languageList))
        #expect(server.requests.filter { $0.path.hasSuffix("GetLangs.php") }.count == 1)

        let modern = StubServer(SampleReplies.healthy(serverInfo: SampleReplies.serverInfo3x))
        let modernConnection = BMLTConnection(rootServerURL: modern.rootURL, configuration: modern.configuration())
        _ = try await modernConnection.validate()
        #expect(!modern.requests.contains { $0.url!.path.hasSuffix("GetLangs.php") }, "no GetLangs.php on 3.x")
    }

    @Test("requests to one server share kept-alive connections: a validation and three searches over a few TCP connections")
    func connectionsReused() async throws {
        let server = try LoopbackHTTPServer(handler: LoopbackTransportTests.healthy)
        defer { server.stop() }
        server.keepsConnectionsAlive = true
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: hangGuardTimeout, retryPolicy: .none))
        _ = try await connection.validate()
        let afterValidation = server.connectionsAccepted
        var criteria = BMLTSearchCriteria()
        criteria.serviceBodyIDs = [10]
        for _ in 0..<3 { _ = try await connection.meetings(matching: criteria) }
        // Validation's first round runs three requests at once (at most three connections; GetLangs.php may reuse
        // one of them); the searches that follow, one at a time, reuse what is open.
        #expect(afterValidation <= 3, "validation opened \(afterValidation) connections")
        #expect(server.connectionsAccepted == afterValidation, "the searches opened \(server.connectionsAccepted - afterValidation) more")
        #expect(server.requests.count == 7)
    }
}
