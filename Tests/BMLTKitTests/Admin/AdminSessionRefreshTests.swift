import Foundation
import Testing
@testable import BMLTKit

/// The REST token's refresh: concurrent callers share one refresh (made outside the session's lock, and run only once
/// installed), and a logout while it runs ends it. A caller cancelled while it waits (its call's deadline passed) stops
/// waiting at once.
@Suite("Admin session: one shared token refresh")
struct AdminSessionRefreshTests {
    static let now = Date(timeIntervalSince1970: 2_000_000_000)

    static func session(expiringIn seconds: TimeInterval) -> AdminSession {
        let session = AdminSession(refreshMargin: 300, clock: { now })
        session.begin(token: .init(value: "old", expiresAt: now.addingTimeInterval(seconds)), userID: 1)
        return session
    }

    @Test("twenty callers finding the token about to expire: one refresh, given the old token, and all get the new one")
    func oneSharedRefresh() async throws {
        let session = Self.session(expiringIn: 60)
        let given = Locked<[String]>([])
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try? await session.bearerToken { old throws(BMLTError) in
                        given.withLock { $0.append(old) }
                        try? await Task.sleep(nanoseconds: 20_000_000)   // callers arrive while it runs
                        return AdminSession.Token(value: "new", expiresAt: Self.now.addingTimeInterval(3600))
                    }
                }
            }
            var all: [String?] = []
            for await token in group { all.append(token) }
            return all
        }
        #expect(tokens == Array(repeating: "new", count: 20))
        #expect(given.withLock { $0 } == ["old"])
        let fresh = try await session.bearerToken { _ throws(BMLTError) in
            given.withLock { $0.append("again") }
            return AdminSession.Token(value: "newer", expiresAt: Self.now)
        }
        #expect(fresh == "new" && given.withLock { $0 } == ["old"], "a fresh token is used without a refresh")
    }

    @Test("a caller cancelled while it waits for the shared refresh stops waiting at once; the refresh goes on for the others")
    func cancelledWaiterLeaves() async throws {
        let session = Self.session(expiringIn: 60)
        let gate = DeafGate()
        gate.open(after: 60)    // only a hang guard: a caller that waited for the refresh fails the test instead of hanging
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let refresh: @Sendable (String) async throws(BMLTError) -> AdminSession.Token = { _ throws(BMLTError) in
            startedSignal.yield()
            await gate.wait()    // a refresh whose server takes its time, cancelled or not
            return AdminSession.Token(value: "new", expiresAt: Self.now.addingTimeInterval(3600))
        }
        let first = Task { try? await session.bearerToken(refresh: refresh) }
        for await _ in started { break }
        // A second caller finds the refresh running and waits for it; its call is cancelled (its deadline passed).
        let second = Task { () async -> Result<String, BMLTError> in
            do throws(BMLTError) { return .success(try await session.bearerToken(refresh: refresh)) } catch { return .failure(error) }
        }
        second.cancel()
        let result = await second.value
        let refreshEndedFirst = gate.isOpen
        #expect(result == .failure(.cancelled), "\(result)")
        #expect(!refreshEndedFirst, "the cancelled caller waited for the shared refresh to end")
        gate.open()
        #expect(await first.value == "new", "the refresh went on for the caller that still waits")
        let again = try await session.bearerToken { _ throws(BMLTError) in AdminSession.Token(value: "newer", expiresAt: Self.now) }
        #expect(again == "new", "the refreshed token is installed")
    }

    @Test("a logout while the refresh runs: the caller is told it is logged out, and the refresh is cancelled")
    func logoutDuringRefresh() async throws {
        let session = Self.session(expiringIn: 60)
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let cancelled = Locked(false)
        let caller = Task { () async -> Result<String, BMLTError> in
            do throws(BMLTError) {
                return .success(try await session.bearerToken { _ throws(BMLTError) in
                    startedSignal.yield()
                    while !Task.isCancelled { try? await Task.sleep(nanoseconds: 5_000_000) }
                    cancelled.withLock { $0 = true }
                    throw BMLTError.cancelled
                })
            } catch {
                return .failure(error)
            }
        }
        for await _ in started { break }
        #expect(session.end())
        let outcome = await caller.value
        guard case .failure(.unauthorized) = outcome else { Issue.record("\(outcome)"); return }
        #expect(cancelled.withLock { $0 })
    }
}
