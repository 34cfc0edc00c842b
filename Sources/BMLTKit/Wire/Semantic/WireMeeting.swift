import Foundation

/// Semantic meeting objects (`GetSearchResults`, the `before`/`after` of `GetChanges`) → `BMLTMeeting`.
///
/// Decoding is one key at a time through `MeetingBuilder.set(_:_:)`, so any reader of the reply (the generic
/// `WireValue` tree here, or a streaming decoder) shares the one mapping from wire keys to typed fields.
enum WireMeeting {
    /// A list reply → meetings. `[]` and `{}` are both "no meetings"; a list holding anything but objects is
    /// refused (a list of numbers is not a list of meetings, and must not read as an empty one).
    static func decodeList(_ value: WireValue, formats: WireFormatTable,
                           what: String = "the meeting search results") throws(BMLTError) -> [BMLTMeeting] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: what, detail: "expected a list of meetings")
        }
        var context = MeetingDecodingContext(formats: formats)
        var meetings: [BMLTMeeting] = []
        meetings.reserveCapacity(entries.count)
        for entry in entries {
            guard case .object(let members) = entry else { continue }
            meetings.append(decode(members, context: &context))
        }
        return meetings
    }

    /// One meeting object.
    static func decode(_ members: [String: WireValue], context: inout MeetingDecodingContext) -> BMLTMeeting {
        var builder = MeetingBuilder()
        for (key, value) in members { builder.set(key, value) }
        return builder.build(context: &context)
    }
}

/// What decoding many meetings shares: the format table, and time zones already looked up.
struct MeetingDecodingContext {
    let formats: WireFormatTable
    private var timeZones: [String: TimeZone?] = [:]

    init(formats: WireFormatTable) { self.formats = formats }

    /// `TimeZone(identifier:)` is slow on Linux; a search has few distinct zones.
    mutating func timeZone(_ identifier: String) -> TimeZone? {
        if let known = timeZones[identifier] { return known }
        let zone = TimeZone(identifier: identifier)
        timeZones[identifier] = zone
        return zone
    }
}

/// The formats a reply's format keys and ids are resolved against: by id, and by key per language.
struct WireFormatTable: Sendable {
    private var byID: [Int: [BMLTFormat]] = [:]
    private var byKey: [String: [BMLTFormat]] = [:]

    /// An empty table: meetings keep their keys and ids, with no format objects.
    static let empty = WireFormatTable([])

    init(_ formats: [BMLTFormat]) {
        for format in formats {
            byID[format.id, default: []].append(format)
            byKey[format.key, default: []].append(format)
        }
    }

    /// A table where `preferred` win over `fallback` (the search's own formats over the server's list).
    init(preferred: [BMLTFormat], fallback: [BMLTFormat]) {
        self.init(preferred + fallback)
    }

    /// The format with this id, in `language` when there is such a translation.
    func format(id: Int, language: String?) -> BMLTFormat? {
        guard let candidates = byID[id] else { return nil }
        return candidates.first { $0.language == language } ?? candidates.first
    }

    /// The format with this key, preferring `language`.
    func format(key: String, language: String?) -> BMLTFormat? {
        guard let candidates = byKey[key] else { return nil }
        return candidates.first { $0.language == language } ?? candidates.first
    }
}

/// Collects one meeting's wire fields, then builds the typed value.
struct MeetingBuilder {
    /// The standard wire keys and the field each fills.
    enum Field {
        case id, worldID, sharedGroupID, serviceBody, weekday, venueType, startTime, duration, timeZone
        case formats, language, longitude, latitude, distanceKilometers, distanceMiles, emailContact, name
        case locationText, locationInfo, street, citySubsection, neighborhood, municipality, subProvince
        case province, postalCode, nation, comments, zone, trainLines, busLines
        case contactPhone2, contactEmail2, contactName2, contactPhone1, contactEmail1, contactName1
        case phoneMeetingNumber, virtualMeetingLink, virtualMeetingAdditionalInfo
        case published, rootServerURI, formatIDs, rootServerID, serviceBodyName, adminNotes
    }

