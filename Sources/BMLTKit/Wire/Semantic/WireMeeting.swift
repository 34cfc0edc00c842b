import Foundation

/// Semantic meeting objects (`GetSearchResults`, the `before`/`after` of `GetChanges`) → `BMLTMeeting`.
///
/// Decoding is one key at a time through `MeetingBuilder.set(_:_:)`, so any reader of the reply (the generic
/// `WireValue` tree here, or a streaming decoder) shares the one mapping from wire keys to typed fields.
enum WireMeeting {
    /// A list reply → meetings. `[]` and `{}` are both "no meetings"; a list holding anything but objects is
    /// refused (a list of numbers is not a list of meetings, and must not read as an empty one).
    static func decodeList(_ value: WireValue, formats: WireFormatTable,
                           what: BMLTError.Subject = .meetingSearch) throws(BMLTError) -> [BMLTMeeting] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "[meeting]"))
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

/// What decoding many meetings shares: the format table, time zones already looked up, and the values that
/// repeat from meeting to meeting (format lists, the root server's address), kept by the bytes they were read
/// from so that equal meetings share one array or string instead of each making its own.
struct MeetingDecodingContext: Sendable {
    let formats: WireFormatTable
    private var timeZones: [String: TimeZone?] = [:]
    /// `formats` (CSV of keys) by its raw bytes, with the formats resolved from it per language.
    var formatKeyLists = ByteKeyedCache<FormatList<String>>()
    /// `format_shared_id_list` (CSV of ids) by its raw bytes, with the formats resolved from it per language.
    var formatIDLists = ByteKeyedCache<FormatList<Int>>()
    /// Long text that is the same in most meetings of a reply (`root_server_uri`, `service_body_name`).
    var texts = ByteKeyedCache<String>()
    /// `time_zone` by its raw bytes.
    var zones = ByteKeyedCache<TimeZone?>()

    init(formats: WireFormatTable) { self.formats = formats }

    /// `TimeZone(identifier:)` is slow on Linux; a search has few distinct zones.
    mutating func timeZone(_ identifier: String) -> TimeZone? {
        if let known = timeZones[identifier] { return known }
        let zone = TimeZone(identifier: identifier)
        timeZones[identifier] = zone
        return zone
    }
}

/// A meeting's format keys or ids as read from one CSV, and the format objects they resolved to, per language.
struct FormatList<Item: Sendable>: Sendable {
    let items: [Item]
    var resolved: [(language: String?, formats: ResolvedFormats)] = []

    init(_ items: [Item]) { self.items = items }

    /// The formats already resolved for `language`.
    func formats(in language: String?) -> ResolvedFormats? {
        for entry in resolved where entry.language == language { return entry.formats }
        return nil
    }
}

/// The formats one list resolved to, with their keys and ids (to fill the list a reply left out).
struct ResolvedFormats: Sendable {
    let formats: [BMLTFormat]
    let keys: [String]
    let ids: [Int]

    init(_ formats: [BMLTFormat]) {
        self.formats = formats
        keys = formats.map(\.key)
        ids = formats.map(\.id)
    }
}

/// A small open-addressing table from short byte strings (a value's raw bytes in the reply) to values, for
/// decoding: no `String` or `Hasher` is made to look a value up. It stops taking new entries at `limit`.
struct ByteKeyedCache<Value: Sendable>: Sendable {
    private var slots: [Int32] = []          // entry + 1, 0 when free; the count is a power of two
    private var hashes: [UInt64] = []
    private var starts: [Int] = []
    private var keys: [UInt8] = []
    private(set) var values: [Value] = []
    private let limit: Int
    private let longest: Int

    /// A table of at most `limit` entries, each key at most `longest` bytes.
    init(limit: Int = 4096, longest: Int = 256) {
        self.limit = limit
        self.longest = longest
    }

    /// The entry whose key is exactly these bytes.
    func entry(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty, bytes.count <= longest else { return nil }
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 40) & mask
        while true {
            let found = Int(slots[slot]) - 1
            if found < 0 { return nil }
            if hashes[found] == hash, starts[found + 1] - starts[found] == bytes.count, bytes.isEmpty
                || keys.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[found], bytes.baseAddress!, bytes.count) == 0 }) {
                return found
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an entry for bytes not yet in the table; `nil` (and nothing added) when the table is full or the key
    /// too long.
    @discardableResult
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Value) -> Int? {
        guard values.count < limit, bytes.count <= longest else { return nil }
        if slots.isEmpty {
            slots = [Int32](repeating: 0, count: 64)
            starts = [0]
        } else if (values.count + 1) * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for entry in hashes.indices { place(entry) }
        }
        hashes.append(Self.hash(bytes))
        keys.append(contentsOf: bytes)
        starts.append(keys.count)
        values.append(value)
        place(values.count - 1)
        return values.count - 1
    }

    /// Changes the value of an entry.
    mutating func update(_ entry: Int, _ body: (inout Value) -> Void) {
        body(&values[entry])
    }

    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[entry] >> 40) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entry + 1)
    }

    /// A quick hash of the bytes, eight at a time.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            if bytes.count >= 8 {
                // The last eight bytes, overlapping the words already mixed in.
                word = UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)
            } else {
                for offset in 0..<bytes.count { word |= UInt64(base[offset]) << (8 * offset) }
            }
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        }
        return (hash ^ (hash >> 31)) &* 0x94D0_49BB_1331_11EB
    }
}

