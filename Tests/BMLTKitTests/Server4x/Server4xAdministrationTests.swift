import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// 4.x administration details: typed settings (the key kept secret), the two service-body 409s, users' last login.
@Suite("Root server 4.x: administration details", .needsCorpus, .serialized)
@MainActor
struct Server4xAdministrationTests {
    static func connect(_ override: @escaping @Sendable (URLRequest) -> StubServer.Response?) async throws -> (BMLTConnection, StubServer) {
        let router = Server4xRouter()
        let stub = StubServer { request in override(request) ?? router.handler(request) }
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: Server4xRouter.password)
        return (connection, stub)
    }

    @Test("GET /settings (160): typed numbers, booleans, arrays and the 01:00 duration; unknown keys kept")
    func settings() async throws {
        let (connection, _) = try await Self.connect { request in
            guard request.url?.path.hasSuffix("api/v1/settings") == true else { return nil }
            var object = try? JSONSerialization.jsonObject(with: Server4xRouter.capture("160-settings.json")) as? [String: Any]
            object?["aNewSetting"] = ["x": 1]
            object?["googleApiKey"] = "AIzaSecretKey123"
            return StubServer.Response(body: (try? JSONSerialization.data(withJSONObject: object ?? [:])) ?? Data())
        }
        let settings = try await connection.serverSettings()
        #expect(settings.changeDepthForMeetings == 0 && settings.searchSpecMapCenterZoom == 6 && settings.numberOfMeetingsForAuto == 10)
        #expect(settings.defaultDuration == 3600 && settings.language == "en" && settings.distanceUnits == .miles)
        #expect(settings.autoGeocodingEnabled == true && settings.zipAutoGeocodingEnabled == false && settings.defaultClosedStatus == true)
        #expect(settings.searchSpecMapCenter == BMLTCoordinate(latitude: 34.235918, longitude: -118.563659))
        #expect(settings.meetingStatesAndProvinces.isEmpty && settings.formatLangNames.isEmpty && settings.defaultSortKey == nil)
        #expect(settings.bmltTitle == "BMLT Administration")
        #expect(settings["aNewSetting"] == .object(["x": .number(1)]))
        #expect(Set(settings.values.keys).subtracting(BMLTServerSettings.knownKeys) == ["aNewSetting"])
        #expect(settings.googleApiKey == "AIzaSecretKey123")

        // The key is a secret wherever a value is shown.
        var dumped = ""
        dump(settings, to: &dumped)
        for shown in [settings.description, settings.debugDescription, String(describing: settings), "\(settings)", dumped] {
            #expect(!shown.contains("AIzaSecretKey123") && shown.contains("regionBias"), "\(shown)")
        }

        var edited = settings
        edited.regionBias = "ca"
        edited.defaultDuration = 90 * 60
        edited.searchSpecMapCenterZoom = 8
        #expect(edited.changes(from: settings) == ["regionBias": .string("ca"), "defaultDurationTime": .string("01:30"),
                                                   "searchSpecMapCenterZoom": .number(8)])
    }

    @Test("service-body delete: 'meetings assigned' and 'has children' are distinct messages; force is sent as the query")
    func serviceBodyConflicts() async throws {
        let force = Locked<[String?]>([])
        let (connection, _) = try await Self.connect { request in
            guard request.httpMethod == "DELETE", let path = request.url?.path, path.contains("servicebodies/") else { return nil }
            force.withLock { $0.append(request.url?.query) }
            if path.hasSuffix("/2") { return StubServer.Response(status: 409, body: Server4xRouter.capture("142-servicebody-delete-with-children-409.json")) }
            if request.url?.query == "force=true" { return StubServer.Response(status: 204, headers: [:]) }
            return .json(#"{"message":"You cannot delete a service body while meetings are assigned to it."}"#, status: 409)
        }
        var messages: [String] = []
        for id in [2, 1009] {
            do {
                try await connection.deleteServiceBodyAndWait(id: id)
                Issue.record("409 expected")
            } catch let error as BMLTError {
                guard case .conflict(let message) = error else { Issue.record("\(error)"); continue }
                messages.append(message ?? "")
            }
        }
        #expect(messages.count == 2 && messages[0] != messages[1])
        #expect(messages[0].contains("child service bodies") && messages[0].contains("force does not override"))
        #expect(messages[1].contains("still has meetings") && messages[1].contains("force: true"))
        try await connection.deleteServiceBodyAndWait(id: 1009, force: true)
        #expect(force.withLock { $0 } == [nil, nil, "force=true"])
    }

    @Test("users: lastLoginAt is read (null in 150, a date when set)")
    func lastLogin() async throws {
        let (connection, _) = try await Self.connect { request in
            guard request.httpMethod == "GET", request.url?.path.hasSuffix("api/v1/users") == true else { return nil }
            var users = (try? JSONSerialization.jsonObject(with: Server4xRouter.capture("150-users.json")) as? [[String: Any]]) ?? []
            if !users.isEmpty { users[0]["lastLoginAt"] = "2026-11-23T12:00:00.000000Z" }
            return StubServer.Response(body: (try? JSONSerialization.data(withJSONObject: users)) ?? Data())
        }
        let users = try await connection.users()
        #expect(users.count > 1)
        #expect(users.first?.lastLoginAt == "2026-11-23T12:00:00.000000Z")
        #expect(users.dropFirst().allSatisfy { $0.lastLoginAt == nil })
    }
}
