import Foundation

/// A password on its way into a request body. It never prints: its description, debug description and
/// mirror are all `"••••••"`, so an action or error holding one can be logged safely.
public struct BMLTPassword: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible,
                            CustomDebugStringConvertible, CustomReflectable {
    /// The password itself (only for the request body).
    let value: String

    /// A password.
    public init(_ value: String) { self.value = value }
    /// A password written in code (tests, samples).
    public init(stringLiteral value: String) { self.value = value }

    /// Always `"••••••"`.
    public var description: String { "••••••" }
    /// Always `"••••••"`.
    public var debugDescription: String { "••••••" }
    /// A mirror without the value.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
