import Foundation

/// The builder's fast path for the streaming reader: numeric fields straight from their bytes, and the values
/// repeated from meeting to meeting looked up by their raw bytes in the decoding context.
extension MeetingBuilder {
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
}
