import Foundation

extension BMLTFieldProblem {
    /// Why a field would be refused, for writing your own sentence (`message` is BMLTKit's, in the connection's
    /// language: `BMLTConfiguration.locale`, else ``BMLTLocalization/defaultLocale``). Frozen until the next major
    /// release: a problem a 2.x release has no case for comes with `reason == nil` and its `message`.
    /// ```swift
    /// for problem in connection.problems(in: draft) {
    ///     if case .tooLong(let maximum)? = problem.reason { print(problem.key, "at most", maximum) }
    /// }
    /// ```
    public enum Reason: Sendable, Hashable, Codable {
        /// The field is required (`key` says which).
        case required
        /// The server has no service body with this id.
        case unknownServiceBody(id: Int)
        /// A duration of 24 hours or more (the server reads it as H:i).
        case durationTooLong
        /// A latitude outside -90…90.
        case latitudeOutOfRange
        /// A longitude outside -180…180.
        case longitudeOutOfRange
        /// Longer than the server takes: its limit in characters.
        case tooLong(maximum: Int)
        /// Not an IANA time zone name: the identifier given.
        case invalidTimeZone(String)
        /// Not a valid email address.
        case invalidEmail
        /// Format ids the server does not have.
        case unknownFormats([Int])
        /// The VM or HY format, which follows from the venue type (`virtual` or `hybrid`): the format's key.
        case formatFollowsVenueType(formatKey: String, venueType: BMLTVenueType)
        /// The TC format (temporarily closed, meeting virtually) without the venue type virtual.
        case temporarilyClosedNeedsVirtual
        /// A meeting of this venue type needs a street address.
        case streetRequired(BMLTVenueType)
        /// A meeting of this venue type needs a city and state/province, or a postal code.
        case locationRequired(BMLTVenueType)
        /// A meeting of this venue type needs a virtual meeting link or a phone number.
        case linkOrPhoneRequired(BMLTVenueType)
        /// The legacy administration interface (`json.php`) of this server version cannot take the field.
        case legacyInterfaceCannotSet(serverVersion: String)
    }

    /// A problem with `key` for `reason`, its message in `language`.
    init(key: String, reason: Reason, language: String) {
        self.init(key: key, message: reason.sentence(key: key, in: language))
        self.reason = reason
    }
}

extension BMLTFieldProblem.Reason {
    /// The sentence for a problem with the field `key`.
    func sentence(key: String, in language: String) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        func number(_ value: Int) -> String { StringTables.number(value, language: language) }
        func venue(_ type: BMLTVenueType, _ inPerson: String, _ virtual: String, _ hybrid: String) -> String {
            text(type == .virtual ? virtual : type == .hybrid ? hybrid : inPerson)
        }
        switch self {
        case .required:
            switch key {
            case "service_body_bigint": return text("problem.required.service_body_bigint")
            case "weekday_tinyint": return text("problem.required.weekday_tinyint")
            case "start_time": return text("problem.required.start_time")
            case "latitude": return text("problem.required.latitude")
            case "longitude": return text("problem.required.longitude")
            case "meeting_name": return text("problem.required.meeting_name")
            default: return text("problem.required", key)
            }
        case .unknownServiceBody(let id): return text("problem.unknownServiceBody", String(id))
        case .durationTooLong: return text("problem.durationTooLong")
        case .latitudeOutOfRange: return text("problem.latitudeOutOfRange")
        case .longitudeOutOfRange: return text("problem.longitudeOutOfRange")
        case .tooLong(let maximum):
            switch key {
            case "meeting_name": return text("problem.tooLong.meeting_name", number(maximum))
            case "email_contact": return text("problem.tooLong.email_contact", number(maximum))
            case "worldid_mixed": return text("problem.tooLong.worldid_mixed", number(maximum))
            default: return text("problem.tooLong", key, number(maximum))
            }
        case .invalidTimeZone(let identifier): return text("problem.invalidTimeZone", identifier)
        case .invalidEmail: return text("problem.invalidEmail")
        case .unknownFormats(let ids):
            return StringTables.plural("problem.unknownFormats", count: ids.count,
                                       [ListFormatting.join(ids.map(String.init), language: language)], language: language)
        case .formatFollowsVenueType(let format, let type):
            return StringTables.text(type == .hybrid ? "problem.formatFollowsVenueType.hybrid" : "problem.formatFollowsVenueType.virtual",
                                     [format], language: language)
        case .temporarilyClosedNeedsVirtual: return text("problem.temporarilyClosedNeedsVirtual")
        case .streetRequired(let type):
            return venue(type, "problem.streetRequired.inPerson", "problem.streetRequired.inPerson", "problem.streetRequired.hybrid")
        case .locationRequired(let type):
            return venue(type, "problem.locationRequired.inPerson", "problem.locationRequired.inPerson", "problem.locationRequired.hybrid")
        case .linkOrPhoneRequired(let type):
            return venue(type, "problem.linkOrPhoneRequired.virtual", "problem.linkOrPhoneRequired.virtual",
                         "problem.linkOrPhoneRequired.hybrid")
        case .legacyInterfaceCannotSet(let version):
            switch key {
            case "venue_type": return text("problem.legacy.venue_type", version)
            case "shared_group_id_bigint": return text("problem.legacy.shared_group_id_bigint", version)
            case "email_contact": return text("problem.legacy.email_contact", version)
            default: return text("problem.legacy.admin_notes", version)
            }
        }
    }
}
