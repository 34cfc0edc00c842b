import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate: one entry per task, holding the streamed body and the one continuation to resume.
final class TaskTable: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let entries = Locked<[Int: TaskEntry]>([:])

    func register(_ task: URLSessionTask, limit: Int, consumer: BodyConsumerFactory?) -> TaskEntry {
        let entry = TaskEntry(limit: limit, consumer: consumer) { [weak self] in
            _ = self?.entries.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        }
        entries.withLock { $0[task.taskIdentifier] = entry }
        return entry
    }

    /// Requests registered and not yet finished (for tests: must return to 0).
    var count: Int { entries.withLock { $0.count } }

    private func entry(_ task: URLSessionTask) -> TaskEntry? {
        entries.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let entry = entry(dataTask) else { return completionHandler(.cancel) }
        completionHandler(entry.receive(response, cancelling: dataTask) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        entry(dataTask)?.append(data, cancelling: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        entry(task)?.complete(error: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // A refused redirect completes the task with the 3xx itself, which `WireReply` turns into an error.
        completionHandler(task.originalRequest?.url.flatMap { RedirectRule.follow(from: $0, to: request) })
    }
}
