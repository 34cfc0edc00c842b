import Foundation

/// A persistent, size-bounded cache of a root server's read replies, shared by any number of connections and
/// processes through one directory.
///
/// - Keyed by the full request (root URL, path and query; never a secret: requests sent with a login are never
///   stored). File names are hashes of the key; each file starts with its key, length and checksum, so a damaged,
///   truncated or foreign file is a miss (and is removed), never wrong data and never a crash.
/// - Writes go to a temporary file renamed into place (atomic on one file system): a reader in another process
///   sees the old entry or the new one, never half of one.
/// - Bounded by `maximumBytes`: after a write, the least recently used entries go first (use updates a file's
///   modification date).
/// - `maximumAge` is how long an entry counts as fresh for `.cacheElseNetwork`; the other policies use entries of
///   any age (better than nothing when offline).
/// ```swift
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
/// var configuration = BMLTConfiguration()
/// configuration.cache = BMLTResponseCache(directory: caches.appendingPathComponent("BMLT"), maximumBytes: 50_000_000)
/// configuration.cachePolicy = .networkElseCache
/// ```
public final class BMLTResponseCache: Sendable {
    /// Where the entries are.
    public let directory: URL
    /// The most the entries may take together, in bytes.
    public let maximumBytes: Int
    /// How long an entry is fresh for `.cacheElseNetwork` (default one hour).
    public let maximumAge: TimeInterval
    /// Serialises this process's reads, writes and trims (other processes are kept apart by atomic renames). A plain
    /// lock: a `Locked<()>` holds a zero-sized value at the lock's own address, which the thread sanitizer reports.
    private let lock = NSLock()

    /// A cache in `directory` (created when first written) holding at most `maximumBytes`. Throws nothing: a
    /// directory that cannot be used makes every lookup a miss.
    /// ```swift
    /// let cache = BMLTResponseCache(directory: folder, maximumBytes: 20_000_000)
    /// ```
    public init(directory: URL, maximumBytes: Int, maximumAge: TimeInterval = 3600) {
        self.directory = directory
        self.maximumBytes = max(0, maximumBytes)
        self.maximumAge = maximumAge
    }

    /// The bytes held now (all entries).
    /// ```swift
    /// print(cache.totalBytes)
    /// ```
    public var totalBytes: Int { lock.withLock { entries().reduce(0) { $0 + $1.size } } }

    /// Removes every entry.
    /// ```swift
    /// cache.removeAll()
    /// ```
    public func removeAll() {
        lock.withLock { for entry in entries() { try? FileManager.default.removeItem(at: entry.url) } }
    }

    // MARK: - Entries

    /// The stored body for `key`, when it was stored and the server's time of the answer, or `nil` (a miss) — also
    /// for a damaged or foreign file.
    func body(for key: CacheKey) -> CacheHit? {
        let url = fileURL(key)
        return lock.withLock { () -> CacheHit? in
            guard let file = try? Data(contentsOf: url) else { return nil }
            guard let entry = CacheEntryFormat.decode(file, key: key.text) else {
                try? FileManager.default.removeItem(at: url)
                return nil
            }
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
            return CacheHit(data: entry.body, storedAt: entry.storedAt, serverDate: entry.serverDate,
                            isSearchResults: entry.isSearchResults)
        }
    }

    /// Stores `body` for `key` with the server's time of the answer (`serverDate`, its `Date` header), then trims the
    /// cache to `maximumBytes`. `isSearchResults`: the body is a `BMLTSearchResults` encoding (see `CacheEntryFormat`).
    func store(_ body: Data, for key: CacheKey, at date: Date = Date(), serverDate: Date? = nil,
               isSearchResults: Bool = false) {
        let file = CacheEntryFormat.encode(body, key: key.text, storedAt: date, serverDate: serverDate,
                                           isSearchResults: isSearchResults)
        guard file.count <= maximumBytes else { return }
        store(key: key) { output in (try? output.write(contentsOf: file)) != nil }
    }

