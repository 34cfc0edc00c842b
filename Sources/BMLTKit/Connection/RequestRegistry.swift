import Foundation

/// The in-flight registry: every request from start to outcome, and the progress edges (0 → 1 starts a busy
/// period, back to 0 ends it) fed to the progress state machine.
@MainActor
final class RequestRegistry {
    private(set) var requests: [BMLTRequest] = []
    private let progress: ProgressDriver

    init(startDelay: TimeInterval, stopDelay: TimeInterval, onProgressChange: @escaping @MainActor (Bool) -> Void) {
        progress = ProgressDriver(startDelay: startDelay, stopDelay: stopDelay, onChange: onProgressChange)
    }

    func begin(_ request: BMLTRequest) {
        requests.append(request)
        if requests.count == 1 { progress.busy() }
    }

    func end(_ request: BMLTRequest) {
        guard let index = requests.firstIndex(of: request) else { return }
        requests.remove(at: index)
        if requests.isEmpty { progress.idle() }
    }
}
