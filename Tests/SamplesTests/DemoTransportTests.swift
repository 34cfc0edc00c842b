import BMLTDemoServer
import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The demo server without `URLProtocol` (the form for watchOS, where custom URL protocols do not work): a connection
/// whose `BMLTHTTPTransport` calls `BMLTDemoServer.answer(_:)` validates and searches like one through
/// `sessionConfiguration()`, and gets the same meetings.
extension DemoServerSuites {
    @Suite("Demo server through a BMLTHTTPTransport (watchOS form)")
    @MainActor
    struct DemoTransportTests {
        struct DemoTransport: BMLTHTTPTransport {
            func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
                let reply = BMLTDemoServer.answer(request)
                return BMLTHTTPResponse(statusCode: reply.statusCode, headers: reply.headers, body: reply.body, url: request.url)
            }
        }

        @Test("validation and a search through answer(_:) match the URLProtocol form, and both are in the request log")
        func sameAnswers() async throws {
            BMLTDemoServer.reset()
            let direct = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
                                        configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: 900, httpTransport: DemoTransport()))
            let viaProtocol = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
                                             configuration: BMLTConfiguration(notificationCenter: NotificationCenter(), timeout: 900,
                                                                              urlSessionConfiguration: BMLTDemoServer.sessionConfiguration()))
            let info = try await direct.validate()
            let infoViaProtocol = try await viaProtocol.validate()
            #expect(info.version == infoViaProtocol.version)
            #expect(direct.server.serviceBodies.count >= 10 && direct.server.serviceBodies == viaProtocol.server.serviceBodies)
            var criteria = BMLTSearchCriteria()
            criteria.weekdays = [.monday]
            let monday = try await direct.meetings(matching: criteria).meetings
            #expect(!monday.isEmpty && monday.allSatisfy { $0.weekday == .monday })
            let mondayViaProtocol = try await viaProtocol.meetings(matching: criteria).meetings
            #expect(monday.map(\.id) == mondayViaProtocol.map(\.id))
            let switchers = BMLTDemoServer.requestLog.compactMap { URLComponents(url: $0.url!, resolvingAgainstBaseURL: false)?
                .queryItems?.first { $0.name == "switcher" }?.value }
            #expect(switchers.filter { $0 == "GetServerInfo" }.count == 2, "\(switchers)")
        }
    }
}