    static let fields: [String: Field] = [
        "id_bigint": .id, "worldid_mixed": .worldID, "shared_group_id_bigint": .sharedGroupID,
        "service_body_bigint": .serviceBody, "weekday_tinyint": .weekday, "venue_type": .venueType,
        "start_time": .startTime, "duration_time": .duration, "time_zone": .timeZone, "formats": .formats,
        "lang_enum": .language, "longitude": .longitude, "latitude": .latitude,
        "distance_in_km": .distanceKilometers, "distance_in_miles": .distanceMiles, "email_contact": .emailContact,
        "meeting_name": .name, "location_text": .locationText, "location_info": .locationInfo,
        "location_street": .street, "location_city_subsection": .citySubsection,
        "location_neighborhood": .neighborhood, "location_municipality": .municipality,
        "location_sub_province": .subProvince, "location_province": .province,
        "location_postal_code_1": .postalCode, "location_nation": .nation, "comments": .comments, "zone": .zone,
        "train_lines": .trainLines, "bus_lines": .busLines,
        "contact_phone_2": .contactPhone2, "contact_email_2": .contactEmail2, "contact_name_2": .contactName2,
        "contact_phone_1": .contactPhone1, "contact_email_1": .contactEmail1, "contact_name_1": .contactName1,
        "phone_meeting_number": .phoneMeetingNumber, "virtual_meeting_link": .virtualMeetingLink,
        "virtual_meeting_additional_info": .virtualMeetingAdditionalInfo, "published": .published,
        "root_server_uri": .rootServerURI, "format_shared_id_list": .formatIDs, "root_server_id": .rootServerID,
        "service_body_name": .serviceBodyName, "admin_notes": .adminNotes,
    ]

    private(set) var meeting = BMLTMeeting(id: 0, serviceBodyID: 0)
    private var latitude: Double?
    private var longitude: Double?
    private var timeZoneIdentifier: String?

    /// Records one wire member. Unknown keys with a value go to `extraFields`.
    mutating func set(_ key: String, _ value: WireValue) {
        guard let field = Self.fields[key] else { return setUnknown(key, value) }
        set(field, value: value)
    }

    /// Records a member whose key is not a standard field: kept as text when it has a value. A later member
    /// with the same key replaces it (as in a JSON object, the last one wins).
    mutating func setUnknown(_ key: String, _ value: WireValue) {
        meeting.extraFields[key] = value.string
    }

    /// Records a standard field from any JSON value.
    mutating func set(_ field: Field, value: WireValue) {
        if field == .formats, case .array = value {
            meeting.formatKeys = value.list          // `json_data` of GetChanges sends formats as an array
            return
        }
        if case .string(let text) = value { return set(field, string: text) }
        set(field, value.string)
    }

    /// Records a standard field from a JSON string: `""` is absent, except that 2.x writes `""` for an
    /// unpublished meeting.
    mutating func set(_ field: Field, string text: String) {
        guard text.isEmpty else { return set(field, text) }
        if field == .published { meeting.isPublished = false } else { set(field, nil) }
    }

    /// Records a numeric field straight from its bytes when they are in the usual form (plain digits, `HH:MM:SS`,
    /// `0`/`1`), giving what `set(_:_:)` gives for the same text. Returns `false`, doing nothing, otherwise.
    mutating func set(_ field: Field, usualBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch field {
        case .id, .serviceBody, .weekday, .venueType, .sharedGroupID, .rootServerID:
            guard let number = Self.digits(bytes) else { return false }
            switch field {
            case .id: meeting.id = number
            case .serviceBody: meeting.serviceBodyID = number
            case .weekday: meeting.weekday = BMLTWeekday(rawValue: number)
            case .venueType: meeting.venueType = BMLTVenueType(rawValue: number)
            case .sharedGroupID: meeting.sharedGroupID = number
            default: meeting.rootServerID = number
            }
            return true
        case .startTime, .duration:
            guard let (hour, minute, second) = WireTime.fixedWidth(bytes) else { return false }
            if field == .duration {
                meeting.duration = TimeInterval(hour * 3600 + minute * 60 + second)
            } else {
                guard hour < 24 || (hour == 24 && minute == 0 && second == 0) else { return false }
                meeting.startTime = BMLTTimeOfDay(hour: hour, minute: minute, second: second)
            }
            return true
        case .published:
            guard bytes.count == 1, bytes[0] == UInt8(ascii: "0") || bytes[0] == UInt8(ascii: "1") else { return false }
            meeting.isPublished = bytes[0] == UInt8(ascii: "1")
            return true
        default:
            return false
        }
    }

