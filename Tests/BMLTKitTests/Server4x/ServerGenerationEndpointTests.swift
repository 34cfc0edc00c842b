import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// 4.2.7 beside 4.1.0: what 4.2.7 says about itself, the editors endpoint it added, and what a server gets that
/// answers an `/api/v1` JSON endpoint it does not have with its admin page (HTML, status 200 — 4.1.0 does that for
/// `GET /api/v1/servicebodies/{id}/editors` and `/api/v1/openapi-semantic.json`): a clear `.unsupported` naming the
/// request and the server's version, never a decode error or silence.
@Suite("Root server 4.2 endpoints on 4.1.0 and 4.2.7", .needsCorpus, .serialized)
@MainActor
struct ServerGenerationEndpointTests {
    /// 4.1.0's admin UI page, as the captured server served it for a path it has no route for (capture 235).
    nonisolated static var adminPage: Data { Server4xRouter.capture("235-legacy-json-get_meeting_search_results-unsupported.html") }

    /// The editors of service body 1002 in the shape 4.2.7 answers (`[{"userId", "displayName", "readOnly"}]`;
    /// written here, not captured: the corpus has no editors reply).
    nonisolated static let editors = #"[{"userId":3,"displayName":"GNYR Admin","readOnly":false},{"userId":57,"displayName":"GNYR Helpline","readOnly":true}]"#

    /// A connection validated and logged in against `folder`, `override` answering first.
    static func connect(_ folder: String, recorder: EventRecorder = EventRecorder(),
                        _ override: @escaping @Sendable (URLRequest) -> StubServer.Response?) async throws -> (BMLTConnection, StubServer) {
        let router = Server4xRouter(folder: folder)
        let stub = StubServer { request in override(request) ?? router.handler(request) }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        return (connection, stub)
    }

    nonisolated static func isEditors(_ request: URLRequest) -> Bool {
        request.httpMethod == "GET" && request.url?.path.hasSuffix("/api/v1/servicebodies/1002/editors") == true
    }

    /// The thrown error, which must be a `BMLTError`.
    static func error(_ body: () async throws -> Void) async -> BMLTError? {
        do {
            try await body()
            Issue.record("expected an error")
        } catch let error as BMLTError {
            return error
        } catch {
            Issue.record("not a BMLTError: \(error)")
        }
        return nil
    }

    @Test("4.2.7's GetServerInfo: its version, el beside da, REST and settings but never json.php nor contact.php")
    func serverInfo() throws {
        let info = try WireServerInfo.decode(try JSONScanner.parse(try FixtureCorpus.data(FixtureCorpus.server42, "001-GetServerInfo.json")))
        #expect(info.version == "4.2.7" && info.versionInt == 4_002_007 && info.majorVersion == 4 && info.minorVersion == 2)
        #expect(info.languageCodes.contains("el") && info.languageCodes.contains("da"))
        #expect(info.defaultDuration == 3600)
        let capabilities = ServerValidator.capabilities(of: info)
        #expect(capabilities.contains(.restAdmin) && capabilities.contains(.serverSettings))
        #expect(!capabilities.contains(.legacyAdmin) && !capabilities.contains(.contactMessages))
        #expect(info.versionInt >= WireRESTEndpoint.editorsVersion)
    }

