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
        var meeting = BMLTMeeting(id: 0, serviceBodyID: 0)
        var builder = MeetingBuilder()
        for (key, value) in members { builder.set(key, value, in: &meeting) }
        builder.build(&meeting, context: &context)
        return meeting
    }
}

/// Collects one meeting's wire fields into a meeting value, then completes it. The meeting is the caller's (passed
/// `inout`), not the builder's: returning it is then a move, not a copy of every string followed by a release of
/// the builder's.
struct MeetingBuilder {
    /// The standard wire keys and the field each fills (the raw values number them for bit sets: fewer than 64).
    enum Field: Int {
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

    // Not private: the byte-level setters in MeetingBuilder+Bytes.swift fill these too.
    var latitude: Double?
    var longitude: Double?
    var timeZone = TimeZoneValue.none
    /// The context's entries that `formatKeys` and `formatIDs` came from, when they did (-1 otherwise).
    var formatKeysEntry = -1
    var formatIDsEntry = -1

    /// The time zone as read: not at all, by name (looked up when the meeting is built), or already looked up.
    enum TimeZoneValue {
        case none
        case identifier(String)
        case zone(TimeZone?)
    }

    /// Records one wire member. Unknown keys with a value go to `extraFields`.
    mutating func set(_ key: String, _ value: WireValue, in meeting: inout BMLTMeeting) {
        guard let field = Self.fields[key] else { return setUnknown(key, value, in: &meeting) }
        set(field, value: value, in: &meeting)
    }

    /// Records a member whose key is not a standard field: kept as text when it has a value. A later member
    /// with the same key replaces it (as in a JSON object, the last one wins).
    mutating func setUnknown(_ key: String, _ value: WireValue, in meeting: inout BMLTMeeting) {
        meeting.extraFields[key] = meeting.takePrompt(key, value.string)
    }

    /// Records a standard field from any JSON value.
    mutating func set(_ field: Field, value: WireValue, in meeting: inout BMLTMeeting) {
        if field == .formats, case .array = value {
            meeting.formatKeys = value.list          // `json_data` of GetChanges sends formats as an array
            formatKeysEntry = -1
            return
        }
        if case .string(let text) = value { return set(field, string: text, in: &meeting) }
        set(field, value.string, in: &meeting)
    }

    /// Records a standard field from a JSON string: `""` is absent, except that 2.x writes `""` for an
    /// unpublished meeting.
    mutating func set(_ field: Field, string text: String, in meeting: inout BMLTMeeting) {
        guard text.isEmpty else { return set(field, text, in: &meeting) }
        if field == .published { meeting.isPublished = false } else { set(field, nil, in: &meeting) }
    }

    /// The wire key of each field, by `Field.rawValue`.
    static let wireKeys: [String] = {
        var keys = [String](repeating: "", count: fields.count)
        for (key, field) in fields { keys[field.rawValue] = key }
        return keys
    }()

    /// Whether the server may write this field as `prompt#@-@#value` (the free-text fields of the data table).
    @inline(__always)
    static func mayCarryPrompt(_ field: Field) -> Bool {
        (Field.locationText.rawValue...Field.virtualMeetingAdditionalInfo.rawValue).contains(field.rawValue)
    }

    /// Records one standard field from its text (`nil`: empty or absent). Bad text leaves the field `nil`. A free-text
    /// field written as `prompt#@-@#value` gets the value, and the meeting keeps the prompt (`fieldPrompts`).
    mutating func set(_ field: Field, _ text: String?, in meeting: inout BMLTMeeting) {
        var text = text
        if Self.mayCarryPrompt(field), meeting.promptStorage != nil || text.map(BMLTPromptedValue.mayHoldSeparator) == true {
            text = meeting.takePrompt(Self.wireKeys[field.rawValue], text)
        }
        switch field {
        case .id: meeting.id = text.flatMap(Self.integer) ?? 0
        case .worldID: meeting.worldID = text
        case .sharedGroupID: meeting.sharedGroupID = text.flatMap(Self.integer)
        case .serviceBody: meeting.serviceBodyID = text.flatMap(Self.integer) ?? 0
        case .weekday: meeting.weekday = text.flatMap(Self.integer).flatMap(BMLTWeekday.init(rawValue:))
        case .venueType: meeting.venueType = text.flatMap(Self.integer).flatMap(BMLTVenueType.init(rawValue:))
        case .startTime: meeting.startTime = text.flatMap(WireTime.timeOfDay)
        case .duration: meeting.duration = text.flatMap(WireTime.duration)
        case .timeZone: timeZone = text.map(TimeZoneValue.identifier) ?? .none
        case .formats:
            meeting.formatKeys = text.map(Self.csv) ?? []
            formatKeysEntry = -1
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
        case .formatIDs:
            meeting.formatIDs = text.map(Self.integers) ?? []
            formatIDsEntry = -1
        case .rootServerID: meeting.rootServerID = text.flatMap(Self.integer)
        case .serviceBodyName: meeting.serviceBodyName = text
        case .adminNotes: meeting.adminNotes = text
        }
    }

