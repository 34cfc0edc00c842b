import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Each server-administration call started with `perform(_:)` is announced under the name of what it did: a read as
/// `.bmltServerAdminResults`, a write as the save or deletion of what it changed — never under another call's name.
/// Every case of `BMLTServerAdminAction` has a row: `expectedName` switches over them all (a new case does not compile
/// without one), and the cases run here are checked against the enum's declaration.
@Suite("Server administration: each call posts its own name", .needsCorpus, .serialized)
@MainActor
struct ServerAdminEventNameTests {
    /// The row of each action: what a host observing that name expects.
    nonisolated static func expectedName(_ action: BMLTServerAdminAction) -> Notification.Name {
        switch action {
        case .formats, .format, .serviceBodies, .serviceBody, .serviceBodyEditors, .users, .user, .settings,
             .rootServers, .rootServer:
            .bmltServerAdminResults
        case .createFormat, .patchFormat: .bmltFormatSaved
        case .deleteFormat: .bmltFormatDeleted
        case .createServiceBody, .patchServiceBody: .bmltServiceBodySaved
        case .deleteServiceBody: .bmltServiceBodyDeleted
        case .createUser, .patchUser: .bmltUserSaved
        case .deleteUser: .bmltUserDeleted
        case .patchSettings: .bmltSettingsSaved
        }
    }

    /// An action's case name (`formats`, `createFormat`, …).
    nonisolated static func caseName(_ action: BMLTServerAdminAction) -> String {
        Mirror(reflecting: action).children.first?.label ?? String(describing: action)
    }

    /// The case names declared in BMLTServerAdminAction.swift, read from the source beside this package.
    static func declaredCases() throws -> Set<String> {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/BMLTKit/ServerAdmin/BMLTServerAdminAction.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let start = try #require(text.range(of: "public enum BMLTServerAdminAction"))
        let end = try #require(text.range(of: "public var isRead", range: start.upperBound..<text.endIndex))
        var names: Set<String> = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("case ") else { continue }
            names.insert(String(trimmed.dropFirst(5).prefix { $0.isLetter || $0.isNumber }))
        }
        return names
    }

    /// One successful (2xx) case of each documented operation, with its call.
    static var successes: [(ServerAdminTests.Case, BMLTServerAdminAction)] {
        var seen: Set<String> = []
        var rows: [(ServerAdminTests.Case, BMLTServerAdminAction)] = []
        for testCase in ServerAdminTests.cases where (200..<300).contains(testCase.status) {
            guard let action = ServerAdminTests.action(testCase), seen.insert(testCase.method + " " + testCase.path).inserted else { continue }
            rows.append((testCase, action))
        }
        return rows
    }

    @Test("every BMLTServerAdminAction performed with perform(_:) is posted under the name its row gives")
    func eachActionPostsItsName() async throws {
        let rows = Self.successes
        let declared = try Self.declaredCases()
        #expect(rows.count == 20 && Set(rows.map { Self.caseName($0.1) }) == declared, "a case of BMLTServerAdminAction without a row here")
        for (testCase, action) in rows {
            let armed = Locked(false)
            let (connection, _) = try await ServerAdminTests().loggedIn { request in
                let path = request.url!.path.replacingOccurrences(of: "/main_server", with: "")
                if armed.withLock({ $0 }), request.httpMethod == testCase.method, ServerAdminTests.matches(path, template: testCase.path) {
                    return ServerAdminTests.answer(testCase, request: request)
                }
                if let answer = ServerAdminTests.base(request) { return answer }
                return ServerAdminTests.success(path)
            }
            armed.withLock { $0 = true }
            // As a host observes: every notification of this connection, on the main queue.
            let center = connection.configuration.notificationCenter
            let (names, continuation) = AsyncStream.makeStream(of: Notification.Name.self)
            let token = center.addObserver(forName: nil, object: connection, queue: .main) { note in
                if note.name != .bmltProgressDidStart, note.name != .bmltProgressDidStop { continuation.yield(note.name) }
            }
            let request = connection.perform(action)
            var posted: Notification.Name?
            for await name in names {
                posted = name
                break
            }
            center.removeObserver(token)
            #expect(posted == Self.expectedName(action), "\(Self.caseName(action)) (\(testCase)), request \(request.kind)")
        }
    }

    @Test("a server-administration event carrying a read's result is never posted under a save's name")
    func readResultsAreNotSaves() {
        let request = BMLTRequest(kind: .serverAdministration)
        let reads: [BMLTServerAdminResult] = [.formats([]), .serviceBodies([]), .serviceBodyEditors(serviceBodyID: 1, []),
                                              .users([]), .rootServers([]),
                                              .rootServer(BMLTRootServer(id: 1, sourceID: 2, name: "R", url: "https://example.org/main_server/"))]
        for result in reads {
            #expect(BMLTEvent.serverAdminSaved(result, request: request).notificationName == .bmltServerAdminResults, "\(result)")
            #expect(BMLTEvent.serverAdminResults(result, request: request).notificationName == .bmltServerAdminResults, "\(result)")
            let note = Notification(name: .bmltServerAdminResults, object: nil, userInfo: BMLTEvent.serverAdminSaved(result, request: request).userInfo)
            #expect(note.bmltServerAdminResult == result)
        }
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            for result in reads {
                #expect(BMLTEvent.serverAdminSaved(result, request: request).typedMessage is BMLTServerAdminResultsMessage, "\(result)")
            }
        }
        #endif
    }
}
