import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every value of `BMLTConfiguration.timeout` has a clear result and none crashes (issue 49).
///
/// Why these run in this process: no value can reach an arithmetic that traps, by construction. Every conversion of the
/// timeout goes through `TimeoutBudget` — the deadlines' nanoseconds (below 1e18 or none) and the HTTP stack's backstop
/// (finite, at most 1e9 s; FoundationNetworking's `Int(seconds) * 1000` traps only past about 9.2e15 or on a NaN or an
/// infinity) — and a timeout that is not a number of seconds above 0 is refused in `makeContext`, before any request is
/// made. The first test checks the backstop for every kind of value without sending anything; the second sends nothing
/// by design; `.infinity` and `1e300` with real requests through libcurl run as child processes
/// (`InfiniteTimeoutProcessTests`), since a regression there would crash.
@Suite("timeout: bad values (.infinity, .nan, 0, -1, 1e300) give clear results, never a crash")
@MainActor
struct TimeoutBadInputTests {
    static let values: [TimeInterval] = [.infinity, -.infinity, .nan, 0, -0.0, -1, 1e300, .greatestFiniteMagnitude, 2e10, 1e9,
                                         1e-300, 0.5, 1.5, 30]

    /// What FoundationNetworking does with a request timeout (`_HTTPURLProtocol.configureEasyHandle`), without trapping.
    nonisolated static func curlMilliseconds(_ seconds: TimeInterval) -> Int? {
        guard let whole = Int(exactly: seconds.rounded(.towardZero)) else { return nil }
        let (milliseconds, overflow) = whole.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : milliseconds
    }

    @Test("the HTTP stack never gets a non-finite or overflowing timeout: the session's and each request's are whole, finite seconds")
    func backstopIsAlwaysFinite() {
        for value in Self.values {
            var configuration = BMLTConfiguration()
            configuration.timeout = value
            let transport = Transport(configuration: configuration)
            let request = transport.makeRequest(URL(string: "http://127.0.0.1:9/main_server/client_interface/json/")!)
            let session = transport.sessionTimeouts
            for (name, seconds) in [("URLRequest.timeoutInterval", request.timeoutInterval),
                                    ("timeoutIntervalForRequest", session.request), ("timeoutIntervalForResource", session.resource)] {
                #expect(seconds.isFinite && seconds >= 1 && seconds <= 2 * (TimeoutBudget.limit + 1), "timeout \(value): \(name) \(seconds)")
                #expect(Self.curlMilliseconds(seconds) != nil, "timeout \(value): \(name) \(seconds) traps in FoundationNetworking")
            }
            // The deadlines: none for .infinity, huge values and NaN; a pending one for a usable timeout (zero or less, or
            // too small to count, passes at once, so may already have fired: not counted here).
            let queue = DeadlineQueue(timeout: value)
            let token = queue.add {}
            if TimeoutBudget(value) == .unlimited || value.isNaN { #expect(queue.count == 0, "timeout \(value)") }
            if value >= 0.5, TimeoutBudget(value) != .unlimited { #expect(queue.count == 1, "timeout \(value)") }
            queue.remove(token)
        }
        #expect(TimeoutBudget(.infinity) == .unlimited && TimeoutBudget(1e300) == .unlimited && TimeoutBudget(1e9) == .unlimited)
        #expect(TimeoutBudget(.nan) == .invalid && TimeoutBudget(0) == .invalid && TimeoutBudget(-1) == .invalid
                && TimeoutBudget(-.infinity) == .invalid)
        #expect(TimeoutBudget(30) == .seconds(30) && TimeoutBudget(30).nanoseconds == 30_000_000_000 && TimeoutBudget(30).backstop == 31)
    }

    @Test(".nan, 0 and -1 against a real loopback server: every call refused with .invalidArgument(.invalidTimeout), nothing sent, a sentence in every language")
    func refusedValues() async throws {
        let server = try LoopbackHTTPServer { request in
            request.query("switcher") == "GetServerInfo" ? .json(SampleReplies.serverInfo3x) : .json("[]")
        }
        defer { server.stop() }
        for value in [TimeInterval.nan, 0, -1] {
            let recorder = EventRecorder()
            let logged = Locked<[String]>([])
            var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), eventMonitors: [recorder])
            configuration.timeout = value
            configuration.logLevel = .errors
            configuration.logHandler = { _, line in logged.withLock { $0.append(line) } }
            let connection = BMLTConnection(rootServerURL: server.baseURL.appendingPathComponent("main_server"), configuration: configuration)
            var errors: [BMLTError] = []
            do { _ = try await connection.validate() } catch { errors.append(error as? BMLTError ?? .cancelled) }
            do { _ = try await connection.meetings(matching: BMLTSearchCriteria()) } catch { errors.append(error as? BMLTError ?? .cancelled) }
            do { try await connection.login(username: "someone", password: "secret") } catch { errors.append(error as? BMLTError ?? .cancelled) }
            #expect(errors.count == 3, "timeout \(value): \(errors)")
            for error in errors {
                guard case .invalidArgument(let reason) = error, reason.name == "invalidTimeout", let given = reason.seconds else {
                    Issue.record("timeout \(value): \(error) (\(error.localizedDescription(for: Locale(identifier: "en"))))")
                    continue
                }
                #expect(given.isNaN ? value.isNaN : given == value, "timeout \(value): \(given)")
                let english = error.localizedDescription(for: Locale(identifier: "en"))
                #expect(english.contains("BMLTConfiguration.timeout") && english.contains("above 0") && english.contains(String(value)),
                        "timeout \(value): \(english)")
                for language in ["da", "de", "el", "es", "fa", "fr", "it", "pl", "pt", "ru", "sv"] {
                    let sentence = error.localizedDescription(for: Locale(identifier: language))
                    #expect(sentence != english && sentence.contains("BMLTConfiguration.timeout") && !sentence.contains("argument."),
                            "\(language): \(sentence)")
                }
            }
            #expect(recorder.errors.count == 3, "timeout \(value): \(recorder.names)")
            #expect(server.requests.isEmpty, "timeout \(value): nothing is sent (\(server.requests.map(\.target)))")
            #expect(logged.withLock { $0 }.contains { $0.contains("not a number of seconds above 0") }, "timeout \(value): \(logged.withLock { $0 })")
            #expect(connection.inFlightRequests.isEmpty && !connection.isValid)
        }
    }
}
