import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Server administration over REST (formats, service bodies, users, settings, root servers): the 3.1.2
/// captures replayed, then a stub driven by the OpenAPI file that answers every documented status code of every
/// endpoint, with every request body checked against the spec's schema.
@Suite("REST server administration (3.1.2 captures and the spec)", .needsCorpus, .serialized)
@MainActor
struct ServerAdminTests {
    nonisolated static func capture(_ name: String) -> Data { RESTAdminReplayTests.capture(name) }

    nonisolated static let settingsJSON = #"{"googleApiKey":"","language":"en","distanceUnits":"mi","defaultDurationTime":"01:00","meetingStatesAndProvinces":["NY"],"searchSpecMapCenterLatitude":40.7,"autoGeocodingEnabled":true}"#
    nonisolated static let editorsJSON = #"[{"userId":57,"displayName":"GNYR Helpline","readOnly":true},{"userId":3,"displayName":"GNYR Admin","readOnly":false}]"#
    nonisolated static let rootServerJSON = #"{"id":1,"sourceId":12,"name":"Greater New York","url":"https://bmlt.newyorkna.org/main_server/","lastSuccessfulImport":"2026-11-01T05:00:00.000000Z","statistics":{"serviceBodies":{"numZones":0,"numRegions":1,"numAreas":12,"numGroups":0},"meetings":{"numTotal":1512,"numInPerson":1300,"numVirtual":150,"numHybrid":60,"numUnknown":2}}}"#

    /// The answers that log in and validate, as the 3.1.2 server gave them; `nil` for anything else.
    nonisolated static func base(_ request: URLRequest, observer: Bool = false) -> StubServer.Response? {
        let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
        switch (request.httpMethod ?? "GET", path) {
        case ("GET", "client_interface/json"), ("GET", "client_interface/json/"):
            switch request.query("switcher") {
            case "GetServerInfo": return .init(body: capture("001-GetServerInfo.json"))
            case "GetServiceBodies": return .init(body: capture("004-GetServiceBodies.json"))
            case "GetFormats": return .init(body: capture("003-GetFormats-show_all.json"))
            default: return .json("[]")
            }
        case ("POST", "api/v1/auth/token"): return .init(body: capture(observer ? "190-auth-token-observer.json" : "101-auth-token-serveradmin.json"))
        case ("GET", "api/v1/users/1"), ("GET", "api/v1/users/57"):
            let id = path.hasSuffix("/57") ? 57 : 1
            let users = (try? JSONScanner.parse(capture("150-users.json")))?.array ?? []
            return .json(users.first { $0["id"]?.int == id }.map { WireJSONWriter.text($0) } ?? "{}")
        case ("GET", "api/v1/servicebodies"): return .init(body: capture("140-servicebodies.json"))
        default: return nil
        }
    }

    /// The 3.1.2 replies to the server-administration calls, by method and path.
    nonisolated static func replay(_ request: URLRequest) -> StubServer.Response {
        if let answer = base(request) { return answer }
        let path = request.url!.path.replacingOccurrences(of: "/main_server/", with: "")
        func json(_ name: String, _ status: Int = 200) -> StubServer.Response { .init(status: status, body: capture(name)) }
        switch (request.httpMethod ?? "GET", path) {
        case ("GET", "api/v1/formats"): return json("130-formats.json")
        case ("GET", "api/v1/formats/17"): return json("131-format-17.json")
        case ("GET", "api/v1/formats/99999"): return json("132-format-404.json", 404)
        case ("DELETE", "api/v1/formats/17"): return json("133-format-delete-in-use-409.json", 409)
        case ("GET", "api/v1/servicebodies/1002"): return json("141-servicebody-1002.json")
        case ("DELETE", "api/v1/servicebodies/2"): return json("142-servicebody-delete-with-children-409.json", 409)
        case ("GET", "api/v1/users"): return json("150-users.json")
        case ("GET", "api/v1/settings"): return json("160-settings-not-in-3x.json", 404)
        case ("GET", "api/v1/rootservers"): return json("170-rootservers-public-no-token.json", 404)
        case ("GET", "api/v1/rootservers/1"): return json("171-rootserver-404.json", 404)
        default: return .json(#"{"message":"Not Found"}"#, status: 404)
        }
    }

    func loggedIn(_ handler: @escaping StubServer.Handler, recorder: EventRecorder = EventRecorder()) async throws -> (BMLTConnection, StubServer) {
        let stub = StubServer(handler)
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: RESTAdminReplayTests.password)
        recorder.removeAll()
        return (connection, stub)
    }

