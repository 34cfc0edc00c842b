import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app transport that answers the four validation requests at once from memory.
struct CannedTransport: BMLTHTTPTransport {
    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
        let url = request.url!.absoluteString
        let body: String
        if url.hasSuffix("GetLangs.php") { body = PipelineBenchmark.languages }
        else if url.contains("GetServerInfo") { body = PipelineBenchmark.serverInfo }
        else if url.contains("GetServiceBodies") { body = PipelineBenchmark.serviceBodies }
        else if url.contains("GetFormats") { body = PipelineBenchmark.formats }
        else { body = "[]" }
        return BMLTHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8), url: request.url)
    }
}

/// `--layer`: BMLTKit's own work per `connect()` — the operation, four requests through the transport's deadline and
/// size limit, decoding, stores, events — with no network under it (`CannedTransport`), 500 at a time as in the
/// pipeline benchmark. A profile of this run (`perf record … bmlt-bench --layer`) shows BMLTKit alone.
enum LayerProbe {
    static func run() async {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter(), retryPolicy: .none)
        configuration.httpTransport = CannedTransport()
        let connection = await BMLTConnection(rootServerURL: URL(string: "http://127.0.0.1:9/main_server")!, configuration: configuration)
        for round in 0..<Int(ProcessInfo.processInfo.environment["LAYER_ROUNDS"] ?? "20")! {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = await PipelineBenchmark.timeBMLTKit(connection, center: configuration.notificationCenter)
            let us = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(PipelineBenchmark.operations)
            if round % 5 == 4 { print(String(format: "layer: %.1f µs per connect()", us)) }
        }
    }
}
