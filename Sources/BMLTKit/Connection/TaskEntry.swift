import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request's progress. Whatever happens first — completion, the size limit, the deadline or a
/// cancellation — resolves it; everything after is ignored. The continuation is resumed exactly once.
final class TaskEntry: @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<HTTPReply, BMLTError>, Never>?
        var started = false
        var response: HTTPURLResponse?
        var body = Data()
        /// A 2xx body goes here instead of into `body`, when the request asked for it.
        var consumer: (any BodyConsumer)?
        var received = 0
        var result: Result<HTTPReply, BMLTError>?
    }

    private let state = Locked(State())
    private let limit: Int
    private let makeConsumer: BodyConsumerFactory?
    private let onFinish: @Sendable () -> Void

    init(limit: Int, consumer: BodyConsumerFactory?, onFinish: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.makeConsumer = consumer
        self.onFinish = onFinish
    }

    func start(_ continuation: CheckedContinuation<Result<HTTPReply, BMLTError>, Never>, task: URLSessionTask) {
        let early = state.withLock { state -> Result<HTTPReply, BMLTError>? in
            if let result = state.result { return result }
            state.continuation = continuation
            state.started = true
            return nil
        }
        if let early {
            continuation.resume(returning: early)
            task.cancel()
            onFinish()
        } else {
            task.resume()
        }
    }

    /// Accepts the head unless its declared length is over the limit. A refused head also cancels the task:
    /// FoundationNetworking does not always act on the `.cancel` disposition, and would fetch the rest of the body.
    func receive(_ response: URLResponse, cancelling task: URLSessionTask) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail(.malformedResponse(what: "the request", detail: "the answer was not HTTP"), cancelling: task)
            return false
        }
        if http.expectedContentLength > Int64(limit) {
            fail(.responseTooLarge(limit: limit), cancelling: task)
            return false
        }
        let consumer = (200..<300).contains(http.statusCode)
            ? makeConsumer?(http.expectedContentLength > 0 ? Int(http.expectedContentLength) : nil) : nil
        state.withLock {
            $0.response = http
            $0.consumer = consumer
        }
        return true
    }

    func append(_ data: Data, cancelling task: URLSessionTask) {
        let (over, consumer) = state.withLock { state -> (Bool, (any BodyConsumer)?) in
            guard state.result == nil else { return (false, nil) }
            if state.received + data.count > limit { return (true, nil) }
            state.received += data.count
            if let consumer = state.consumer { return (false, consumer) }
            state.body.append(data)
            return (false, nil)
        }
        if over { return fail(.responseTooLarge(limit: limit), cancelling: task) }
        // Outside the lock: decoding a piece must not hold up a cancellation or the deadline.
        consumer?.consume(data)
    }

    func complete(error: (any Error)?) {
        if let error {
            let (head, received) = state.withLock { ($0.response, $0.received) }
            resolve(.failure(BMLTError.from(error, afterHead: head, bytes: received)))
            return
        }
        let reply = state.withLock { state -> HTTPReply? in
            guard let http = state.response else { return nil }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPReply(data: state.body, statusCode: http.statusCode, headers: headers, url: http.url,
                             consumer: state.consumer, consumedBytes: state.consumer == nil ? 0 : state.received)
        }
        resolve(reply.map { .success($0) } ?? .failure(.malformedResponse(what: "the request", detail: "the answer had no HTTP head")))
    }

    /// Ends the request now with `error` (deadline, size limit, cancellation) and stops the task.
    func fail(_ error: BMLTError, cancelling task: URLSessionTask) {
        if resolve(.failure(error)) { task.cancel() }
    }

    @discardableResult
    private func resolve(_ result: Result<HTTPReply, BMLTError>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Result<HTTPReply, BMLTError>, Never>?? in
            guard state.result == nil else { return .none }
            state.result = result
            state.body = Data()
            state.consumer = nil
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard case .some(let waiting) = continuation else { return false }
        if let waiting {
            waiting.resume(returning: result)
            onFinish()
        }
        return true
    }
}
