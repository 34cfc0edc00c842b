import BMLTKit
import Foundation

/// BMLTKit's own decoders, measured beside the baselines.
enum BMLTKitDecoders {
    static let all: [Decoder] = []
}
