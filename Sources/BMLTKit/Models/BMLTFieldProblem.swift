import Foundation

/// A field of a meeting draft that the connected server would refuse, found before anything is sent
/// (`connection.problems(in:)`): the wire key, a sentence saying what is wrong (in the connection's language) and
/// the structured ``Reason`` (`nil` for a problem made with `init(key:message:)`).
/// ```swift
/// for problem in connection.problems(in: draft) {
///     print(problem.key, "—", problem.message)   // location_street — In-person meetings must have a street address.
/// }
/// ```
public struct BMLTFieldProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The field's semantic wire key, e.g. `location_street`, `weekday_tinyint`, `start_time`.
    public var key: String
    /// What is wrong, in a sentence (the server's own wording where it has one).
    public var message: String
    /// Why, as a value to write your own sentence from (`nil`: made from a message only).
    /// ```swift
    /// if problem.reason == .required { print("Fill in", problem.key) }
    /// ```
    public var reason: Reason?

    /// A problem with the field `key`.
    /// ```swift
    /// let problem = BMLTFieldProblem(key: "meeting_name", message: "The name field is required.")
    /// ```
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// `key: message`.
    public var description: String { key + ": " + message }
}

/// How a save is sent.
/// ```swift
/// var options = BMLTSaveOptions()
/// options.skipVenueTypeLocationValidation = true   // edit an old in-person meeting that has no street yet
/// connection.save(draft, options: options)
/// ```
public struct BMLTSaveOptions: Sendable, Hashable, Codable {
    /// Edits only (REST PATCH, 3.x/4.x): the server skips its venue-type location rules (a street and a city
    /// or postal code for in-person meetings, a link or phone for virtual ones), and so does
    /// `problems(in:options:)`. New meetings and full replacements are always checked.
    public var skipVenueTypeLocationValidation = false

    /// The default options: every rule checked.
    /// ```swift
    /// let options = BMLTSaveOptions()
    /// ```
    public init(skipVenueTypeLocationValidation: Bool = false) {
        self.skipVenueTypeLocationValidation = skipVenueTypeLocationValidation
    }
}
