import Foundation

extension BMLTMeeting {
    /// The address on one line: street, municipality, province and postal code, nation, the usual order, with
    /// empty parts left out (and white space trimmed); `nil` when every part is empty.
    /// ```swift
    /// print(meeting.addressText ?? "no address")   // 123 Main St, Springfield, IL 62701, USA
    /// ```
    public var addressText: String? {
        func clean(_ text: String?) -> String? {
            // A word that starts with a combining mark would fuse with the space before it: the mark is dropped.
            let words = (text ?? "").split(whereSeparator: \.isWhitespace).map { word in
                String(String.UnicodeScalarView(word.unicodeScalars.drop { scalar in
                    [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
                }))
            }.filter { !$0.isEmpty }
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
        let region = [clean(province), clean(postalCode)].compactMap { $0 }.joined(separator: " ")
        let parts = [clean(street), clean(municipality), region.isEmpty ? nil : region, clean(nation)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The meeting's coordinate when it has a usable one: finite, in range, and not 0,0 (what servers store for
    /// "none").
    var directionsCoordinate: BMLTCoordinate? {
        guard let coordinate, coordinate.latitude.isFinite, coordinate.longitude.isFinite,
              abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180,
              coordinate.latitude != 0 || coordinate.longitude != 0 else { return nil }
        return coordinate
    }

    /// A link that opens directions to the meeting in `provider`'s maps: to its coordinate when it has one, else
    /// to its address (``addressText``); `nil` for a virtual-only meeting (`venueType == .virtual`) and for one
    /// with neither.
    /// ```swift
    /// meeting.directionsURL(.appleMaps)    // https://maps.apple.com/?daddr=44.977753,-93.265011
    /// meeting.directionsURL(.googleMaps)   // https://www.google.com/maps/dir/?api=1&destination=44.977753%2C-93.265011
    /// meeting.directionsURL(.geo)          // geo:44.977753,-93.265011?q=44.977753,-93.265011
    /// ```
    public func directionsURL(_ provider: BMLTMapProvider) -> URL? {
        guard venueType != .virtual else { return nil }
        let point = directionsCoordinate.map { Self.degrees($0.latitude) + "," + Self.degrees($0.longitude) }
        let destination: String
        if let point {
            destination = point
        } else if let address = addressText {
            destination = address
        } else {
            return nil
        }
        let value = JoinAppLinks.queryValue(destination)
        switch provider {
        case .appleMaps:
            return URL(string: "https://maps.apple.com/?daddr=" + (point ?? value))
        case .googleMaps:
            return URL(string: "https://www.google.com/maps/dir/?api=1&destination=" + value)
        case .geo:
            if let point { return URL(string: "geo:\(point)?q=\(point)") }
            return URL(string: "geo:0,0?q=" + value)
        }
    }

    /// Decimal degrees with at most six decimals (about 10 cm), no exponent, trailing zeros dropped.
    static func degrees(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
