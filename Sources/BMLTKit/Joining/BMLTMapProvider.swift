/// The maps a directions link opens; see ``BMLTMeeting/directionsURL(_:)``. Frozen until the next major release
/// (`.geo`, the RFC 5870 link, is the one any maps app may take).
/// ```swift
/// let url = meeting.directionsURL(.googleMaps)
/// ```
public enum BMLTMapProvider: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple Maps: `https://maps.apple.com/?daddr=…` (the destination; Apple's map-links parameters).
    /// ```swift
    /// let url = meeting.directionsURL(.appleMaps)
    /// ```
    case appleMaps
    /// Google Maps: `https://www.google.com/maps/dir/?api=1&destination=…` (Google's Maps URLs).
    /// ```swift
    /// let url = meeting.directionsURL(.googleMaps)
    /// ```
    case googleMaps
    /// A `geo:` URI (RFC 5870), `geo:LAT,LON?q=LAT,LON`, or for an address `geo:0,0?q=ADDRESS`; `q` is Android's
    /// addition, which readers of plain RFC 5870 ignore.
    /// ```swift
    /// let url = meeting.directionsURL(.geo)
    /// ```
    case geo
}
