import Foundation

/// One cache file: `BMLTKIT-CACHE 1\n`, a line of JSON (`key`, `storedAt`, `length`, `checksum`), then the body.
/// `decode` refuses anything else: another key (a hash collision or a renamed file), a short or long body, a
/// checksum that does not match, a header that is not this one.
enum CacheEntryFormat {
    private static let magic = Data("BMLTKIT-CACHE 1\n".utf8)

    private struct Header: Codable {
        let key: String
        let storedAt: Double
        let length: Int
        let checksum: String
    }

    static func encode(_ body: Data, key: String, storedAt: Date) -> Data {
        var file = head(key: key, storedAt: storedAt, length: body.count, checksum: checksum(body))
        file.append(body)
        return file
    }

    /// The bytes before the body: the magic line and the header line.
    static func head(key: String, storedAt: Date, length: Int, checksum: String) -> Data {
        let header = Header(key: key, storedAt: storedAt.timeIntervalSince1970, length: length, checksum: checksum)
        var file = magic
        file.append((try? JSONEncoder().encode(header)) ?? Data())
        file.append(0x0A)
        return file
    }

    static func decode(_ file: Data, key: String) -> (body: Data, storedAt: Date)? {
        guard file.starts(with: magic) else { return nil }
        let rest = file.dropFirst(magic.count)
        guard let newline = rest.firstIndex(of: 0x0A),
              let header = try? JSONDecoder().decode(Header.self, from: Data(rest[rest.startIndex..<newline])),
              header.key == key else { return nil }
        let body = Data(rest[rest.index(after: newline)...])
        guard body.count == header.length, checksum(body) == header.checksum else { return nil }
        return (body, Date(timeIntervalSince1970: header.storedAt))
    }

    /// FNV-1a 64 of the body, as hex.
    static func checksum(_ data: Data) -> String {
        var running = RunningChecksum()
        running.add(data)
        return running.text
    }

    /// The checksum of a body that arrives in pieces.
    struct RunningChecksum {
        private var hash: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func add(_ data: Data) {
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }

        var text: String { String(hash, radix: 16) }
    }
}
