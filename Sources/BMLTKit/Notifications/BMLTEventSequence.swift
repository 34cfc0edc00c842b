import Foundation

/// Every event a connection emits, as an `AsyncSequence`: no NotificationCenter, no observer tokens.
///
/// **From the moment you ask.** The sequence subscribes when it is made (`connection.events`), not when iteration
/// starts: a loop started in a `Task` right after sees the first event of a call made right after it, every time,
/// without a handshake. Its first iterator receives every event from the moment the sequence was made on, in order,
/// once; a further iterator of the same sequence value receives the events from the moment it is made. Several
/// sequences each receive every event. The sequence ends when the connection goes away; leaving the loop (or
/// cancelling its task) stops that iterator alone.
///
/// **Bounded.** Each subscription keeps at most ``bufferLimit`` (256) events not read yet: when a loop falls that far
/// behind, or nobody reads the sequence, the oldest unread events are dropped and the newest 256 kept (events hold
/// their payloads, a search's meetings included). A sequence dropped without being iterated unsubscribes at once.
/// ```swift
/// let events = connection.events          // subscribed here: nothing emitted from now on is missed
/// let loop = Task { @MainActor in
///     for await event in events {
///         if case .serverValidated(let valid, _, _, _) = event { print(valid ? "valid" : "invalid") }
///         if case .progressDidStop = event { break }
///     }
/// }
/// _ = try await connection.validate()
/// await loop.value
/// ```
public struct BMLTEventSequence: AsyncSequence, Sendable {
    /// The events, one value per notification.
    public typealias Element = BMLTEvent
    /// The sequence never throws.
    public typealias Failure = Never

    /// The most events a subscription keeps unread; beyond it the oldest unread are dropped.
    /// ```swift
    /// print("an events loop may fall \(BMLTEventSequence.bufferLimit) events behind")
    /// ```
    public static let bufferLimit = 256

    let broadcaster: EventBroadcaster
    /// The subscription made with the sequence, taken by its first iterator.
    let subscription: EventSubscription

    init(broadcaster: EventBroadcaster) {
        self.broadcaster = broadcaster
        subscription = EventSubscription(broadcaster.open())
    }

    /// The first iterator receives every event from the moment the sequence was made; a later one, from now on.
    /// ```swift
    /// var iterator = connection.events.makeAsyncIterator()
    /// let first = await iterator.next()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: (subscription.take() ?? broadcaster.subscribe()).makeAsyncIterator())
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
    /// Every event this connection emits from the moment you ask for the sequence, in order (see
    /// ``BMLTEventSequence`` for what it keeps unread); the sequence ends when the connection goes away.
    /// ```swift
    /// let events = connection.events
    /// let loop = Task { @MainActor in
    ///     for await event in events {
    ///         if case .progressDidStop = event { break }
    ///     }
    /// }
    /// _ = try await connection.validate()
    /// await loop.value
    /// ```
    public nonisolated var events: BMLTEventSequence {
        BMLTEventSequence(broadcaster: eventBroadcaster)
    }
}

/// The stream a sequence subscribed when it was made, until its first iterator takes it. A sequence dropped before
/// any iterator took it ends its stream, which unsubscribes it.
final class EventSubscription: Sendable {
    private let stream: Locked<AsyncStream<BMLTEvent>?>
    private let continuation: AsyncStream<BMLTEvent>.Continuation

    init(_ subscribed: (stream: AsyncStream<BMLTEvent>, continuation: AsyncStream<BMLTEvent>.Continuation)) {
        stream = Locked(subscribed.stream)
        continuation = subscribed.continuation
    }

    /// The stream, the first time only.
    func take() -> AsyncStream<BMLTEvent>? {
        stream.withLock { stream in
            defer { stream = nil }
            return stream
        }
    }

    deinit {
        if stream.withLock({ $0 }) != nil { continuation.finish() }
    }
}

/// The subscribers of `connection.events`: one bounded stream each, finished when the connection goes away.
final class EventBroadcaster: Sendable {
    /// `nil` once the connection has gone away: later subscribers get an empty sequence.
    private let continuations = Locked<[UInt64: AsyncStream<BMLTEvent>.Continuation]?>([:])
    private let nextID = Locked<UInt64>(0)

    /// A new stream that receives every event yielded from now on (the newest `bufferLimit` kept unread).
    func open() -> (stream: AsyncStream<BMLTEvent>, continuation: AsyncStream<BMLTEvent>.Continuation) {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<BMLTEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(BMLTEventSequence.bufferLimit))
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0?.removeValue(forKey: id) }
        }
        let open = continuations.withLock { all in
            all?[id] = continuation
            return all != nil
        }
        if !open { continuation.finish() }
        return (stream, continuation)
    }

    /// A new stream that receives every event yielded from now on.
    func subscribe() -> AsyncStream<BMLTEvent> {
        open().stream
    }

    /// How many subscriptions are open (for tests).
    var subscriberCount: Int { continuations.withLock { $0?.count ?? 0 } }

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