    /// Completes the meeting: its coordinate, time zone and format objects resolved.
    func build(_ meeting: inout BMLTMeeting, context: inout MeetingDecodingContext) {
        // 0,0 is the servers' "not geocoded": no coordinate, as an empty latitude or longitude is.
        if let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude),
           latitude != 0 || longitude != 0 {
            meeting.coordinate = BMLTCoordinate(latitude: latitude, longitude: longitude)
        } else if latitude == 0, longitude == 0 {
            // The server measured a geographic search's distance to 0,0: it says nothing about the meeting.
            meeting.distanceInKilometers = nil
            meeting.distanceInMiles = nil
        }
        switch timeZone {
        case .none: break
        case .identifier(let identifier): meeting.timeZone = context.timeZone(identifier)
        case .zone(let zone): meeting.timeZone = zone
        }
        let table = context.formats
        if table.isEmpty {
            // Nothing to resolve against: `formats` stays empty, as `resolveFormats` would leave it.
        } else if !meeting.formatIDs.isEmpty {
            let resolved = Self.resolved(meeting.formatIDs, entry: formatIDsEntry, in: &context.formatIDLists,
                                         language: meeting.language) { table.format(id: $0, language: $1) }
            meeting.formats = resolved.formats
            // A reply made with `data_field_key` may carry the ids alone: the keys come from the formats.
            if meeting.formatKeys.isEmpty { meeting.formatKeys = resolved.keys }
        } else if !meeting.formatKeys.isEmpty {
            let resolved = Self.resolved(meeting.formatKeys, entry: formatKeysEntry, in: &context.formatKeyLists,
                                         language: meeting.language) { table.format(key: $0, language: $1) }
            meeting.formats = resolved.formats
            meeting.formatIDs = resolved.ids        // empty here: `formatIDs` was checked first
        }
    }

    /// The formats of `items` in `language`. A list in the cache (`entry` ≥ 0) is resolved once per list and language,
    /// then shared; a list that is not (`entry` < 0) is resolved on its own, as `resolveFormats` does.
    /// Each list's keys and ids are made once with its formats and shared the same way, so filling a missing
    /// list costs no allocation per meeting.
    private static func resolved<Item>(_ items: [Item], entry: Int, in cache: inout ByteKeyedCache<FormatList<Item>>,
                                       language: String?, _ format: (Item, String?) -> BMLTFormat?) -> ResolvedFormats {
        guard entry >= 0 else { return ResolvedFormats(items.compactMap { format($0, language) }) }
        if let resolved = cache.values[entry].formats(in: language) { return resolved }
        let resolved = ResolvedFormats(items.compactMap { format($0, language) })
        cache.update(entry) { list in
            if list.resolved.count < 8 { list.resolved.append((language, resolved)) }
        }
        return resolved
    }

    /// Sets `formats` from the meeting's format ids (or, lacking ids, its keys) and the table, and fills whichever
    /// of `formatKeys` / `formatIDs` the reply left out from the formats found (as `WireMeetingFieldTable.resolveFormats`).
    static func resolveFormats(of meeting: inout BMLTMeeting, in table: WireFormatTable) {
        let language = meeting.language
        if !meeting.formatIDs.isEmpty {
            meeting.formats = meeting.formatIDs.compactMap { table.format(id: $0, language: language) }
            if meeting.formatKeys.isEmpty { meeting.formatKeys = meeting.formats.map(\.key) }
        } else if !meeting.formatKeys.isEmpty {
            meeting.formats = meeting.formatKeys.compactMap { table.format(key: $0, language: language) }
            meeting.formatIDs = meeting.formats.map(\.id)
        }
    }

    private static func integer(_ text: String) -> Int? { Int(text.trimmedSpaces) }

    private static func number(_ text: String) -> Double? {
        guard let value = Double(text.trimmedSpaces), value.isFinite else { return nil }
        return value
    }


    private static func flag(_ text: String) -> Bool? {
        switch text.trimmedSpaces.lowercased() {
        case "1", "true": true
        case "0", "false": false
        default: nil
        }
    }

    /// A comma-separated list without empty items, each trimmed (split on the comma byte: keys and ids).
    static func csv(_ text: String) -> [String] {
        var items: [String] = []
        forEachItem(of: text) { item in
            let trimmedItem = item.trimmedSpaces
            if !trimmedItem.isEmpty { items.append(trimmedItem) }
        }
        return items
    }

    /// A comma-separated list of integers; items that are not integers are dropped.
    static func integers(_ text: String) -> [Int] {
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
