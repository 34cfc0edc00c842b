import Foundation

/// A body in gzip's format (RFC 1952) with its data in stored (uncompressed) deflate blocks (RFC 1951 §3.2.4): what a
/// server sends with `Content-Encoding: gzip`, made without a compression library (the package has none). Any gzip
/// reader (libcurl's zlib, Apple's URLSession) decodes it to `data`.
public enum StoredGzip {
    public static func encode(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])      // magic, deflate, no flags, no time, unknown OS
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count >= bytes.count ? 1 : 0
            out.append(last)                                                     // BFINAL, BTYPE 00 (stored)
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            out.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        for value in [crc32(bytes), UInt32(truncatingIfNeeded: bytes.count)] {
            out.append(contentsOf: [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)])
        }
        return out
    }

    /// CRC-32 (IEEE 802.3, reflected, as gzip's trailer holds it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}