    @Test("4.2.7: GET /api/v1/servicebodies/1002/editors with the token gives the editors")
    func editorsOn427() async throws {
        let (connection, stub) = try await Self.connect(FixtureCorpus.server42) { request in
            Self.isEditors(request) ? .json(Self.editors) : nil
        }
        let editors = try await connection.serviceBodyEditors(id: 1002)
        #expect(editors == [BMLTServiceBodyEditor(userID: 3, displayName: "GNYR Admin", isReadOnly: false),
                            BMLTServiceBodyEditor(userID: 57, displayName: "GNYR Helpline", isReadOnly: true)])
        let sent = try #require(stub.requests.last { Self.isEditors($0) })
        #expect(sent.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true)
    }

    @Test("4.1.0 answers the editors with its admin page (HTML, 200): unsupported, naming the request and 4.1.0; thrown, posted and kept")
    func editorsOn410HTML() async throws {
        let recorder = EventRecorder()
        let (connection, _) = try await Self.connect(FixtureCorpus.server4x, recorder: recorder) { request in
            Self.isEditors(request) ? StubServer.Response(headers: ["Content-Type": "text/html; charset=utf-8"], body: Self.adminPage) : nil
        }
        let serviceBodies = connection.server.serviceBodies
        let error = try #require(await Self.error { _ = try await connection.serviceBodyEditors(id: 1002) })
        guard case .unsupported(let what) = error else { Issue.record("not .unsupported: \(error)"); return }
        #expect(what == .endpoint(.serviceBodyEditors(id: 1002), method: "GET", path: "servicebodies/1002/editors",
                                  serverVersion: "4.1.0", answer: .page(status: 200)))
        #expect(what.description == "the editors of service body 1002 (GET /api/v1/servicebodies/1002/editors): not supported by this server "
                + "version (4.1.0), which answered with an HTML page (status 200) instead of JSON")
        #expect(error.description.hasPrefix("This root server does not support the editors of service body 1002"))
        #expect(!error.description.contains("<") && !error.description.lowercased().contains("decode"))
        #expect(recorder.errors == [error], "one .bmltError, with the same error")
        #expect(connection.admin.lastError == error)
        #expect(connection.server.serviceBodies == serviceBodies, "nothing already held is lost")
        #expect(connection.admin.isLoggedIn, "the login stays")
    }

    @Test("4.1.0 answers the editors with a 404: the same unsupported error; 4.2.7's 404 stays notFound (no such service body)")
    func editorsAnswered404() async throws {
        let (old, _) = try await Self.connect(FixtureCorpus.server4x) { request in
            Self.isEditors(request) ? .json(#"{"message":"Not Found"}"#, status: 404) : nil
        }
        let oldError = await Self.error { _ = try await old.serviceBodyEditors(id: 1002) }
        guard case .unsupported(let what)? = oldError else { Issue.record("not .unsupported: \(String(describing: oldError))"); return }
        #expect(what == .endpoint(.serviceBodyEditors(id: 1002), method: "GET", path: "servicebodies/1002/editors",
                                  serverVersion: "4.1.0", answer: .notFound(introducedIn: "4.2.0")))
        #expect(what.description.hasSuffix("which answered 404; it exists from root server 4.2.0 on"))

        let (new, _) = try await Self.connect(FixtureCorpus.server42) { request in
            Self.isEditors(request) ? .json(#"{"message":"Not Found"}"#, status: 404) : nil
        }
        let newError = await Self.error { _ = try await new.serviceBodyEditors(id: 1002) }
        #expect(newError == .notFound(message: "Not Found"))
    }

    /// Every `/api/v1` JSON read, each answered with an admin page and status 200.
    nonisolated static let reads: [(name: String, path: String, call: @MainActor @Sendable (BMLTConnection) async throws -> Void)] = [
        ("the format list", "api/v1/formats", { _ = try await $0.adminFormats() }),
        ("format 17", "api/v1/formats/17", { _ = try await $0.adminFormat(id: 17) }),
        ("the service body list", "api/v1/servicebodies", { _ = try await $0.adminServiceBodies() }),
        ("service body 1002", "api/v1/servicebodies/1002", { _ = try await $0.adminServiceBody(id: 1002) }),
        ("the users", "api/v1/users", { _ = try await $0.users() }),
        ("user 57", "api/v1/users/57", { _ = try await $0.user(id: 57) }),
        ("the server settings", "api/v1/settings", { _ = try await $0.serverSettings() }),
        ("the root servers", "api/v1/rootservers", { _ = try await $0.rootServers() }),
        ("meeting 2", "api/v1/meetings/2", { connection in
            var criteria = BMLTSearchCriteria()
            criteria.meetingIDs = [1, 2]
            let meeting = try #require(try await connection.meetings(matching: criteria).meetings.first { $0.id == 2 })
            _ = try await connection.saveAndWait(meeting.editable())   // nothing changed: the meeting is read back
        }),
    ]

    @Test("any /api/v1 JSON read answered with HTML and 200 is unsupported, naming what was asked, the request and the version",
          arguments: FixtureCorpus.servers4x, 0..<reads.count)
    func htmlOnAnyRead(folder: String, index: Int) async throws {
        let read = Self.reads[index]
        let armed = Locked(false)   // after the login, which reads the user and the service bodies itself
        let (connection, _) = try await Self.connect(folder) { request in
            armed.withLock { $0 } && request.httpMethod == "GET" && request.url?.path == "/main_server/" + read.path
                ? StubServer.Response(headers: ["Content-Type": "text/html; charset=utf-8"], body: Self.adminPage) : nil
        }
        armed.withLock { $0 = true }
        let version = folder == FixtureCorpus.server42 ? "4.2.7" : "4.1.0"
        let error = await Self.error { try await read.call(connection) }
        guard case .unsupported(let what)? = error else { Issue.record("\(read.path): not .unsupported: \(String(describing: error))"); return }
        #expect(what.description == "\(read.name) (GET /\(read.path)): not supported by this server version (\(version)), "
                + "which answered with an HTML page (status 200) instead of JSON")
    }

    @Test("the semantic OpenAPI path on 4.1.0: its admin page (200) and an HTML 404 give the same unsupported error; 4.2.7's JSON is read")
    func semanticOpenAPI() throws {
        let old = try WireServerInfo.decode(try JSONScanner.parse(Server4xRouter.capture("001-GetServerInfo.json")))
        let new = try WireServerInfo.decode(try JSONScanner.parse(try FixtureCorpus.data(FixtureCorpus.server42, "001-GetServerInfo.json")))
        let what = BMLTError.Subject.request
        func reply(_ status: Int, _ type: String, _ body: Data) -> HTTPReply {
            HTTPReply(data: body, statusCode: status, headers: ["content-type": type], url: nil)
        }
        let page = WireRESTEndpoint.missing(reply(200, "text/html; charset=utf-8", Self.adminPage), method: "GET",
                                            path: "openapi-semantic.json", what: what, server: old)
        #expect(page == .unsupported(.endpoint(.request, method: "GET", path: "openapi-semantic.json", serverVersion: "4.1.0",
                                               answer: .page(status: 200))))
        #expect(page?.description == "This root server does not support the request (GET /api/v1/openapi-semantic.json): not supported by "
                + "this server version (4.1.0), which answered with an HTML page (status 200) instead of JSON.")
        let notFound = WireRESTEndpoint.missing(reply(404, "text/html", Data("<html><title>Not Found</title></html>".utf8)), method: "GET",
                                                path: "openapi-semantic.json", what: what, server: old)
        guard case .unsupported(let pageText)? = page, case .unsupported(let notFoundText)? = notFound else {
            Issue.record("\(String(describing: page)) / \(String(describing: notFound))")
            return
        }
        #expect(notFoundText == .endpoint(.request, method: "GET", path: "openapi-semantic.json", serverVersion: "4.1.0", answer: .pageNotFound))
        #expect(pageText != notFoundText)
        // 4.2.7 answers with the document: no refusal, the JSON is read.
        let document = reply(200, "application/json", Data(#"{"openapi":"3.1.0","paths":{}}"#.utf8))
        #expect(WireRESTEndpoint.missing(document, method: "GET", path: "openapi-semantic.json", what: what, server: new) == nil)
        #expect(try WireRESTEndpoint.json(document, path: "openapi-semantic.json", what: what, server: new)["openapi"]?.string == "3.1.0")
        // Neither a JSON body sent as text/html (a misconfigured server) nor an empty 200 is taken for a missing endpoint.
        #expect(WireRESTEndpoint.missing(reply(200, "text/html", Data("[]".utf8)), method: "GET", path: "x", what: what, server: old) == nil)
        #expect(WireRESTEndpoint.missing(reply(200, "text/html", Data()), method: "GET", path: "x", what: what, server: old) == nil)
    }
}
