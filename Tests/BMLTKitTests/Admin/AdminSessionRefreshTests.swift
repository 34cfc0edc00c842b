import Foundation
import Testing
@testable import BMLTKit

/// The REST token's refresh: concurrent callers share one refresh (made outside the session's lock, and run only once
/// installed), and a logout while it runs ends it.
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
