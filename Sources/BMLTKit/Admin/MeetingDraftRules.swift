import Foundation

/// The rules the REST interface (root server 3.x and 4.x) applies to a meeting before it stores it, checked
/// locally: `MeetingController::validateInputs` and the `VenueTypeLocation` rule of bmlt-server. A PATCH is
/// checked by the server against the whole meeting (the stored meeting with the patch merged in), so a draft
/// is checked whole too. The legacy 2.x interface (`json.php`) has no such rules, but it cannot take some
/// fields at all, nor a duration that is no time (`legacyProblems`): those are named instead.
///
/// Fields BMLTKit fills itself (`formatIds`, `duration` from the server's default, `published`, `venueType`
/// in-person when unset) are not problems; `customFields` only ever holds the server's own keys.
enum MeetingDraftRules {
    /// The wire keys of the location fields the venue-type rule checks.
    static let venueLocationKeys: Set<String> = ["location_street", "location_municipality", "location_province",
                                                 "location_postal_code_1", "phone_meeting_number", "virtual_meeting_link"]

    /// The problems of `draft` for a server with `info` (REST rules when `info` is nil or 3.0 and newer).
    /// `serviceBodyIDs`: the server's service bodies when known (empty: not checked).
    static func problems(in draft: BMLTMeetingDraft, info: BMLTServerInfo?, formats: [BMLTFormat],
                         serviceBodyIDs: Set<Int>, options: BMLTSaveOptions, language: String) -> [BMLTFieldProblem] {
        if let info, info.majorVersion < 3 { return legacyProblems(in: draft, version: info.version, language: language) }
        let meeting = AdminFormats.aligned(draft, formats: formats)
        var problems: [BMLTFieldProblem] = []
        func add(_ key: String, _ reason: BMLTFieldProblem.Reason) {
            problems.append(BMLTFieldProblem(key: key, reason: reason, language: language))
        }

        if meeting.serviceBodyID <= 0 {
            add("service_body_bigint", .required)
        } else if !serviceBodyIDs.isEmpty, !serviceBodyIDs.contains(meeting.serviceBodyID) {
            add("service_body_bigint", .unknownServiceBody(id: meeting.serviceBodyID))
        }
        let formatsEdited = draft.isNew || draft.changes.contains { $0.key == "formats" }
        checkFormats(meeting, formats: formats, venueRules: formatsEdited, add)
        if meeting.weekday == nil { add("weekday_tinyint", .required) }
        if meeting.startTime == nil { add("start_time", .required) }
        if let duration = meeting.duration, !(0..<24 * 3600).contains(duration) {    // NaN and .infinity too
            add("duration_time", .durationTooLong)
        }
        if let coordinate = meeting.coordinate {
            if !(-90...90).contains(coordinate.latitude) { add("latitude", .latitudeOutOfRange) }
            if !(-180...180).contains(coordinate.longitude) { add("longitude", .longitudeOutOfRange) }
        } else {
            add("latitude", .required)
            add("longitude", .required)
        }
        if meeting.name.trimmingCharacters(in: .whitespaces).isEmpty {
            add("meeting_name", .required)
        } else if meeting.name.count > 128 {
            add("meeting_name", .tooLong(maximum: 128))
        }
        if let zone = meeting.timeZone, !isNamedZone(zone.identifier) {
            add("time_zone", .invalidTimeZone(zone.identifier))
        }
        if let email = meeting.emailContact {
            if email.count > 255 { add("email_contact", .tooLong(maximum: 255)) }
            else if !isEmail(email) { add("email_contact", .invalidEmail) }
        }
        if let world = meeting.worldID, world.count > 30 { add("worldid_mixed", .tooLong(maximum: 30)) }
        for key in WireRESTMeeting.dataFieldKeys + WireRESTMeeting.customKeys(server: info, meeting: meeting) + ["admin_notes"] {
            if let text = WireMeetingFieldTable.value(key, of: meeting), text.count > 512 {
                add(key, .tooLong(maximum: 512))
            }
        }
        let skipLocation = options.skipVenueTypeLocationValidation && !draft.isNew
        if !skipLocation { checkVenueLocation(meeting, add) }
        guard !draft.isNew else { return problems }
        // An edit is checked where it changed something: the fields the draft changed, the venue rule when the
        // venue type or a location field changed. The rest was the server's before (and a meeting read with
        // only some fields must not read as missing the others).
        let edited = Set(draft.changes.map(\.key))
        return problems.filter { concerns($0.key, edited) }
    }

    /// The fields 2.x's `json.php` (`c_comdef_admin_xml_handler::process_meeting_modify`, used by both
    /// `add_meeting` and `modify_meeting`) cannot take. Its switch has a case for each main-table column but
    /// `venue_type` and `shared_group_id_bigint`: those fall into the data-field branch, where
    /// `c_comdef_meeting::AddDataField()` writes into a plain value (`TypeError`, HTTP 500 with an empty body on
    /// PHP 8; a warning and a mangled value on PHP 7). `email_contact` goes through `intval()`, which erases the
    /// address; `admin_notes` came with 4.0. On 2.x the venue type follows from the VM/HY/TC formats, set from
    /// the server's own browser admin page.
    ///
    /// A field is a problem when the draft changes it: an edit against the meeting it was made from; a new
    /// meeting against the meeting it was copied from (`BMLTMeetingDraft.copiedFrom`: a copy keeps what the
    /// server gave it, and the server's own value is not sent again), else against an empty meeting.
    static func legacyProblems(in draft: BMLTMeetingDraft, version: String, language: String) -> [BMLTFieldProblem] {
        var problems = legacyRefusedKeys(in: draft).map { key in
            BMLTFieldProblem(key: key, reason: .legacyInterfaceCannotSet(serverVersion: version), language: language)
        }
        // A duration that is no time at all (NaN, infinite, below 0) has no `HH:MM:SS` to send: refused, as on 3.x.
        if let duration = draft.meeting.duration, !(duration.isFinite && duration >= 0) {
            problems.append(BMLTFieldProblem(key: "duration_time", reason: .durationTooLong, language: language))
        }
        return problems
    }

