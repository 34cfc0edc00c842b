import Foundation

/// The in-flight registry: every request from start to outcome, and the progress edges (0 → 1 starts a busy
/// period, back to 0 ends it) fed to the progress state machine.
@MainActor
final class RequestRegistry {
    /// The requests begun and not yet ended. Only membership and the count matter here: the ordered list apps see is
    /// `BMLTConnection.inFlightRequests`, changed in place (an array kept here as well was copied whole, and compared
    /// whole by the observable setter, on every begin and end: quadratic in the requests in flight).
    private var active: Set<ObjectIdentifier> = []
    private let progress: ProgressDriver

    init(startDelay: TimeInterval, stopDelay: TimeInterval, onProgressChange: @escaping @MainActor (Bool) -> Void) {
        progress = ProgressDriver(startDelay: startDelay, stopDelay: stopDelay, onChange: onProgressChange)
    }

    func begin(_ request: BMLTRequest) {
        guard active.insert(ObjectIdentifier(request)).inserted else { return }
        if active.count == 1 { progress.busy() }
    }

    func end(_ request: BMLTRequest) {
        guard active.remove(ObjectIdentifier(request)) != nil else { return }
        if active.isEmpty { progress.idle() }
    }
}
