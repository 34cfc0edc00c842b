import BMLTKit
import Foundation

/// Runs a call that only sets the stage of a deadline test (a validation, a login) under that test's own short
/// `timeout`, and runs it again when it ends in `.timeout`: under the thread sanitizer beside two busy processes a
/// validation of a loopback server took 9.5 s (issue 50's run B), past a 1.5–5 s deadline that only the call under
/// test is about. Any other error, or a 10th `.timeout`, is thrown.
/// ```swift
/// try await settingTheStage { _ = try await connection.validate() }
/// ```
func settingTheStage(isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> Void) async throws {
    for attempt in 1...10 {
        do {
            try await call()
            return
        } catch let error as BMLTError where error == .timeout && attempt < 10 {
            continue
        }
    }
}
