/// A field a root server's meetings have (`GetFieldKeys`): its wire key and its label in the server's language.
public struct BMLTFieldKey: Sendable, Hashable, Codable, Identifiable {
    /// The wire key, e.g. "location_municipality".
    public var key: String
    /// The label, e.g. "Town".
    public var description: String
    /// The wire key.
    public var id: String { key }

    /// A field key.
    public init(key: String, description: String) {
        self.key = key
        self.description = description
    }
}

/// One distinct value of a field and the meetings that have it (`GetFieldValues`).
public struct BMLTFieldValue: Sendable, Hashable, Codable {
    /// The value; `nil` for meetings where the field is empty (the server's `"NULL"`).
    public var value: String?
    /// The ids of the meetings with this value.
    public var meetingIDs: [Int]
    /// The prompt the server stored before the value (`"Bus Lines"` of `"Bus Lines#@-@#Q66"`), if any: `value`
    /// is then the part after `#@-@#` (see `BMLTPromptedValue`).
    /// ```swift
    /// for entry in values { print(entry.prompt ?? "—", entry.value ?? "(none)", entry.meetingIDs.count) }
    /// ```
    public var prompt: String?

    /// A field value.
    public init(value: String?, meetingIDs: [Int]) {
        self.value = value
        self.meetingIDs = meetingIDs
    }
}

/// The box that holds all of a server's meetings (`GetCoverageArea`).
public struct BMLTCoverageArea: Sendable, Hashable, Codable {
    /// The north-west corner.
    public var northWest: BMLTCoordinate
    /// The south-east corner.
    public var southEast: BMLTCoordinate

    /// A coverage area.
    public init(northWest: BMLTCoordinate, southEast: BMLTCoordinate) {
        self.northWest = northWest
        self.southEast = southEast
    }
}

/// A NAWS export (`GetNAWSDump`): the CSV's columns and its rows, each row keyed by column name.
public struct BMLTNAWSExport: Sendable, Hashable, Codable {
    /// The column names, in order.
    public var columns: [String]
    /// The rows, keyed by column name.
    public var rows: [[String: String]]

    /// A NAWS export.
    public init(columns: [String], rows: [[String: String]]) {
        self.columns = columns
        self.rows = rows
    }
}
