import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 where nothing listens, held so that no other server can take it while a test runs: a socket bound
/// to it and never listening, so a connection to it is refused (a stopped server's port may be handed to the next server
/// another test starts).
/// ```swift
/// let dead = try RefusingLoopbackPort()
/// defer { dead.close() }
/// let url = URL(string: "http://127.0.0.1:\(dead.port)/main_server")!   // connections refused
/// ```
public final class RefusingLoopbackPort: Sendable {
    /// The port: bound, never listening.
    public let port: UInt16
    private let socketFD: Int32

    /// Binds a socket to an ephemeral port of 127.0.0.1 without listening (and without `SO_REUSEADDR`, so no other
    /// socket binds it).
    public init() throws {
        let fd = socket(AF_INET, LoopbackHTTPServer.streamType, 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRNOTAVAIL
            _ = Self.closeSocket(fd)
            throw POSIXError(code)
        }
        socketFD = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Releases the port.
    public func close() { _ = Self.closeSocket(socketFD) }

    private static func closeSocket(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}
