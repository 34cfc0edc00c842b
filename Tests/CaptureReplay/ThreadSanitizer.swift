import Foundation

/// What the test run itself is: whether the thread sanitizer's runtime is in the process (it defines `__tsan_init`),
/// for the few tests whose budget must leave room for TSan's slowdown on a busy machine.
///
/// ```swift
/// let timeout: TimeInterval = TestRun.underThreadSanitizer ? 10 : 5
/// ```
public enum TestRun {
    /// Whether this process runs under the thread sanitizer (`swift test --sanitize=thread`).
    public static let underThreadSanitizer: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()
}
