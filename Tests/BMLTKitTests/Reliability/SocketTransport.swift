import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import BMLTKit
import LoopbackHTTPServer

/// A second HTTP transport, written here: HTTP/1.1 over a plain POSIX socket to a loopback host (what an app would do
/// with another stack). It sends the request as given, reads until the server closes, and returns status, headers and
/// body; it follows no redirects and knows nothing of cookies, deadlines or limits — BMLTKit keeps those.
struct SocketTransport: BMLTHTTPTransport {
    /// The requests it sent (method, URL, headers), for the tests.
    let sent = Locked<[URLRequest]>([])

    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
        sent.withLock { $0.append(request) }
        let result: Result<BMLTHTTPResponse, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Result { try Self.exchange(request) }) }
        }
        try Task.checkCancellation()
        return try result.get()
    }

    private static func exchange(_ request: URLRequest) throws -> BMLTHTTPResponse {
        guard let url = request.url, let host = url.host, let port = url.port else { throw URLError(.badURL) }
        let descriptor = socket(AF_INET, LoopbackHTTPServer.streamType, 0)
        guard descriptor >= 0 else { throw URLError(.cannotConnectToHost) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw URLError(.cannotConnectToHost) }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(request.httpMethod ?? "GET") \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { head += "\(name): \(value)\r\n" }
        let body = request.httpBody ?? Data()
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        let message = Data((head + "\r\n").utf8) + body
        _ = message.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var received = Data(), buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received.append(buffer, count: count)
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { throw URLError(.badServerResponse) }
        let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return BMLTHTTPResponse(statusCode: status, headers: headers, body: Data(received[split.upperBound...]), url: url)
    }
}

/// Serves a `StubServer`-style handler (the captured-server routers) on a real loopback socket.
enum StubOverSocket {
    static func start(_ handler: @escaping StubServer.Handler) throws -> LoopbackHTTPServer {
        let base = Locked<URL?>(nil)
        let server = try LoopbackHTTPServer { request in
            var urlRequest = URLRequest(url: URL(string: (base.withLock { $0 }?.absoluteString ?? "http://127.0.0.1") + request.target)!)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            urlRequest.httpBody = request.body.isEmpty ? nil : request.body
            let response = handler(urlRequest)
            return .respond(status: response.status, headers: response.headers, body: response.body)
        }
        base.withLock { $0 = server.baseURL }
        return server
    }
}
