import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// What 4.x says about itself, and what BMLTKit concludes from it: the 4.1.0 capture, and the 4.0.3 / 4.0.4
/// variants of `semanticAdmin`.
@Suite("Root server 4.x: server info and capabilities", .needsCorpus, .serialized)
@MainActor
struct Server4xServerInfoTests {
    static func info4x() throws -> BMLTServerInfo {
        try WireServerInfo.decode(try JSONScanner.parse(Server4xRouter.capture("001-GetServerInfo.json")))
    }

    @Test("4.1.0's GetServerInfo: 01:00 duration, da, no e-mail keys, REST and settings but never json.php nor contact.php")
    func capture() throws {
        let info = try Self.info4x()
        #expect(info.version == "4.1.0" && info.majorVersion == 4 && info.minorVersion == 1)
        #expect(info.defaultDuration == 3600)
        #expect(info.languageCodes.contains("da") && !info.languageCodes.contains("dk"))
        #expect(!info.emailEnabled && !info.emailIncludesServiceBodies && !info.meetingTimeZonesEnabled)
        #expect(info.semanticAdminEnabled)
        let capabilities = ServerValidator.capabilities(of: info)
        #expect(capabilities.contains(.restAdmin) && capabilities.contains(.serverSettings))
        #expect(!capabilities.contains(.legacyAdmin) && !capabilities.contains(.contactMessages))

        let old = try WireServerInfo.decode(try JSONScanner.parse(FixtureCorpus.data(FixtureCorpus.modern, "001-GetServerInfo.json")))
        #expect(old.defaultDuration == 3600)
        #expect(!ServerValidator.capabilities(of: old).contains(.serverSettings))
    }

    @Test("semanticAdmin absent (4.0.3) or \"1\" (4.0.4 on): json.php is never chosen on 4.x", arguments: [nil, "1", "0"] as [String?])
    func semanticAdmin(_ value: String?) throws {
        var object = try #require(try FixtureCorpus.raw(Server4xRouter.folder, "001-GetServerInfo.json") as? [[String: Any]]).first!
        object["semanticAdmin"] = value
        object["version"] = value == nil ? "4.0.3" : "4.0.4"
        object["versionInt"] = value == nil ? "4000003" : "4000004"
        let info = try WireServerInfo.decode(try JSONScanner.parse(try JSONSerialization.data(withJSONObject: [object])))
        #expect(info.semanticAdminEnabled == (value == "1"))
        #expect(info.defaultDuration == 3600)
        let capabilities = ServerValidator.capabilities(of: info)
        #expect(capabilities.contains(.restAdmin) && !capabilities.contains(.legacyAdmin))
    }

    @Test("a message to a contact on 4.x is .unsupported, posted as an error, and sends nothing")
    func contactUnsupported() async throws {
        let router = Server4xRouter()
        let stub = StubServer(router.handler)
        let center = NotificationCenter()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(center: center))
        _ = try await connection.validate()
        let before = stub.requests.count
        let posted = Locked<[BMLTError]>([])
        let token = center.addObserver(forName: .bmltError, object: connection, queue: nil) { note in
            if let error = note.bmltError { posted.withLock { $0.append(error) } }
        }
        defer { center.removeObserver(token) }
        var meeting = BMLTMeeting(id: 2, serviceBodyID: 1005)
        meeting.name = "Nothing Macho"
        do {
            try await connection.sendMessageAndWait(toContactOf: meeting, from: "me@example.org", body: "Is the meeting on?")
            Issue.record("4.x has no contact.php")
        } catch let error as BMLTError {
            guard case .unsupported(let what) = error else { Issue.record("\(error)"); return }
            #expect(what.description.contains("4.1.0"))
        }
        #expect(stub.requests.count == before)
        #expect(!stub.requests.contains { $0.url?.path.contains("contact.php") == true })
        #expect(posted.withLock { $0.count } == 1)
    }
}