    /// What a button action does: synchronous code, where the bare verbs and `fetch` + a noun are the fire-and-forget forms.
    func startFromAButton(_ connection: BMLTConnection) -> [BMLTRequest] {
        [connection.fetchAdminFormats(), connection.deleteFormat(id: 17), connection.fetchUsers()]
    }

    @Test("the fire-and-forget forms (an action's bare verb, fetch + a read's noun) start the calls; each outcome is an event with its request")
    func fireAndForgetForms() async throws {
        let recorder = EventRecorder()
        let (connection, _) = try await loggedIn(Self.replay, recorder: recorder)
        let requests = startFromAButton(connection)
        #expect(requests.allSatisfy { $0.kind == .serverAdministration })
        await waitUntil("nothing is in flight") { connection.inFlightRequests.isEmpty }
        let outcomes = recorder.all.compactMap { event -> (request: BMLTRequest, outcome: String)? in
            switch event {
            case .serverAdminResults(.formats, let request): return (request, "formats")
            case .serverAdminResults(.users, let request): return (request, "users")
            case .error(.conflict, let request?): return (request, "conflict")
            case .serverAdminResults(_, let request), .serverAdminSaved(_, let request): return (request, "other")
            case .error(_, let request?): return (request, "other error")
            default: return nil
            }
        }
        #expect(outcomes.count == 3 && Set(outcomes.map(\.request.id)) == Set(requests.map(\.id)), "one outcome per request")
        #expect(outcomes.first { $0.request === requests[0] }?.outcome == "formats")
        #expect(outcomes.first { $0.request === requests[1] }?.outcome == "conflict", "format 17 is in use (409)")
        #expect(outcomes.first { $0.request === requests[2] }?.outcome == "users")
        #expect(!connection.admin.formats.isEmpty)
    }

