import Foundation

/// Frees a large value (a store's previous meetings) on a background queue instead of the main actor.
///
/// The value is held only through an unmanaged reference, so no strong reference is left on the main actor to race the
/// background release: whichever way the threads run, the last release, and so the freeing, is the background one.
struct BackgroundRelease: Sendable {
    // @unchecked: `value` is `Any` to erase its type, but only `take`'s `Sendable` values are put in, and never changed.
    private final class Box: @unchecked Sendable {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    // Unmanaged, not a strong reference: the one +1 taken in `take` is given up on the background queue, so the value is
    // always freed there (with a strong reference, the main actor's copy might be the last to go and free it there).
    private let box: Unmanaged<Box>

    /// Takes a reference to `value`; replace the original, then call `release()`.
    static func take<Value: Sendable>(_ value: Value) -> BackgroundRelease {
        BackgroundRelease(box: Unmanaged.passRetained(Box(value)))
    }

    /// Gives the reference up on a background queue (once).
    func release() {
        let box = box
        DispatchQueue.global(qos: .utility).async { box.release() }
    }
}