    /// Stores an entry whose bytes `write` puts into a new temporary file (returning `false` to give up), renames it
    /// into place and trims the cache: every entry is written this way (`store(_:for:at:)`, `CacheEntryWriter`).
    func store(key: CacheKey, write: (FileHandle) -> Bool) {
        lock.withLock {
            let manager = FileManager.default
            try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
            guard manager.createFile(atPath: temporary.path, contents: nil),
                  let output = try? FileHandle(forWritingTo: temporary) else { return }
            let written = write(output)
            try? output.close()
            guard written else { try? manager.removeItem(at: temporary); return }
            let target = fileURL(key)
            // POSIX rename(2) replaces an existing entry atomically on Linux and Apple platforms alike. (FileManager's
            // `replaceItemAt` on Linux reported success while the older entry stayed in place: a newer reply never
            // replaced a cached one.)
            if rename(temporary.path, target.path) != 0 { try? manager.removeItem(at: temporary); return }
            // Last use is dated by one clock, the one `body(for:)` dates a read by: a new file's kernel time could
            // disagree with `Date()` (a clock changed by the user or by the system), and the wrong entry would go first.
            try? manager.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
            trim()
        }
    }

    /// A writer for an entry whose body arrives in pieces (see `CacheEntryWriter`).
    func writer(for key: CacheKey) -> CacheEntryWriter? {
        CacheEntryWriter(cache: self, key: key, directory: directory, limit: maximumBytes)
    }

    /// Removes the entries of one root server (after a write to it).
    func removeEntries(ofRoot root: String) {
        let prefix = CacheKey.hash(root) + "-"
        lock.withLock {
            for entry in entries() where entry.url.lastPathComponent.hasPrefix(prefix) {
                try? FileManager.default.removeItem(at: entry.url)
            }
        }
    }

    private func fileURL(_ key: CacheKey) -> URL {
        directory.appendingPathComponent(key.fileName)
    }

    private struct Entry {
        let url: URL
        let size: Int
        let used: Date
    }

    /// The entry files (not temporary ones) with their sizes and last use. Files that vanish meanwhile (another
    /// process trimming) are skipped.
    private func entries() -> [Entry] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return urls.compactMap { url in
            guard url.pathExtension == CacheKey.fileExtension, let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            return Entry(url: url, size: values.fileSize ?? 0, used: values.contentModificationDate ?? .distantPast)
        }
    }

    /// Removes the least recently used entries until the rest fit in `maximumBytes`.
    private func trim() {
        var all = entries()
        var total = all.reduce(0) { $0 + $1.size }
        guard total > maximumBytes else { return }
        all.sort { $0.used < $1.used }
        for entry in all where total > maximumBytes {
            try? FileManager.default.removeItem(at: entry.url)
            total -= entry.size
        }
    }
}

/// A cache entry read back: its body, when it was stored, the server's time of the answer (`nil` for entries written
/// before it was kept, or for replies without a `Date` header), and whether the body is a list brought up to date.
struct CacheHit: Sendable {
    let data: Data
    let storedAt: Date
    let serverDate: Date?
    let isSearchResults: Bool
}

/// What a cached reply is stored under: the root URL and the request's path and query.
struct CacheKey: Sendable, Hashable {
    static let fileExtension = "bmltcache"
    let root: String
    let text: String

    /// The key of a GET of `url` on the connection whose root is `root`.
    init(root: URL, url: URL) {
        self.root = root.absoluteString
        self.text = url.absoluteString
    }

    /// `<hash of the root>-<hash of the request>.bmltcache`: the root's entries can be found by prefix.
    var fileName: String { "\(Self.hash(root))-\(Self.hash(text)).\(Self.fileExtension)" }

    /// 128 bits of two FNV-1a hashes (different offsets), as hex.
    static func hash(_ text: String) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325, second: UInt64 = 0x6C62_272E_07BB_0142
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = second &+ (second << 7)
        }
        return String(first, radix: 16) + String(second, radix: 16)
    }
}