    /// One to eighteen ASCII digits as a number (no sign, no spaces: those take the general path).
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard (1...18).contains(bytes.count) else { return nil }
        var number = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number
    }

    /// Records one standard field from its text (`nil`: empty or absent). Bad text leaves the field `nil`.
    mutating func set(_ field: Field, _ text: String?) {
        switch field {
        case .id: meeting.id = text.flatMap(Self.integer) ?? 0
        case .worldID: meeting.worldID = text
        case .sharedGroupID: meeting.sharedGroupID = text.flatMap(Self.integer)
        case .serviceBody: meeting.serviceBodyID = text.flatMap(Self.integer) ?? 0
        case .weekday: meeting.weekday = text.flatMap(Self.integer).flatMap(BMLTWeekday.init(rawValue:))
        case .venueType: meeting.venueType = text.flatMap(Self.integer).flatMap(BMLTVenueType.init(rawValue:))
        case .startTime: meeting.startTime = text.flatMap(WireTime.timeOfDay)
        case .duration: meeting.duration = text.flatMap(WireTime.duration)
        case .timeZone: timeZoneIdentifier = text
        case .formats: meeting.formatKeys = text.map(Self.csv) ?? []
        case .language: meeting.language = text
        case .longitude: longitude = text.flatMap(Self.number)
        case .latitude: latitude = text.flatMap(Self.number)
        case .distanceKilometers: meeting.distanceInKilometers = text.flatMap(Self.number)
        case .distanceMiles: meeting.distanceInMiles = text.flatMap(Self.number)
        case .emailContact: meeting.emailContact = text
        case .name: meeting.name = text ?? ""
        case .locationText: meeting.locationText = text
        case .locationInfo: meeting.locationInfo = text
        case .street: meeting.street = text
        case .citySubsection: meeting.citySubsection = text
        case .neighborhood: meeting.neighborhood = text
        case .municipality: meeting.municipality = text
        case .subProvince: meeting.subProvince = text
        case .province: meeting.province = text
        case .postalCode: meeting.postalCode = text
        case .nation: meeting.nation = text
        case .comments: meeting.comments = text
        case .zone: meeting.zone = text
        case .trainLines: meeting.trainLines = text
        case .busLines: meeting.busLines = text
        case .contactPhone2: meeting.contactPhone2 = text
        case .contactEmail2: meeting.contactEmail2 = text
        case .contactName2: meeting.contactName2 = text
        case .contactPhone1: meeting.contactPhone1 = text
        case .contactEmail1: meeting.contactEmail1 = text
        case .contactName1: meeting.contactName1 = text
        case .phoneMeetingNumber: meeting.phoneMeetingNumber = text
        case .virtualMeetingLink: meeting.virtualMeetingLink = text
        case .virtualMeetingAdditionalInfo: meeting.virtualMeetingAdditionalInfo = text
        case .published: meeting.isPublished = text.flatMap(Self.flag)
        case .rootServerURI: meeting.rootServerURI = text
        case .formatIDs: meeting.formatIDs = text.map(Self.integers) ?? []
        case .rootServerID: meeting.rootServerID = text.flatMap(Self.integer)
        case .serviceBodyName: meeting.serviceBodyName = text
        case .adminNotes: meeting.adminNotes = text
        }
    }

    /// The meeting, with its coordinate, time zone and format objects resolved.
    mutating func build(context: inout MeetingDecodingContext) -> BMLTMeeting {
        if let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) {
            meeting.coordinate = BMLTCoordinate(latitude: latitude, longitude: longitude)
        }
        if let timeZoneIdentifier { meeting.timeZone = context.timeZone(timeZoneIdentifier) }
        Self.resolveFormats(of: &meeting, in: context.formats)
        return meeting
    }

    /// Sets `formats` from the meeting's format ids (or, lacking ids, its keys) and the table.
    static func resolveFormats(of meeting: inout BMLTMeeting, in table: WireFormatTable) {
        let language = meeting.language
        if !meeting.formatIDs.isEmpty {
            meeting.formats = meeting.formatIDs.compactMap { table.format(id: $0, language: language) }
        } else if !meeting.formatKeys.isEmpty {
            meeting.formats = meeting.formatKeys.compactMap { table.format(key: $0, language: language) }
        }
    }

    private static func integer(_ text: String) -> Int? { Int(trimmed(text)) }

    private static func number(_ text: String) -> Double? {
        guard let value = Double(trimmed(text)), value.isFinite else { return nil }
        return value
    }

    /// `text` without surrounding spaces and tabs; the usual text, which has none, is returned as it is without
    /// going through Foundation.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
        if plain(first), plain(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private static func flag(_ text: String) -> Bool? {
        switch trimmed(text).lowercased() {
        case "1", "true": true
        case "0", "false": false
        default: nil
        }
    }

    /// A comma-separated list without empty items, each trimmed (split on the comma byte: keys and ids).
    private static func csv(_ text: String) -> [String] {
        var items: [String] = []
        forEachItem(of: text) { item in
            let trimmedItem = trimmed(item)
            if !trimmedItem.isEmpty { items.append(trimmedItem) }
        }
        return items
    }

    /// A comma-separated list of integers; items that are not integers are dropped.
    private static func integers(_ text: String) -> [Int] {
        var numbers: [Int] = []
        forEachItem(of: text) { item in
            if let number = integer(item) { numbers.append(number) }
        }
        return numbers
    }

    /// Calls `body` with each comma-separated item of `text`, untrimmed, empty ones included.
    private static func forEachItem(of text: String, _ body: (String) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                start = index + 1
            }
        }
    }
}
