import Foundation

/// The deadlines of one transport's requests, kept on a single timer.
///
/// A timer source per request cost two wake-ups of libdispatch's manager thread (arm and cancel) for every request,
/// which `bmlt-bench`'s pipeline rounds showed as time spent in `write` and thread switches. Every request of a
/// transport has the same `timeout`, so deadlines come in the order requests start: a first-in, first-out list is
/// enough. The timer is armed for the oldest live deadline and only re-armed when it fires (early is harmless: it
/// re-arms for the one then first); finished requests just leave the list.
// @unchecked: the mutable state below (`order`, `head`, `actions`, `lastID`, `armed`) is touched only under `lock`.
final class DeadlineQueue: @unchecked Sendable {
    private struct Pending {
        let deadline: UInt64
        let id: UInt64
    }

    private let lock = NSLock()
    private var order: [Pending] = []
    private var head = 0
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0
    /// When the timer will fire; `nil` while no deadline is pending.
    private var armed: UInt64?
    private let timer: DispatchSourceTimer
    /// `nil`: no deadline (an infinite timeout, or one past what the clock can count).
    private let nanoseconds: UInt64?

    /// A queue whose deadlines are `timeout` seconds after each `add`. Zero or less: every deadline passes at once; an
    /// infinite timeout, one of about 31 years or more (`TimeoutBudget`), or NaN: no deadline. No value traps.
    init(timeout: TimeInterval) {
        nanoseconds = timeout <= 0 ? 0 : TimeoutBudget(timeout).nanoseconds
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "BMLTKit.deadlines"))
        timer.schedule(deadline: .distantFuture)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Whether the timeout is zero (or was negative): every deadline has passed as soon as it is added.
    var expiresAtOnce: Bool { nanoseconds == 0 }

    /// Runs `action` `timeout` seconds from now unless `remove` is called first with the returned token.
    func add(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        guard let nanoseconds else { return lock.withLock { lastID += 1; return lastID } }
        let deadline = DispatchTime.now().uptimeNanoseconds + nanoseconds
        let (id, arm) = lock.withLock { () -> (UInt64, UInt64?) in
            lastID += 1
            order.append(Pending(deadline: deadline, id: lastID))
            actions[lastID] = action
            guard armed == nil else { return (lastID, nil) }
            armed = deadline
            return (lastID, deadline)
        }
        if let arm { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: arm)) }
        return id
    }

    /// Forgets the deadline of a request that has ended.
    func remove(_ id: UInt64) {
        lock.withLock {
            actions[id] = nil
            dropFinishedHeads()
        }
    }

    /// Pending deadlines (for tests).
    var count: Int { lock.withLock { actions.count } }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [@Sendable () -> Void] = []
        let next = lock.withLock { () -> UInt64? in
            while head < order.count {
                let first = order[head]
                if let action = actions[first.id] {
                    if first.deadline > now { break }
                    actions[first.id] = nil
                    due.append(action)
                }
                head += 1
            }
            compact()
            armed = head < order.count ? order[head].deadline : nil
            return armed
        }
        if let next { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
        for action in due { action() }
    }

    private func dropFinishedHeads() {
        while head < order.count, actions[order[head].id] == nil { head += 1 }
        compact()
    }

    /// Keeps the list's storage to what is pending.
    private func compact() {
        if head == order.count {
            order.removeAll(keepingCapacity: order.count < 4096)
            head = 0
        } else if head > 1024, head > order.count / 2 {
            order.removeFirst(head)
            head = 0
        }
    }
}
