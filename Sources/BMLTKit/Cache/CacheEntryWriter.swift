import Foundation

/// A cache entry written while its body arrives (a search decoded piece by piece), so the body is never held whole for
/// the cache either: the pieces go to a temporary file with their length and checksum counted; `commit` writes the
/// entry (header, then the body copied 64 KB at a time) and renames it into place like `store`. An entry that is not
/// committed (a failed or retried attempt, a body over the cache's size) leaves nothing behind.
final class CacheEntryWriter: Sendable {
    private struct State {
        var handle: FileHandle?
        var length = 0
        var checksum = CacheEntryFormat.RunningChecksum()
        var failed = false
    }

    private let cache: BMLTResponseCache
    private let key: CacheKey
    private let bodyFile: URL
    private let limit: Int
    private let state = Locked(State())

    init?(cache: BMLTResponseCache, key: CacheKey, directory: URL, limit: Int) {
        self.cache = cache
        self.key = key
        self.limit = limit
        bodyFile = directory.appendingPathComponent(".tmp-body-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: bodyFile.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: bodyFile) else { return nil }
        state.withLock { $0.handle = handle }
    }

    deinit { discard() }

    /// The next piece of the body.
    func append(_ piece: Data) {
        state.withLock { state in
            guard !state.failed, let handle = state.handle else { return }
            state.length += piece.count
            state.checksum.add(piece)
            if state.length > limit || (try? handle.write(contentsOf: piece)) == nil {
                state.failed = true
            }
        }
    }

    /// Writes the entry into the cache (unless a write failed or the body was too large for it).
    /// `serverDate` is the reply's `Date` header, kept beside the body.
    func commit(at date: Date = Date(), serverDate: Date? = nil) {
        let (length, checksum, ok) = state.withLock { state -> (Int, String, Bool) in
            try? state.handle?.close()
            state.handle = nil
            return (state.length, state.checksum.text, !state.failed)
        }
        defer { discard() }
        let head = CacheEntryFormat.head(key: key.text, storedAt: date, length: length, checksum: checksum,
                                        serverDate: serverDate)
        // As `store`: an entry larger than the whole cache is not kept (trimming would empty the cache for it).
        guard ok, head.count + length <= limit else { return }
        cache.store(key: key) { output in
            guard (try? output.write(contentsOf: head)) != nil else { return false }
            guard let input = try? FileHandle(forReadingFrom: bodyFile) else { return false }
            defer { try? input.close() }
            var copied = 0
            while let chunk = try? input.read(upToCount: 65_536), !chunk.isEmpty {
                guard (try? output.write(contentsOf: chunk)) != nil else { return false }
                copied += chunk.count
            }
            return copied == length
        }
    }

    /// Forgets the entry (removes its temporary file).
    func discard() {
        let handle = state.withLock { state -> FileHandle? in
            defer { state.handle = nil; state.failed = true }
            return state.handle
        }
        try? handle?.close()
        try? FileManager.default.removeItem(at: bodyFile)
    }
}
