import Foundation

/// One cache file: `BMLTKIT-CACHE 1\n`, a line of JSON (`key`, `storedAt`, `length`, `checksum`, and `serverDate`, the
/// server's time of the answer from its `Date` header, when it had one), then the body: the server's reply as it came.
/// A search's list brought up to date from the change log (`.cacheThenNetwork`) is no reply of the server's: it is
/// kept as the JSON encoding of its `BMLTSearchResults` under `BMLTKIT-CACHE 2\n`, a magic line that versions before
/// it refuse (a miss), so that they never decode it as a reply.
/// `decode` refuses anything else: another key (a hash collision or a renamed file), a short or long body, a
/// checksum that does not match, a header that is not this one. Entries written before `serverDate` existed decode
/// without one (a refresh from them downloads the list whole).
enum CacheEntryFormat {
    private static let magic = Data("BMLTKIT-CACHE 1\n".utf8)
    private static let resultsMagic = Data("BMLTKIT-CACHE 2\n".utf8)

    private struct Header: Codable {
        let key: String
        let storedAt: Double
        let length: Int
        let checksum: String
        var serverDate: Double?
    }

    /// A decoded entry.
    struct Entry {
        let body: Data
        let storedAt: Date
        /// The server's time of the answer (its `Date` header), when the entry keeps one.
        let serverDate: Date?
        /// Whether the body is a `BMLTSearchResults` encoding (a list brought up to date), not a server reply.
        let isSearchResults: Bool
    }

    static func encode(_ body: Data, key: String, storedAt: Date, serverDate: Date? = nil,
                       isSearchResults: Bool = false) -> Data {
        var file = head(key: key, storedAt: storedAt, length: body.count, checksum: checksum(body),
                        serverDate: serverDate, isSearchResults: isSearchResults)
        file.append(body)
        return file
    }

    /// The bytes before the body: the magic line and the header line.
    static func head(key: String, storedAt: Date, length: Int, checksum: String, serverDate: Date? = nil,
                     isSearchResults: Bool = false) -> Data {
        let header = Header(key: key, storedAt: storedAt.timeIntervalSince1970, length: length, checksum: checksum,
                            serverDate: serverDate?.timeIntervalSince1970)
        var file = isSearchResults ? resultsMagic : magic
        file.append((try? JSONEncoder().encode(header)) ?? Data())
        file.append(0x0A)
        return file
    }

    static func decode(_ file: Data, key: String) -> Entry? {
        let isSearchResults = file.starts(with: resultsMagic)
        guard isSearchResults || file.starts(with: magic) else { return nil }
        let rest = file.dropFirst(magic.count)
        guard let newline = rest.firstIndex(of: 0x0A),
              let header = try? JSONDecoder().decode(Header.self, from: Data(rest[rest.startIndex..<newline])),
              header.key == key else { return nil }
        let body = Data(rest[rest.index(after: newline)...])
        guard body.count == header.length, checksum(body) == header.checksum else { return nil }
        let serverDate = header.serverDate.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        return Entry(body: body, storedAt: Date(timeIntervalSince1970: header.storedAt), serverDate: serverDate,
                     isSearchResults: isSearchResults)
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
