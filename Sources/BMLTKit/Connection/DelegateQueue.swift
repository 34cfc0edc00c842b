import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The queue the transport's `URLSession` calls its delegate on.
///
/// On Linux, FoundationNetworking hands every delegate call (the head, each piece of the body, the end) to the
/// session's delegate queue as `addOperation { … }`. A plain `OperationQueue` turns each of those into a
/// `BlockOperation` and runs it through the queue's scheduler: three or more per request, which `bmlt-bench`
/// measured as 12–15 % of a small request's time on loopback (bare `URLSession` with a delegate against its own
/// async `data(from:)`, which makes no delegate calls). `DispatchDelegateQueue` runs those blocks on one serial
/// dispatch queue instead: the same order, one at a time, without the operation objects.
///
/// Not on the session's own work queue (running the blocks where they are added): FoundationNetworking's work queues
/// all target one serial queue shared by every session in the process, and the search decoder runs in the delegate,
/// so a large search would hold up every other download of the app. Measured, running them there gained nothing
/// over this queue.
///
/// Apple platforms keep a plain serial `OperationQueue` (their `URLSession` schedules delegate calls its own way).
///
/// ```swift
/// let session = URLSession(configuration: .ephemeral, delegate: tasks, delegateQueue: DelegateQueue.make())
/// ```
enum DelegateQueue {
    /// A serial delegate queue for one session.
    static func make() -> OperationQueue {
        #if canImport(FoundationNetworking)
        return DispatchDelegateQueue()
        #else
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
        #endif
    }
}

#if canImport(FoundationNetworking)
/// An `OperationQueue` whose blocks run in order on a serial dispatch queue. Operations given as objects (which
/// FoundationNetworking does not add) go through `OperationQueue` as usual.
///
/// What it relies on, precisely: FoundationNetworking (swift-corelibs-foundation, read at 761b621, August 2026) hands
/// every delegate call of a session to its delegate queue with the block form `delegateQueue.addOperation { … }`
/// (25 sites: URLSession.swift, URLSessionTask.swift, NativeProtocol.swift, HTTP/HTTPURLProtocol.swift), which is
/// `open`, and uses the queue in no other way (no `Operation` objects, barriers, `addOperations`, `underlyingQueue` or
/// `OperationQueue.current`; it sets `maxConcurrentOperationCount = 1` only on a queue it makes itself). That holds
/// wherever FoundationNetworking is the URL loading system (Linux, Windows, Android: this code is compiled only there).
/// Should it one day add `Operation` objects too, those would run serially among themselves but not in one order with
/// the blocks, and the order `TaskEntry` and `BodyConsumer` assume (head, pieces, end, one at a time) would be lost:
/// re-read those files of FoundationNetworking when the oldest supported toolchain changes.
/// Apple's `URLSession` (CFNetwork; swift-foundation has no URL loading) is not given this queue.
// @unchecked: `OperationQueue` is itself `@unchecked Sendable`; the one stored property added, a DispatchQueue, is Sendable.
final class DispatchDelegateQueue: OperationQueue, @unchecked Sendable {
    private let serial = DispatchQueue(label: "BMLTKit.session-delegate")

    override init() {
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @Sendable @escaping () -> Void) {
        serial.async(execute: block)
    }
}
#endif
