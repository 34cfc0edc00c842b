import Foundation

/// One meeting as the root server publishes it, with every standard field typed.
///
/// Fields the server left empty, or did not send (a search with `dataFieldKeys` returns only some), are `nil`.
/// Server-defined fields BMLTKit does not know are kept, as text, in `extraFields`.
public struct BMLTMeeting: Sendable, Hashable, Codable, Identifiable {
    /// The meeting's id (`id_bigint`).
    public var id: Int
    /// The service body that owns the meeting.
    public var serviceBodyID: Int
    /// The owning service body's name, as root server 4.x reports it with each meeting (`service_body_name`).
    /// The server computes it from `serviceBodyID`: it is never sent in a write (change `serviceBodyID`).
    /// ```swift
    /// print(meeting.name, "—", meeting.serviceBodyName ?? "service body \(meeting.serviceBodyID)")
    /// ```
    public var serviceBodyName: String?
    /// The day of the week.
    public var weekday: BMLTWeekday?
    /// The start time, local to the meeting.
    public var startTime: BMLTTimeOfDay?
    /// How long the meeting lasts, in seconds.
    public var duration: TimeInterval?
    /// The meeting's time zone, when the server records one.
    public var timeZone: TimeZone?
    /// In person, virtual or hybrid.
    public var venueType: BMLTVenueType?
    /// The formats, resolved to format objects where the format table is known (search results are resolved
    /// against the formats of the search, or the server's full list).
    public var formats: [BMLTFormat]
    /// The format keys as the server listed them (`formats`), in the search's language; filled from the known
    /// formats when a reply carried only the ids (`data_field_key`).
    public var formatKeys: [String]
    /// The format ids (`format_shared_id_list`; the server sorts them by number, so they need not line up with
    /// `formatKeys`); filled from the known formats when a reply carried only the keys.
    public var formatIDs: [Int]
    /// The language of the meeting's format keys.
    public var language: String?
    /// Where the meeting is; `nil` when the server has no place for it. Servers write latitude and longitude
    /// `0`, `0` (or leave them empty) for "not geocoded": BMLTKit reads both as `nil`, never as a point off West
    /// Africa (see `BMLTCoordinate.isNotGeocoded`).
    public var coordinate: BMLTCoordinate?
    /// The distance from the search centre in kilometres (geographic searches only).
    public var distanceInKilometers: Double?
    /// The distance from the search centre in miles (geographic searches only).
    public var distanceInMiles: Double?
    /// The meeting's name.
    public var name: String
    /// The venue's name, e.g. "St. Mary's Church".
    public var locationText: String?
    /// Extra directions, e.g. "Basement, side door".
    public var locationInfo: String?
    /// Street address.
    public var street: String?
    /// Borough or city subsection.
    public var citySubsection: String?
    /// Neighbourhood.
    public var neighborhood: String?
    /// Town or city.
    public var municipality: String?
    /// County or sub-province.
    public var subProvince: String?
    /// State or province.
    public var province: String?
    /// Postal code.
    public var postalCode: String?
    /// Nation.
    public var nation: String?
    /// Comments.
    public var comments: String?
    /// Zone.
    public var zone: String?
    /// Train lines nearby.
    public var trainLines: String?
    /// Bus lines nearby.
    public var busLines: String?
    /// The link to join online.
    public var virtualMeetingLink: String?
    /// Extra information for joining online, e.g. a meeting id and passcode.
    public var virtualMeetingAdditionalInfo: String?
    /// The phone number to join by phone.
    public var phoneMeetingNumber: String?
    /// Whether the meeting is published; `nil` when the server did not say.
    public var isPublished: Bool?
    /// The NAWS world id, e.g. "G00324490".
    public var worldID: String?
    /// The shared group id (rarely used).
    public var sharedGroupID: Int?
    /// The meeting's own contact email (only sent to logged-in editors).
    public var emailContact: String?
    /// First contact's name (visible to editors only).
    public var contactName1: String?
    /// First contact's phone.
    public var contactPhone1: String?
    /// First contact's email.
    public var contactEmail1: String?
    /// Second contact's name.
    public var contactName2: String?
    /// Second contact's phone.
    public var contactPhone2: String?
    /// Second contact's email.
    public var contactEmail2: String?
    /// Notes for the meeting's administrators (4.x `admin_notes`): only editors see them; `nil` where the
    /// server sends `""` (as it does to the public) or nothing (before 4.x).
    /// ```swift
    /// var draft = meeting.editable()
    /// draft.adminNotes = "Key with the church office"
    /// ```
    public var adminNotes: String?
    /// The root server this meeting came from (`root_server_uri`).
    public var rootServerURI: String?
    /// The id of the root server in an aggregator.
    public var rootServerID: Int?
    /// Fields the server defines that BMLTKit does not know, by wire key, as text.
    public var extraFields: [String: String]
    /// The ids of the copies of this meeting that `deduplicated()` folded into it (the same meeting listed by
    /// other root servers of an aggregator), in the order they came; empty otherwise.
    /// ```swift
    /// for meeting in results.meetings.deduplicated() where !meeting.foldedMeetingIDs.isEmpty {
    ///     print(meeting.name, "is also listed as", meeting.foldedMeetingIDs)
    /// }
    /// ```
    public var foldedMeetingIDs: [Int] {
        get { foldedIDs ?? [] }
        set { foldedIDs = newValue.isEmpty ? nil : newValue }
    }
    /// Stored optionally so that meetings encoded before this field existed still decode (`Codable`).
    private var foldedIDs: [Int]?
    /// The fields the server wrote as `prompt#@-@#value`, by wire key (`fieldPrompts`); stored optionally so that
    /// meetings encoded before this field existed still decode (`Codable`), and `nil` for nearly every meeting.
    var promptStorage: [String: BMLTPromptedValue]?

    /// A meeting value; everything but the id, service body and name has a default.
    public init(id: Int, serviceBodyID: Int, name: String = "", weekday: BMLTWeekday? = nil,
                startTime: BMLTTimeOfDay? = nil, duration: TimeInterval? = nil) {
        self.id = id
        self.serviceBodyID = serviceBodyID
        self.name = name
        self.weekday = weekday
        self.startTime = startTime
        self.duration = duration
        self.formats = []
        self.formatKeys = []
        self.formatIDs = []
        self.extraFields = [:]
    }

}
