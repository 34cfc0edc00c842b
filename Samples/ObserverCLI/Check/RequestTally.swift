import Foundation

/// Counts the requests sent and the bytes of their answers, for each check's "time and bytes": BMLTKit's requests
/// from its request log (`BMLTLogLevel.requests`: `← 200 GET … 1234 bytes in 0.012 s`), the check's own probes
/// directly. The bytes are those of the answers' bodies as received (after any decompression).
///
/// `@unchecked Sendable`: the counts are only read and written under `lock`.
final class RequestTally: @unchecked Sendable {
    private let lock = NSLock()
    private var requests = 0
    private var bytes = 0

    /// Takes one line of BMLTKit's request log: an answer (`← STATUS METHOD URL N bytes in …`) or a failure (`✕ …`).
    func take(_ line: String) {
        if line.hasPrefix("← ") {
            let words = line.split(separator: " ")
            // ← 200 GET URL 1234 bytes in 0.012 s
            guard let index = words.firstIndex(of: "bytes"), index > 0, let count = Int(words[index - 1]) else { return }
            add(requests: 1, bytes: count)
        } else if line.hasPrefix("✕ ") {
            add(requests: 1, bytes: 0)
        }
    }

    /// Counts requests the check sent itself.
    func add(requests: Int, bytes: Int) {
        lock.withLock {
            self.requests += requests
            self.bytes += bytes
        }
    }

    /// The counts so far.
    var snapshot: (requests: Int, bytes: Int) { lock.withLock { (requests, bytes) } }
}
