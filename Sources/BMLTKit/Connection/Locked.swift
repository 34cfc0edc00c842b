import Foundation

/// A value guarded by a lock: the one primitive BMLTKit uses for state shared across threads.
// @unchecked: every access to `value` is under `lock`. `Value` is not required to be `Sendable` (HTTPCookie is not, on
// every platform); a `Locked` of a non-Sendable value must not hand that value out of `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