/// The formats a reply's format keys and ids are resolved against: by id, and by key per language.
struct WireFormatTable: Sendable {
    private var byID: [Int: [BMLTFormat]] = [:]
    private var byKey: [String: [BMLTFormat]] = [:]

    /// An empty table: meetings keep their keys and ids, with no format objects.
    static let empty = WireFormatTable([])

    /// Whether the table has no formats (every meeting then resolves to none).
    var isEmpty: Bool { byID.isEmpty && byKey.isEmpty }

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

    private var latitude: Double?
    private var longitude: Double?
    private var timeZone = TimeZoneValue.none
    /// The context's entries that `formatKeys` and `formatIDs` came from, when they did (-1 otherwise).
    private var formatKeysEntry = -1
    private var formatIDsEntry = -1

    /// The time zone as read: not at all, by name (looked up when the meeting is built), or already looked up.
    private enum TimeZoneValue {
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

    /// Records a numeric field straight from its bytes when they are in the usual form (plain digits, `HH:MM:SS`,
    /// `0`/`1`), giving what `set(_:_:)` gives for the same text. Returns `false`, doing nothing, otherwise.
    mutating func set(_ field: Field, usualBytes bytes: UnsafeBufferPointer<UInt8>, in meeting: inout BMLTMeeting) -> Bool {
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
        case .latitude, .longitude, .distanceKilometers, .distanceMiles:
            guard let number = Self.decimal(bytes) else { return false }
            switch field {
            case .latitude: latitude = number
            case .longitude: longitude = number
            case .distanceKilometers: meeting.distanceInKilometers = number
            default: meeting.distanceInMiles = number
            }
            return true
        default:
            return false
        }
    }

    /// Whether a non-empty string value of this field is looked up in the context by its raw bytes
    /// (`set(_:span:of:context:)`) rather than read each time.
    static func isShared(_ field: Field) -> Bool {
        switch field {
        case .formats, .formatIDs, .rootServerURI, .serviceBodyName, .timeZone: true
        default: false
        }
    }

    /// A format list read from the string at `span`: the one in `lists` when the same bytes were read before, else
    /// `parse`d and remembered. Also returns its entry in `lists` (-1 when it could not be remembered).
    private static func sharedList<Item>(_ span: JSONScanner.StringSpan, of scanner: borrowing JSONScanner,
                                         in lists: inout ByteKeyedCache<FormatList<Item>>,
                                         _ parse: (String) -> [Item]) throws(JSONScanner.Failure) -> ([Item], Int) {
        let bytes = scanner.bytes(of: span)
        if let entry = lists.entry(bytes) { return (lists.values[entry].items, entry) }
        let items = parse(try scanner.string(span))
        return (items, lists.add(bytes, FormatList(items)) ?? -1)
    }

    /// Records a non-empty string value of a field that `isShared` names: from the context when the same bytes
    /// were read before, else read (throwing where `scanner.string` throws) and remembered. Gives exactly what
    /// `set(_:_:)` gives for the string.
    mutating func set(_ field: Field, span: JSONScanner.StringSpan, of scanner: borrowing JSONScanner,
                      in meeting: inout BMLTMeeting, context: inout MeetingDecodingContext) throws(JSONScanner.Failure) {
        let bytes = scanner.bytes(of: span)
        switch field {
        case .formats:
            (meeting.formatKeys, formatKeysEntry) = try Self.sharedList(span, of: scanner, in: &context.formatKeyLists, Self.csv)
        case .formatIDs:
            (meeting.formatIDs, formatIDsEntry) = try Self.sharedList(span, of: scanner, in: &context.formatIDLists, Self.integers)
        case .timeZone:
            if let entry = context.zones.entry(bytes) {
                timeZone = .zone(context.zones.values[entry])
            } else {
                let identifier = try scanner.string(span)
                let zone = context.timeZone(identifier)
                timeZone = .zone(zone)
                context.zones.add(bytes, zone)
            }
        default:
            let text: String
            if let entry = context.texts.entry(bytes) {
                text = context.texts.values[entry]
            } else {
                text = try scanner.string(span)
                context.texts.add(bytes, text)
            }
            set(field, text, in: &meeting)
        }
    }

    /// A plain decimal (`-?digits(.digits)?`, at most 18 digits) that a `Double` holds exactly once the point is
    /// removed: the quotient of two exact doubles, rounded once, which is the correctly rounded value that
    /// `Double(_: String)` gives. Anything else (signs, exponents, spaces, long digit strings) is `nil`.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0, integerDigits = 0, fractionDigits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 18 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0, mantissa <= 1 << 53 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// 10⁰ … 10¹⁸, each exact in a `Double`.
    private static let powersOfTen: [Double] = (0...18).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
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
    private static func csv(_ text: String) -> [String] {
        var items: [String] = []
        forEachItem(of: text) { item in
            let trimmedItem = item.trimmedSpaces
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
