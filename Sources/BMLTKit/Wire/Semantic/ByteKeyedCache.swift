import Foundation

/// A small open-addressing table from short byte strings (a value's raw bytes in the reply) to values, for
/// decoding: no `String` or `Hasher` is made to look a value up. It stops taking new entries at `limit`.
struct ByteKeyedCache<Value: Sendable>: Sendable {
    private var slots: [Int32] = []          // entry + 1, 0 when free; the count is a power of two
    private var hashes: [UInt64] = []
    private var starts: [Int] = []
    private var keys: [UInt8] = []
    private(set) var values: [Value] = []
    private let limit: Int
    private let longest: Int

    /// A table of at most `limit` entries, each key at most `longest` bytes.
    init(limit: Int = 4096, longest: Int = 256) {
        self.limit = limit
        self.longest = longest
    }

    /// The entry whose key is exactly these bytes.
    func entry(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty, bytes.count <= longest else { return nil }
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 40) & mask
        while true {
            let found = Int(slots[slot]) - 1
            if found < 0 { return nil }
            if hashes[found] == hash, starts[found + 1] - starts[found] == bytes.count, bytes.isEmpty
                || keys.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[found], bytes.baseAddress!, bytes.count) == 0 }) {
                return found
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an entry for bytes not yet in the table; `nil` (and nothing added) when the table is full or the key
    /// too long.
    @discardableResult
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Value) -> Int? {
        guard values.count < limit, bytes.count <= longest else { return nil }
        if slots.isEmpty {
            slots = [Int32](repeating: 0, count: 64)
            starts = [0]
        } else if (values.count + 1) * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for entry in hashes.indices { place(entry) }
        }
        hashes.append(Self.hash(bytes))
        keys.append(contentsOf: bytes)
        starts.append(keys.count)
        values.append(value)
        place(values.count - 1)
        return values.count - 1
    }

    /// Changes the value of an entry.
    mutating func update(_ entry: Int, _ body: (inout Value) -> Void) {
        body(&values[entry])
    }

    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[entry] >> 40) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entry + 1)
    }

    /// A quick hash of the bytes, eight at a time.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            if bytes.count >= 8 {
                // The last eight bytes, overlapping the words already mixed in.
                word = UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)
            } else {
                for offset in 0..<bytes.count { word |= UInt64(base[offset]) << (8 * offset) }
            }
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        }
        return (hash ^ (hash >> 31)) &* 0x94D0_49BB_1331_11EB
    }
}
