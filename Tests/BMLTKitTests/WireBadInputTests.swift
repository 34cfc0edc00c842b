import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// The bad-input cases only real sockets can show (a server that never answers, drips, sends too much, closes
/// mid-body, redirects to a page that is not a root server's, or is gone), held to the corpus's standard: after a
/// good validation, the bad step gives exactly one `.bmltError` of the expected kind, sets `lastError`, leaves
/// the stores as they were, keeps the progress pair balanced and leaves nothing in flight.
@Suite("Bad-input corpus over real sockets (127.0.0.1)")
@MainActor
struct WireBadInputTests {
    /// How the server answers GetServiceBodies after the first (good) validation.
    enum Bad: String, CaseIterable, Sendable {
        case silence, drip, oversized, closeMidBody, redirectToHTML, redirectLoopToOtherHost, gone
        // Broken transfers: the server was reached, its reply could not be read.
        case shortOfLength, badChunkSize, corruptGzip, unparsableHeader, notHTTP, emptyReply
    }

    /// The raw bytes of each broken transfer.
    nonisolated static func raw(_ bad: Bad) -> Data {
        let body = Data(SampleReplies.serviceBodies.utf8)
        func head(_ lines: [String]) -> Data { Data((["HTTP/1.1 200 OK"] + lines + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8) }
        switch bad {
        case .shortOfLength: return head(["Content-Type: application/json", "Content-Length: \(body.count)"]) + body.prefix(body.count / 2)
        case .badChunkSize: return head(["Content-Type: application/json", "Transfer-Encoding: chunked"]) + Data("ZZ\r\n".utf8) + body + Data("\r\n0\r\n\r\n".utf8)
        case .corruptGzip: return head(["Content-Type: application/json", "Content-Encoding: gzip", "Content-Length: 36"]) + Data([0x1F, 0x8B, 0x08, 0x00]) + Data(String(repeating: "garbage!", count: 4).utf8)
        case .unparsableHeader: return head(["Content-Type:application/json", "Content-Length: \(body.count)"]) + body   // php -S sends this
        case .notHTTP: return Data("NOT HTTP AT ALL\r\n\r\n".utf8)
        default: return Data()
        }
    }

    nonisolated static let html = Data("<!DOCTYPE html><html><body>Welcome to nginx!</body></html>".utf8)

    nonisolated static func expectedKind(_ bad: Bad) -> String {
        switch bad {
        case .silence, .drip: "timeout"
        case .oversized: "responseTooLarge"
        case .closeMidBody, .shortOfLength, .badChunkSize, .corruptGzip, .unparsableHeader, .notHTTP, .emptyReply: "brokenReply"
        case .gone: "transport"
        case .redirectToHTML: "malformedResponse"
        case .redirectLoopToOtherHost: "transport"
        }
    }

    @Test("one error of the expected kind, lastError set, stores kept, progress balanced", arguments: Bad.allCases)
    func badStep(_ bad: Bad) async throws {
        let mode = Locked(false)
        let other = try LoopbackHTTPServer(host: "127.0.0.2") { request in
            bad == .redirectLoopToOtherHost
                ? .redirect(to: "http://127.0.0.3:1" + request.target)     // nothing listens there
                : .respond(status: 200, headers: ["Content-Type": "text/html"], body: Self.html)
        }
        defer { other.stop() }
        let big = Data(("[" + String(repeating: #"{"id":"1","name":"x"},"#, count: 50_000) + "{}]").utf8)
        let server = try LoopbackHTTPServer { request in
            guard mode.withLock({ $0 }), request.query("switcher") == "GetServiceBodies" else {
                return LoopbackTransportTests.healthy(request)
            }
            switch bad {
            case .silence: return .silence
            case .drip: return .drip(status: 200, body: Data(SampleReplies.serviceBodies.utf8), chunkSize: 1, interval: 0.05)
            case .oversized: return .drip(status: 200, body: big, chunkSize: 64 * 1024, interval: 0)
            case .closeMidBody: return .closeMidBody(body: Data(SampleReplies.serviceBodies.utf8), bytes: 40)
            case .redirectToHTML, .redirectLoopToOtherHost: return .redirect(301, to: other.baseURL.absoluteString + request.target)
            case .gone: return .json("[]")
            case .shortOfLength, .badChunkSize, .corruptGzip, .unparsableHeader, .notHTTP, .emptyReply: return .raw(Self.raw(bad))
            }
        }
        defer { server.stop() }

        let recorder = EventRecorder()
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), eventMonitors: [recorder])
        configuration.retryPolicy = .none
        configuration.timeout = 0.5
        configuration.maximumResponseSize = 100_000
        let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        _ = try await connection.validate()
        let store = connection.server
        let before = (store.info, store.formats, store.serviceBodies, store.serviceBodyTree, store.languages)
        #expect(!before.2.isEmpty)
        recorder.removeAll()

        mode.withLock { $0 = true }
        if bad == .gone { server.stop() }
        var thrown: BMLTError?
        do { _ = try await connection.validate() } catch { thrown = error as? BMLTError }

        #expect(thrown.map(BadInputCorpusTests.kind) == Self.expectedKind(bad), "\(bad): \(String(describing: thrown))")
        #expect(recorder.errors.count == 1 && recorder.errors.first == thrown, "\(bad)")
        #expect(recorder.count(.bmltProgressDidStart) == 1 && recorder.count(.bmltProgressDidStop) == 1, "\(bad)")
        #expect(recorder.names.last == "progress.didStop", "\(bad)")
        #expect(connection.lastError == thrown && store.lastError == thrown, "\(bad)")
        #expect(store.info == before.0 && store.formats == before.1 && store.serviceBodies == before.2, "\(bad)")
        #expect(store.serviceBodyTree == before.3 && store.languages == before.4, "\(bad)")
        #expect(connection.inFlightRequests.isEmpty, "\(bad)")
        if Self.expectedKind(bad) == "brokenReply" {
            let sentence = thrown?.localizedDescription ?? ""
            #expect(sentence.hasPrefix("The server was reached, but its reply could not be read: ") && !sentence.contains("could not be reached"),
                    "\(bad): \(sentence)")
        }
        if bad == .redirectToHTML || bad == .redirectLoopToOtherHost {
            #expect(other.requests.count == 1, "the redirect was followed to the other host")
        }
    }
}
