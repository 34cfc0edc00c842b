import BMLTKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTPServer

/// 500 requests in flight at once against a loopback HTTP server: BMLTKit's pipeline vs bare URLSession.
enum PipelineBenchmark {
    static func run() async {
        print("request pipeline: filled in with the read interface (see issue 7)")
    }
}