    @Test("the 3.1.2 replies: formats, service bodies, users; 409s name the cause; 3.x settings and non-aggregator root servers are unsupported")
    func replayCaptures() async throws {
        let recorder = EventRecorder()
        let (connection, _) = try await loggedIn(Self.replay, recorder: recorder)
        let raw = try #require(try FixtureCorpus.raw(FixtureCorpus.modern, "130-formats.json") as? [[String: Any]])

        let formats = try await connection.adminFormats()
        #expect(formats.count == raw.count && formats.map(\.id) == raw.map { $0["id"] as? Int ?? -1 })
        #expect(formats.first?.worldID == "BEG" && formats.first?.translations.map(\.language) == ["en", "es", "fr"])
        #expect(formats.first?.translation("es")?.name == "Para el recién llegado")
        #expect(connection.admin.formats == formats)
        let seventeen = try await connection.adminFormat(id: 17)
        let raw17 = try #require(try FixtureCorpus.raw(FixtureCorpus.modern, "131-format-17.json") as? [String: Any])
        #expect(seventeen.id == 17 && seventeen.translations.count == (raw17["translations"] as? [Any])?.count)
        do {
            _ = try await connection.adminFormat(id: 99999)
            Issue.record("format 99999 was found")
        } catch BMLTError.notFound {}
        do {
            try await connection.deleteFormatAndWait(id: 17)
            Issue.record("a format in use was deleted")
        } catch let error as BMLTError {
            guard case .conflict(let message) = error else { Issue.record("\(error)"); return }
            #expect(message == "format 17 cannot be deleted: You cannot delete a format while meetings are using it.")
            #expect(connection.admin.lastError == error && connection.admin.formats == formats, "the formats are kept")
        }

        let bodies = try await connection.adminServiceBodies()
        #expect(bodies.count == connection.server.serviceBodies.count)
        #expect(bodies.first?.assignedUserIDs == [57, 79] && bodies.first?.adminUserID == 3 && bodies.first?.parentID == nil)
        let area = try await connection.adminServiceBody(id: 1002)
        #expect(area.id == 1002 && connection.server.serviceBody(id: 1002)?.name == area.name)
        do {
            try await connection.deleteServiceBodyAndWait(id: 2)
            Issue.record("a service body with children was deleted")
        } catch BMLTError.conflict(let message) {
            #expect(message?.contains("other service bodies or meetings are assigned to it") == true)
            #expect(connection.server.serviceBody(id: 2) != nil, "the tree keeps it")
        }

        let users = try await connection.users()
        #expect(users.first?.username == "serveradmin" && users.first?.role == .serverAdministrator)
        #expect(users.contains { $0.id == 57 && $0.role == .observer })
        #expect(connection.admin.users == users)

        await #expect(throws: BMLTError.self) { _ = try await connection.serverSettings() }
        do { _ = try await connection.serverSettings() } catch BMLTError.unsupported(let what) { #expect(what == .serverSettings && what.description.contains("4.0")) }
        do { _ = try await connection.rootServers() } catch BMLTError.unsupported(let what) { #expect(what.description.contains("aggregator")) }
        await #expect(throws: BMLTError.notFound(message: "Not Found")) { _ = try await connection.rootServer(id: 1) }

        let names = recorder.all.map(\.notificationName).filter { $0 != .bmltProgressDidStart && $0 != .bmltProgressDidStop }
        #expect(names.filter { $0 == .bmltServerAdminResults }.count == 5)
        #expect(names.filter { $0 == .bmltError }.count == 7)
        #expect(connection.admin.isLoggedIn, "refusals other than 401 keep the login")
    }

    @Test("an observer's delete is refused with 403 (the 3.1.2 reply), typed, and keeps the login")
    func observerForbidden() async throws {
        let stub = StubServer { request in
            if let answer = Self.base(request, observer: true) { return answer }
            if request.httpMethod == "DELETE" { return .init(status: 403, body: Self.capture("192-observer-delete-format-403.json")) }
            return .json(#"{"message":"Not Found"}"#, status: 404)
        }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "gnyr-helpline", password: RESTAdminReplayTests.password)
        do {
            try await connection.deleteFormatAndWait(id: 17)
            Issue.record("the observer deleted a format")
        } catch BMLTError.forbidden {
            #expect(connection.admin.isLoggedIn)
        }
    }

    @Test("create, patch and delete: bodies as the spec says, the password only in the body, stores and tree follow, one notification each")
    func writes() async throws {
        let recorder = EventRecorder()
        let bodies = Locked<[String: Data]>([:])
        let (connection, stub) = try await loggedIn({ request in
            if let answer = Self.base(request) { return answer }
            let path = request.url!.path.replacingOccurrences(of: "/main_server", with: "")
            let method = request.httpMethod ?? "GET"
            if let body = request.httpBody { bodies.withLock { $0[method + " " + path] = body } }
            switch (method, path) {
            case ("POST", "/api/v1/formats"): return .json(Self.withID(request.httpBody, 700), status: 201)
            case ("PATCH", "/api/v1/formats/700"), ("DELETE", "/api/v1/formats/700"),
                 ("PATCH", "/api/v1/servicebodies/900"), ("DELETE", "/api/v1/servicebodies/900"),
                 ("PATCH", "/api/v1/users/800"), ("DELETE", "/api/v1/users/800"),
                 ("PATCH", "/api/v1/settings"):
                return .init(status: 204, headers: [:])
            case ("GET", "/api/v1/formats/700"):
                return .json(Self.withID(bodies.withLock { Self.patched($0["POST /api/v1/formats"], $0["PATCH /api/v1/formats/700"]) }, 700))
            case ("POST", "/api/v1/servicebodies"): return .json(Self.withID(request.httpBody, 900), status: 201)
            case ("GET", "/api/v1/servicebodies/900"):
                return .json(Self.withID(bodies.withLock { Self.patched($0["POST /api/v1/servicebodies"], $0["PATCH /api/v1/servicebodies/900"]) }, 900))
            case ("POST", "/api/v1/users"): return .json(Self.withID(request.httpBody, 800, dropping: "password"), status: 201)
            case ("GET", "/api/v1/users/800"):
                return .json(Self.withID(bodies.withLock { Self.patched($0["POST /api/v1/users"], $0["PATCH /api/v1/users/800"]) }, 800, dropping: "password"))
            case ("GET", "/api/v1/settings"): return .json(Self.settingsJSON)
            case ("GET", "/api/v1/servicebodies/900/editors"): return .json(Self.editorsJSON)
            default: return .json(#"{"message":"Not Found"}"#, status: 404)
            }
        }, recorder: recorder)
        _ = try await connection.adminServiceBodies()
        let before = connection.server.serviceBodies.count

        // Formats.
        let draft = BMLTAdminFormat(worldID: "VM", type: "FC2",
                                    translations: [.init(key: "TV", name: "Test Virtual", description: "A test", language: "en")])
        let created = try await connection.createFormatAndWait(draft)
        #expect(created.id == 700 && created.translations == draft.translations && connection.admin.formats.last == created)
        var edited = created
        edited.translations.append(.init(key: "VP", name: "Virtual de prueba", language: "es"))
        var patched = edited
        patched.worldID = "HY"
        let afterPatch = try await connection.patchFormatAndWait(patched, from: edited)
        #expect(String(decoding: bodies.withLock { $0["PATCH /api/v1/formats/700"] } ?? Data(), as: UTF8.self) == #"{"worldId":"HY"}"#,
                "a patch sends only what changed")
        #expect(afterPatch.worldID == "HY")
        try await connection.deleteFormatAndWait(id: 700)
        #expect(!connection.admin.formats.contains { $0.id == 700 })

        // Service bodies: the server store's list and tree follow.
        let area = BMLTAdminServiceBody(parentID: 1, name: "Test Area", type: "AS", adminUserID: 3, assignedUserIDs: [57])
        let newArea = try await connection.createServiceBodyAndWait(area)
        #expect(newArea.id == 900 && connection.server.serviceBodies.count == before + 1)
        #expect(connection.server.serviceBodyTree.first { $0.id == 1 }?.children.contains { $0.id == 900 } == true)
        var renamed = newArea
        renamed.name = "Renamed Area"
        _ = try await connection.patchServiceBodyAndWait(renamed, from: newArea)
        #expect(connection.server.serviceBody(id: 900)?.name == "Renamed Area")
        #expect(String(decoding: bodies.withLock { $0["PATCH /api/v1/servicebodies/900"] } ?? Data(), as: UTF8.self) == #"{"name":"Renamed Area"}"#)
        #expect(try await connection.serviceBodyEditors(id: 900).map(\.userID) == [57, 3])
        try await connection.deleteServiceBodyAndWait(id: 900, force: true)
        #expect(connection.server.serviceBodies.count == before && connection.server.serviceBody(id: 900) == nil)
        #expect(stub.requests.contains { $0.httpMethod == "DELETE" && $0.url?.query == "force=true" })

        // Users: the password only ever in a body.
        let user = BMLTAdminUser(username: "tester", type: "observer", displayName: "Tester", ownerID: 1)
        let newUser = try await connection.createUserAndWait(user, password: "S3cret-pw!")
        #expect(newUser.id == 800 && connection.admin.users.contains(newUser))
        var renamedUser = newUser
        renamedUser.displayName = "Tester 2"
        _ = try await connection.patchUserAndWait(renamedUser, from: newUser, password: "N3w-pw!")
        #expect(String(decoding: bodies.withLock { $0["PATCH /api/v1/users/800"] } ?? Data(), as: UTF8.self)
                == #"{"displayName":"Tester 2","password":"N3w-pw!"}"#)
        try await connection.deleteUserAndWait(id: 800)

        // Settings (a 4.x server).
        let settings = try await connection.patchServerSettingsAndWait(["language": .string("en"), "autoGeocodingEnabled": .bool(true)])
        #expect(settings["distanceUnits"] == .string("mi") && connection.admin.settings == settings)

        for request in stub.requests {
            let text = request.url!.absoluteString + (request.allHTTPHeaderFields ?? [:]).description
            #expect(!text.contains("S3cret-pw!") && !text.contains("N3w-pw!"), "a password outside a body: \(request.url!)")
        }
        for event in recorder.all {
            #expect(!String(describing: event).contains("S3cret-pw!"), "a password in an event")
        }
        #expect(!String(describing: BMLTServerAdminAction.createUser(user, password: "S3cret-pw!")).contains("S3cret"))
        let names = recorder.all.map(\.notificationName).filter { $0 != .bmltProgressDidStart && $0 != .bmltProgressDidStop }
        var expected: [Notification.Name] = [.bmltServerAdminResults]
        expected += [.bmltFormatSaved, .bmltFormatSaved, .bmltFormatDeleted]
        expected += [.bmltServiceBodySaved, .bmltServiceBodySaved, .bmltServerAdminResults, .bmltServiceBodyDeleted]
        expected += [.bmltUserSaved, .bmltUserSaved, .bmltUserDeleted, .bmltSettingsSaved]
        #expect(names == expected)
        let saved = recorder.all.compactMap { event -> Bool? in
            if case .serverAdminSaved(.format(_, let wasCreated), _) = event { return wasCreated }
            return nil
        }
        #expect(saved == [true, false])
    }

    @Test("a legacy (2.x) server answers unsupported without a request to /api/v1")
    func legacyUnsupported() async throws {
        let stub = StubServer(LegacyAdminReplayTests.router())
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        try await connection.login(username: "serveradmin", password: LegacyAdminReplayTests.password)
        do {
            _ = try await connection.adminFormats()
            Issue.record("a legacy server gave REST formats")
        } catch BMLTError.unsupported(let what) {
            #expect(what == .serverAdministration && what.description.contains("REST"))
        }
        #expect(!stub.requests.contains { $0.url?.path.contains("/api/v1") == true })
    }

    // MARK: - Every documented status code of every endpoint

    /// A documented (method, path, status) of the spec, with the call that reaches it.
    struct Case: Sendable, CustomStringConvertible {
        let method: String
        let path: String
        let status: Int
        var description: String { "\(method) \(path) → \(status)" }
    }

    nonisolated static let covered = ["/api/v1/formats", "/api/v1/servicebodies", "/api/v1/users", "/api/v1/settings", "/api/v1/rootservers"]

    nonisolated static let cases: [Case] = {
        guard let paths = RESTSpec.document["paths"] as? [String: [String: Any]] else { return [] }
        var cases: [Case] = []
        for (path, operations) in paths where covered.contains(where: { path.hasPrefix($0) }) {
            // BMLTKit edits by PATCH only (what changed, never a full replace): the spec's PUTs have no call.
            for (method, operation) in operations where method.uppercased() != "PUT" {
                guard let responses = (operation as? [String: Any])?["responses"] as? [String: Any] else { continue }
                for status in responses.keys.compactMap(Int.init) { cases.append(Case(method: method.uppercased(), path: path, status: status)) }
            }
        }
        return cases.sorted { $0.description < $1.description }
    }()

    /// The call that sends `method path`.
    static func action(_ testCase: Case) -> BMLTServerAdminAction? {
        let format = BMLTAdminFormat(id: 17, worldID: "OPEN", type: "FC3", translations: [.init(key: "O", name: "Open", language: "en")])
        var patchedFormat = format
        patchedFormat.type = "O"
        let body = BMLTAdminServiceBody(id: 1002, parentID: 1, name: "Area", type: "AS", adminUserID: 3, assignedUserIDs: [57])
        var patchedBody = body
        patchedBody.name = "Area 2"
        let user = BMLTAdminUser(id: 57, username: "observer", type: "observer", displayName: "Observer", ownerID: 1)
        var patchedUser = user
        patchedUser.email = "o@example.org"
        switch (testCase.method, testCase.path) {
        case ("GET", "/api/v1/formats"): return .formats
        case ("POST", "/api/v1/formats"): return .createFormat(format)
        case ("GET", "/api/v1/formats/{formatId}"): return .format(id: 17)
        case ("PATCH", "/api/v1/formats/{formatId}"): return .patchFormat(patchedFormat, original: format)
        case ("DELETE", "/api/v1/formats/{formatId}"): return .deleteFormat(id: 17)
        case ("GET", "/api/v1/servicebodies"): return .serviceBodies
        case ("POST", "/api/v1/servicebodies"): return .createServiceBody(body)
        case ("GET", "/api/v1/servicebodies/{serviceBodyId}"): return .serviceBody(id: 1002)
        case ("PATCH", "/api/v1/servicebodies/{serviceBodyId}"): return .patchServiceBody(patchedBody, original: body)
        case ("DELETE", "/api/v1/servicebodies/{serviceBodyId}"): return .deleteServiceBody(id: 1002, force: false)
        case ("GET", "/api/v1/servicebodies/{serviceBodyId}/editors"): return .serviceBodyEditors(id: 1002)
        case ("GET", "/api/v1/users"): return .users
        case ("POST", "/api/v1/users"): return .createUser(user, password: "pw-123456")
        case ("GET", "/api/v1/users/{userId}"): return .user(id: 57)
        case ("PATCH", "/api/v1/users/{userId}"): return .patchUser(patchedUser, original: user, password: nil)
        case ("DELETE", "/api/v1/users/{userId}"): return .deleteUser(id: 57)
        case ("GET", "/api/v1/settings"): return .settings
        case ("PATCH", "/api/v1/settings"): return .patchSettings(["language": .string("es")])
        case ("GET", "/api/v1/rootservers"): return .rootServers
        case ("GET", "/api/v1/rootservers/{rootServerId}"): return .rootServer(id: 1)
        default: return nil
        }
    }

    /// `/api/v1/formats/17` matches `/api/v1/formats/{formatId}`.
    nonisolated static func matches(_ path: String, template: String) -> Bool {
        let parts = path.split(separator: "/"), pattern = template.split(separator: "/")
        return parts.count == pattern.count && zip(parts, pattern).allSatisfy { $1.hasPrefix("{") || $0 == $1 }
    }

    /// A body of the spec's shape for a status.
    nonisolated static func answer(_ testCase: Case, request: URLRequest) -> StubServer.Response {
        let path = request.url!.path.replacingOccurrences(of: "/main_server", with: "")
        switch testCase.status {
        case 401: return .json(#"{"message":"Unauthenticated."}"#, status: 401)
        case 403: return .json(#"{"message":"This action is unauthorized."}"#, status: 403)
        case 404: return .json(path.contains("rootservers") ? #"{"message":"Endpoint is unavailable when aggregator mode is disabled."}"# : #"{"message":""}"#, status: 404)
        case 409: return .json(#"{"message":"You cannot delete this while it is in use."}"#, status: 409)
        case 422: return .json(#"{"message":"The name field is required.","errors":{"name":["The name field is required."]}}"#, status: 422)
        case 204: return .init(status: 204, headers: [:])
        default: return success(path, status: testCase.status, single: testCase.method == "POST")
        }
    }

    /// A 200/201 body for a path (also the read-back after a 204).
    nonisolated static func success(_ path: String, status: Int = 200, single: Bool = false) -> StubServer.Response {
        if path.hasSuffix("/editors") { return .json(editorsJSON, status: status) }
        if path.hasPrefix("/api/v1/settings") { return .json(settingsJSON, status: status) }
        if path == "/api/v1/rootservers" { return .json("[" + rootServerJSON + "]", status: status) }
        if path.hasPrefix("/api/v1/rootservers/") { return .json(rootServerJSON, status: status) }
        if path == "/api/v1/formats", !single { return .init(status: status, body: capture("130-formats.json")) }
        if path.hasPrefix("/api/v1/formats") { return .init(status: status, body: capture("131-format-17.json")) }
        if path == "/api/v1/servicebodies", !single { return .init(status: status, body: capture("140-servicebodies.json")) }
        if path.hasPrefix("/api/v1/servicebodies") { return .init(status: status, body: capture("141-servicebody-1002.json")) }
        if path == "/api/v1/users", !single { return .init(status: status, body: capture("150-users.json")) }
        return .init(status: status, body: capture("151-user-57-observer.json"))
    }

    @Test("every documented status of every endpoint gives its typed outcome; every body matches the spec", arguments: cases)
    func documentedStatus(_ testCase: Case) async throws {
        let action = try #require(Self.action(testCase), "no BMLTKit call for \(testCase)")
        let armed = Locked(false)    // the login itself reads users/1 and the service bodies: answer those first
        let (connection, stub) = try await loggedIn { request in
            let path = request.url!.path.replacingOccurrences(of: "/main_server", with: "")
            if armed.withLock({ $0 }), request.httpMethod == testCase.method, Self.matches(path, template: testCase.path) {
                if let body = request.httpBody { RESTSpec.expectConforms(body, testCase.method, testCase.path) }
                return Self.answer(testCase, request: request)
            }
            if let answer = Self.base(request) { return answer }
            return Self.success(path)
        }
        armed.withLock { $0 = true }
        var outcome: Result<BMLTServerAdminResult, BMLTError>
        do { outcome = .success(try await connection.performAndWait(action)) } catch { outcome = .failure(error as! BMLTError) }
        #expect(stub.requests.contains { $0.httpMethod == testCase.method && Self.matches($0.url!.path.replacingOccurrences(of: "/main_server", with: ""), template: testCase.path) })
        switch (testCase.status, outcome) {
        case (200..<300, .success): break
        case (401, .failure(.unauthorized)): #expect(!connection.admin.isLoggedIn, "a 401 ends the login")
        case (403, .failure(.forbidden)): #expect(connection.admin.isLoggedIn)
        // A 404 for an endpoint newer than this 3.1.2 server (settings: 4.0; editors: 4.2) is "not supported"; so is an
        // aggregator's root-server list on a server that is none.
        case (404, .failure(.unsupported)):
            #expect(testCase.path.contains("settings") || testCase.path.contains("rootservers") || testCase.path.hasSuffix("/editors"))
        case (404, .failure(.notFound)): #expect(!testCase.path.contains("settings") && !testCase.path.hasSuffix("/editors"))
        case (409, .failure(.conflict(let message))): #expect(message?.contains("cannot be deleted") == true)
        case (422, .failure(.validationFailed(_, let fields))): #expect(fields["name"] == ["The name field is required."])
        default: Issue.record("\(testCase): unexpected \(outcome)")
        }
        if case .failure(let error) = outcome { #expect(connection.admin.lastError == error) }
    }

    @Test("the spec's server-administration operations all have a call here (but logs and the error test)")
    func everyOperationCovered() {
        #expect(Self.cases.count >= 76, "\(Self.cases.count) cases (the spec's PUTs left out)")
        let operations = Set(Self.cases.map { $0.method + " " + $0.path })
        #expect(operations.count == 20 && !operations.contains { $0.hasPrefix("PUT ") })
        for testCase in Self.cases { #expect(Self.action(testCase) != nil, "\(testCase)") }
    }

    /// A created object's body with a patch's members applied (what the server then holds).
    nonisolated static func patched(_ created: Data?, _ patch: Data?) -> Data? {
        guard var object = (try? JSONScanner.parse(created ?? Data()))?.object else { return patch }
        for (key, value) in (try? JSONScanner.parse(patch ?? Data()))?.object ?? [:] { object[key] = value }
        return Data(WireJSONWriter.text(.object(object)).utf8)
    }

    nonisolated static func withID(_ body: Data?, _ id: Int, dropping: String? = nil) -> String {
        var object = (try? JSONScanner.parse(body ?? Data()))?.object ?? [:]
        object["id"] = .integer(Int64(id))
        if let dropping { object[dropping] = nil }
        return WireJSONWriter.text(.object(object))
    }
}