    /// The fields of `legacyProblems(in:version:)` that `draft` changes and 2.x cannot take (see there; the duration
    /// check is not one of them).
    static func legacyRefusedKeys(in draft: BMLTMeetingDraft) -> [String] {
        let base = draft.isNew ? draft.copiedFrom : draft.original
        return ["venue_type", "shared_group_id_bigint", "email_contact", "admin_notes"].filter { key in
            WireMeetingFieldTable.value(key, of: draft.meeting) != base.flatMap { WireMeetingFieldTable.value(key, of: $0) }
        }
    }

    /// The fields 2.x's `json.php` never stores as sent, left out of every legacy write: the computed ones (as on
    /// every generation), and those `legacyRefusedKeys` guards (unchanged from the server's own value when they
    /// get this far).
    static let legacyUnsentKeys: Set<String> = WireMeetingFieldTable.computedKeys
        .union(["venue_type", "shared_group_id_bigint", "email_contact", "admin_notes"])

    /// Whether a problem with `key` follows from editing `edited`.
    private static func concerns(_ key: String, _ edited: Set<String>) -> Bool {
        if venueLocationKeys.contains(key) { return !edited.isDisjoint(with: venueLocationKeys.union(["venue_type"])) }
        if key == "latitude" || key == "longitude" { return edited.contains("latitude") || edited.contains("longitude") }
        return edited.contains(key)
    }

    /// `VenueTypeLocation`: in person (and hybrid) a street, and a city with a state/province or a postal
    /// code; virtual (and hybrid) a link or a phone number. The server names every field the rule concerns.
    private static func checkVenueLocation(_ meeting: BMLTMeeting, _ add: (String, BMLTFieldProblem.Reason) -> Void) {
        func filled(_ text: String?) -> Bool { !(text ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        let venue = meeting.venueType ?? .inPerson
        if venue != .virtual {
            if !filled(meeting.street) { add("location_street", .streetRequired(venue)) }
            if !(filled(meeting.municipality) && filled(meeting.province)) && !filled(meeting.postalCode) {
                for key in ["location_municipality", "location_province", "location_postal_code_1"] { add(key, .locationRequired(venue)) }
            }
        }
        if venue != .inPerson, !filled(meeting.virtualMeetingLink), !filled(meeting.phoneMeetingNumber) {
            for key in ["virtual_meeting_link", "phone_meeting_number"] { add(key, .linkOrPhoneRequired(venue)) }
        }
    }

    /// Format ids the server does not have, and the VM/HY/TC formats, which follow from the venue type (and
    /// `temporarilyVirtual`) and are refused in `formatIds`: present without the matching venue type they
    /// would be lost.
    /// `venueRules`: only when the formats are sent (new meeting, formats edited); a PATCH without them keeps
    /// the stored formats, which the server strips of VM/HY/TC itself.
    private static func checkFormats(_ meeting: BMLTMeeting, formats: [BMLTFormat], venueRules: Bool,
                                     _ add: (String, BMLTFieldProblem.Reason) -> Void) {
        guard !formats.isEmpty else { return }
        let known = Set(formats.map(\.id))
        let unknown = meeting.formatIDs.filter { !known.contains($0) }
        if !unknown.isEmpty {
            add("formats", .unknownFormats(unknown))
        }
        guard venueRules else { return }
        func has(_ key: String) -> Bool { formats.contains { $0.key == key && meeting.formatIDs.contains($0.id) } }
        let venue = meeting.venueType ?? .inPerson
        if has("VM"), venue != .virtual {
            add("formats", .formatFollowsVenueType(formatKey: "VM", venueType: .virtual))
        }
        if has("HY"), venue != .hybrid {
            add("formats", .formatFollowsVenueType(formatKey: "HY", venueType: .hybrid))
        }
        if has("TC"), venue != .virtual {
            add("formats", .temporarilyClosedNeedsVirtual)
        }
    }

    /// Whether an identifier names a time zone (the server wants an IANA name): one this platform knows by that name,
    /// and not the `GMT+0100` form of `TimeZone(secondsFromGMT:)`, which is an offset, not a zone. Asked of
    /// `TimeZone(identifier:)` rather than looked up in `knownTimeZoneIdentifiers`: that list comes from each platform's
    /// time-zone data and differs in aliases ("UTC", renamed zones such as "Europe/Kyiv") between Linux and Apple.
    static func isNamedZone(_ identifier: String) -> Bool {
        guard identifier.count <= 40, TimeZone(identifier: identifier) != nil else { return false }
        return identifier.range(of: "^GMT[+-]", options: .regularExpression) == nil
    }

    /// A lenient check of an address (the server's RFC check accepts more): one `@` with something on each
    /// side, no spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains { $0.isWhitespace }
    }

    /// The error a save with problems fails with: every field named.
    static func error(_ problems: [BMLTFieldProblem], language: String) -> BMLTError {
        var fields: [String: [String]] = [:]
        for problem in problems where fields[problem.key]?.contains(problem.message) != true {
            fields[problem.key, default: []].append(problem.message)
        }
        let count = problems.count
        let message = StringTables.plural("problems.found", count: count, [StringTables.number(count, language: language)],
                                          language: language)
        return .validationFailed(message: message, fieldErrors: fields)
    }
}
