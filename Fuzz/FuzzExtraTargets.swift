import Foundation

/// Differential target: the streaming search decoder against the reference path on the same bytes. Any
/// difference in results or errors stops the fuzzer (as a crash would).
enum FuzzExtraTargets {
    static func run(_ data: Data) {
        let streaming = Result(catching: { () throws(BMLTError) in try WireSearchStream.decode(data, serverFormats: formats) })
        let reference = Result(catching: { () throws(BMLTError) in try WireSearchStream.reference(data, serverFormats: formats) })
        if streaming != reference {
            fatalError("the streaming and reference search decoders disagree")
        }
        if case .success(let expected) = reference, let fast = try? WireSearchStream.fast(data, serverFormats: formats),
           fast != expected {
            fatalError("the single pass answered differently from the reference")
        }
    }

    private static let formats = [BMLTFormat(id: 17, key: "O", name: "Open"), BMLTFormat(id: 4, key: "C", name: "Closed", language: "es")]
}
