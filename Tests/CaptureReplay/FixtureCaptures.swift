import Testing
import Foundation

/// The conformance corpus, read in place from `../shared/fixtures` beside the project (never copied here).
public enum FixtureCaptures {
    /// `../shared/fixtures`, found from this file's place in the checkout.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// Whether the corpus is there; says so once on the console when it is not (the suites using it are skipped).
    public static var isAvailable: Bool {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("rootserver").path)
        if !present { print("note: ../shared/fixtures is missing: skipping the replay of real root servers") }
        return present
    }

    /// A folder's request table: its `index.md`, or its `.requests.md` where the index lists no request
    /// (rootserver-42, whose `index.md` lists only what differs from 4.1.0).
    public static func requestTable(_ folder: String) -> String {
        let base = root.appendingPathComponent(folder)
        let index = (try? String(contentsOf: base.appendingPathComponent("index.md"), encoding: .utf8)) ?? ""
        if index.contains("| GET |") { return index }
        return (try? String(contentsOf: base.appendingPathComponent(".requests.md"), encoding: .utf8)) ?? index
    }

    /// One capture's bytes (empty when missing, so a replay answers with an empty body rather than crash).
    public static func body(_ folder: String, _ file: String) -> Data {
        (try? Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file))) ?? Data()
    }
}

/// A replayed server's state (which capture answers for a meeting now), changed by the writes it receives.
public final class ReplayState: @unchecked Sendable {
    private let lock = NSLock()
    private var current: String
    /// Starts in `initial`.
    public init(_ initial: String) { current = initial }
    /// Moves to `value`.
    public func set(_ value: String) { lock.withLock { current = value } }
    /// The state now.
    public var value: String { lock.withLock { current } }
}


extension Trait where Self == ConditionTrait {
    /// Runs only where the real servers' captures are beside the project; elsewhere the test is reported as skipped,
    /// with this reason (CI, which always has them, fails on any skipped test).
    public static var needsCaptures: Self {
        .enabled(if: FixtureCaptures.isAvailable, "the real servers' captures (../shared/fixtures) are not beside the project")
    }
}
