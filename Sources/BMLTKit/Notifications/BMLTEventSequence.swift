import Foundation

/// Every event a connection emits, as an `AsyncSequence`: no NotificationCenter, no observer tokens.
///
/// Each iterator receives every event from the moment it is made (when `for await` starts) on, in order, once;
/// several iterators each receive every event. The sequence ends when the connection goes away; leaving the
/// loop (or cancelling its task) stops that iterator alone.
/// ```swift
/// let task = Task { @MainActor in
///     for await event in connection.events {
///         if case .meetingSearchResults(let meetings, _) = event { print(meetings.count, "meetings") }
///     }
/// }
/// connection.searchMeetings(BMLTSearchCriteria())
/// ```
public struct BMLTEventSequence: AsyncSequence, Sendable {
    /// The events, one value per notification.
    public typealias Element = BMLTEvent
    /// The sequence never throws.
    public typealias Failure = Never

    let broadcaster: EventBroadcaster

    /// Starts receiving events: everything emitted from now on is buffered for this iterator until read.
    /// ```swift
    /// var iterator = connection.events.makeAsyncIterator()
    /// let first = await iterator.next()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: broadcaster.subscribe().makeAsyncIterator())
    }

    /// One subscriber's place in the events.
    /// ```swift
    /// var iterator = connection.events.makeAsyncIterator()
    /// while let event = await iterator.next() { print(event.notificationName.rawValue) }
    /// ```
    public struct Iterator: AsyncIteratorProtocol {
        var stream: AsyncStream<BMLTEvent>.Iterator

        /// The next event, or `nil` once the connection has gone away (or the task was cancelled).
        /// ```swift
        /// var iterator = connection.events.makeAsyncIterator()
        /// if let event = await iterator.next() { print(event) }
        /// ```
        public mutating func next() async -> BMLTEvent? {
            await stream.next()
        }
    }
}

extension BMLTConnection {
    /// Every event this connection emits from the moment iteration starts, in order, once per iterator; the
    /// sequence ends when the connection goes away.
    /// ```swift
    /// for await event in connection.events {
    ///     if case .progressDidStop = event { break }
    /// }
    /// ```
    public nonisolated var events: BMLTEventSequence {
        BMLTEventSequence(broadcaster: eventBroadcaster)
    }
}

/// The subscribers of `connection.events`: one unbounded stream each, finished when the connection goes away.
final class EventBroadcaster: Sendable {
    /// `nil` once the connection has gone away: later subscribers get an empty sequence.
    private let continuations = Locked<[UInt64: AsyncStream<BMLTEvent>.Continuation]?>([:])
    private let nextID = Locked<UInt64>(0)

    /// A new stream that receives every event yielded from now on.
    func subscribe() -> AsyncStream<BMLTEvent> {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<BMLTEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0?.removeValue(forKey: id) }
        }
        let open = continuations.withLock { all in
            all?[id] = continuation
            return all != nil
        }
        if !open { continuation.finish() }
        return stream
    }

    /// Hands the event to every subscriber.
    func yield(_ event: BMLTEvent) {
        for continuation in continuations.withLock({ $0.map { Array($0.values) } ?? [] }) { continuation.yield(event) }
    }

    /// Ends every subscriber's sequence.
    func finishAll() {
        let all = continuations.withLock { all in
            defer { all = nil }
            return all.map { Array($0.values) } ?? []
        }
        for continuation in all { continuation.finish() }
    }

    deinit { finishAll() }
}
