import Foundation

/// Decoders added by later work (meetings, changes, CSV, admin replies) register here.
enum FuzzExtraTargets {
    static func run(_ data: Data) {}
}
