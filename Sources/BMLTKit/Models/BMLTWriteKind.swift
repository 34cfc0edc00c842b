import Foundation

/// A kind of write: what an open outcome (`BMLTUnknownWriteOutcome.writeKind`) or a failed write
/// (`BMLTWriteFailure.writeKind`) was doing.
///
/// A struct with a static member per kind rather than an enum, so that a later release can add a write (a new server
/// administration call, say) without breaking a host's `switch`: match with `case .createMeeting:` … and a
/// `default:`, or compare `name`, which stays the same in every release and language. It replaced
/// `BMLTUnknownWriteOutcome.Write`, the enum of 1.0.0 (deprecated in 1.1.0, removed in 2.0.0), and encodes as it did.
/// ```swift
/// switch open.writeKind {
/// case .createMeeting: print("look for the meeting before saving again")
/// case .contactMessage: print("the server keeps no record of messages")
/// default: print(open.writeKind.name)
/// }
/// ```
public struct BMLTWriteKind: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind's stable name, the same in every release and language: the name of its static member
    /// (`"createMeeting"`, `"serverAdministration"`, …), and its `Codable` form.
    /// ```swift
    /// print(BMLTWriteKind.saveMeeting.name)   // saveMeeting
    /// ```
    public let name: String

    init(_ name: String) { self.name = name }

    // Adding a kind: one `static let name = BMLTWriteKind("name")` line and its words in `WriteOutcomeSentences`
    // (`write.name.<name>` in the twelve tables).

    /// Creating a meeting (a draft of id 0).
    /// ```swift
    /// if open.writeKind == .createMeeting { print("look before saving again") }
    /// ```
    public static let createMeeting = BMLTWriteKind("createMeeting")
    /// Saving changes to a meeting.
    /// ```swift
    /// let failure = BMLTWriteFailure(writeKind: .saveMeeting, code: 500)
    /// ```
    public static let saveMeeting = BMLTWriteKind("saveMeeting")
    /// Deleting a meeting.
    /// ```swift
    /// let open = BMLTUnknownWriteOutcome(writeKind: .deleteMeeting, itemID: 42, loss: .timeout, finding: .notFoundYet)
    /// ```
    public static let deleteMeeting = BMLTWriteKind("deleteMeeting")
    /// Restoring a deleted meeting.
    /// ```swift
    /// if open.writeKind == .restoreMeeting { print(open.itemID ?? 0) }
    /// ```
    public static let restoreMeeting = BMLTWriteKind("restoreMeeting")
    /// Rolling a meeting back to before a change.
    /// ```swift
    /// if open.writeKind == .rollbackMeeting { print(open.itemID ?? 0) }
    /// ```
    public static let rollbackMeeting = BMLTWriteKind("rollbackMeeting")
    /// Server administration: creating a format.
    /// ```swift
    /// if open.writeKind == .createFormat { print("read the formats again") }
    /// ```
    public static let createFormat = BMLTWriteKind("createFormat")
    /// Server administration: creating a service body.
    /// ```swift
    /// if open.writeKind == .createServiceBody { print("read the service bodies again") }
    /// ```
    public static let createServiceBody = BMLTWriteKind("createServiceBody")
    /// Server administration: creating a user.
    /// ```swift
    /// if open.writeKind == .createUser { print("read the users again") }
    /// ```
    public static let createUser = BMLTWriteKind("createUser")
    /// Server administration: another change (an update, a deletion, the settings).
    /// ```swift
    /// if open.writeKind == .serverAdministration { print("read what was changed again") }
    /// ```
    public static let serverAdministration = BMLTWriteKind("serverAdministration")
    /// A message to a meeting's contact (the server keeps no record of it).
    /// ```swift
    /// if open.writeKind == .contactMessage { print("ask the contact whether it arrived") }
    /// ```
    public static let contactMessage = BMLTWriteKind("contactMessage")

    /// The name (for logs).
    /// ```swift
    /// print(BMLTWriteKind.createUser)   // createUser
    /// ```
    public var description: String { name }

    /// Reads the name a `BMLTWriteKind` (or 1.0.0's `Write`) was encoded as; any name is kept, a later release's too.
    /// ```swift
    /// let kind = try JSONDecoder().decode(BMLTWriteKind.self, from: Data(#""createMeeting""#.utf8))
    /// ```
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the name, as 1.0.0's `Write` was encoded.
    /// ```swift
    /// let data = try JSONEncoder().encode(BMLTWriteKind.createMeeting)   // "createMeeting"
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
