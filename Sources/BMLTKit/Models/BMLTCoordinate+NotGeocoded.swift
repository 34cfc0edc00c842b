import Foundation

extension BMLTCoordinate {
    /// Whether this is latitude 0, longitude 0: what root servers write for a meeting that was never geocoded.
    /// BMLTKit decodes it (and empty latitude or longitude) as no coordinate at all, and distance sorts, nearest
    /// searches, duplicate detection and exports treat a 0,0 coordinate a host made itself the same way.
    /// ```swift
    /// if let point = meeting.coordinate, !point.isNotGeocoded { print(point.latitude, point.longitude) }
    /// ```
    public var isNotGeocoded: Bool { latitude == 0 && longitude == 0 }
}

extension BMLTMeeting {
    /// The coordinate when it is a real place (not `nil`, not 0,0).
    var placedCoordinate: BMLTCoordinate? {
        guard let coordinate, !coordinate.isNotGeocoded else { return nil }
        return coordinate
    }
}
