import Foundation
import Testing
@testable import BMLTKit

/// The background activity the writes in flight share (issue 41, D10), and what happens when the system takes it back
/// before the last write has ended (Apple audit A8): the next write asks for a new one. The system is a stand-in here
/// (`FakeActivities`): `performExpiringActivity` calls its block again with `expired == true` when the time is up, or at
/// once when the app is already being suspended (Apple's documentation of `performExpiringActivity(withReason:using:)`),
/// which the stand-in does by calling `expired` — later, or from inside `start`.
@Suite("Writes' background time: one shared activity, asked for again after the system expired it")
struct WriteBackgroundTimeTests {
    /// Activities started, ended and expired, as the system would see them.
    final class FakeActivities: @unchecked Sendable {   // every field is behind `lock`
        private let lock = NSLock()
        private var expiries: [@Sendable () -> Void] = []
        private(set) var started = 0
        private(set) var ended: [Int] = []
        /// Expire each activity as soon as it starts (an app already being suspended).
        var expireAtOnce = false

        func start(_ reason: String, _ expired: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            let number = lock.withLock { () -> Int in
                started += 1
                expiries.append(expired)
                return started
            }
            if lock.withLock({ expireAtOnce }) { expired() }
            return { [self] in lock.withLock { ended.append(number) } }
        }

        /// The system takes activity `number` (from 1) back.
        func expire(_ number: Int) { lock.withLock { expiries[number - 1] }() }
        var snapshot: (started: Int, ended: [Int]) { lock.withLock { (started, ended) } }

        /// A shared activity started by this stand-in system.
        func shared() -> SharedBackgroundActivity { SharedBackgroundActivity(start: { self.start($0, $1) }) }
    }

    @Test("one activity for writes that overlap; it ends when the last write ends")
    func sharedByOverlappingWrites() {
        let system = FakeActivities()
        let activity = system.shared()
        let first = activity.begin("BMLTKit: writes")
        let second = activity.begin("BMLTKit: writes")
        #expect(system.snapshot.started == 1 && activity.holders == 2 && activity.isRunning)
        first()
        first()   // a second release of one write counts once
        #expect(system.snapshot.ended.isEmpty && activity.holders == 1)
        second()
        #expect(system.snapshot.started == 1 && system.snapshot.ended == [1] && activity.holders == 0 && !activity.isRunning)
        // The next write after that starts a new one.
        let third = activity.begin("BMLTKit: writes")
        third()
        #expect(system.snapshot.started == 2 && system.snapshot.ended == [1, 2])
    }

    @Test("after the system expired the shared activity, a write that begins while others are in flight gets a new one (A8)")
    func newActivityAfterExpiry() {
        let system = FakeActivities()
        let activity = system.shared()
        let a = activity.begin("BMLTKit: writes")
        let b = activity.begin("BMLTKit: writes")
        system.expire(1)                       // the time is up; a and b are still in flight
        #expect(!activity.isRunning && activity.holders == 2)
        let c = activity.begin("BMLTKit: writes")   // the user came back and saves again, or a bulk editor goes on
        #expect(system.snapshot.started == 2, "a new activity for the write that began after the expiry")
        #expect(activity.isRunning)
        a()
        b()
        #expect(system.snapshot.ended.isEmpty, "c still holds the new activity; the expired one is not ended again")
        c()
        #expect(system.snapshot.ended == [2] && activity.holders == 0 && !activity.isRunning)
        // A late expiry of the first activity changes nothing now.
        system.expire(1)
        let d = activity.begin("BMLTKit: writes")
        system.expire(1)
        #expect(activity.isRunning, "an old activity's expiry does not forget the running one")
        d()
        #expect(system.snapshot.started == 3 && system.snapshot.ended == [2, 3])
    }

    @Test("an activity the system refuses at once (expired before it was stored) is ended, and the next write asks again")
    func expiredWhileStarting() {
        let system = FakeActivities()
        system.expireAtOnce = true
        let activity = system.shared()
        let a = activity.begin("BMLTKit: writes")
        #expect(system.snapshot.started == 1 && system.snapshot.ended == [1] && !activity.isRunning)
        let b = activity.begin("BMLTKit: writes")
        #expect(system.snapshot.started == 2)
        a()
        b()
        #expect(activity.holders == 0 && system.snapshot.ended == [1, 2])
    }
}
