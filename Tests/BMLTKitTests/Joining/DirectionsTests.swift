import Foundation
import Testing
@testable import BMLTKit

/// Directions links (Apple Maps, Google Maps, `geo:`) and the one-line address.
@Suite("Joining: directions and address")
struct DirectionsTests {
    static func meeting(_ venue: BMLTVenueType?, _ coordinate: BMLTCoordinate? = nil, street: String? = nil, town: String? = nil,
                        province: String? = nil, postalCode: String? = nil, nation: String? = nil) -> BMLTMeeting {
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 2, name: "Hope")
        meeting.venueType = venue
        meeting.coordinate = coordinate
        meeting.street = street; meeting.municipality = town; meeting.province = province
        meeting.postalCode = postalCode; meeting.nation = nation
        return meeting
    }

    @Test("a coordinate, when the meeting has one, for each provider")
    func coordinate() {
        let m = Self.meeting(.inPerson, BMLTCoordinate(latitude: 44.977753, longitude: -93.265011), street: "1 Main St")
        #expect(m.directionsURL(.appleMaps)?.absoluteString == "https://maps.apple.com/?daddr=44.977753,-93.265011")
        #expect(m.directionsURL(.googleMaps)?.absoluteString == "https://www.google.com/maps/dir/?api=1&destination=44.977753%2C-93.265011")
        #expect(m.directionsURL(.geo)?.absoluteString == "geo:44.977753,-93.265011?q=44.977753,-93.265011")
        let short = Self.meeting(nil, BMLTCoordinate(latitude: 40.7, longitude: -73.9))
        #expect(short.directionsURL(.appleMaps)?.absoluteString == "https://maps.apple.com/?daddr=40.7,-73.9")
        let rounded = Self.meeting(.hybrid, BMLTCoordinate(latitude: -33.86785123456, longitude: 151.2099))
        #expect(rounded.directionsURL(.geo)?.absoluteString == "geo:-33.867851,151.2099?q=-33.867851,151.2099")
    }

    @Test("the address when there is no coordinate, or the coordinate is 0,0 or impossible")
    func address() {
        let expected = "130%20Jerusalem%20Avenue%2C%20Hicksville%2C%20NY%2011801%2C%20USA"
        for coordinate in [nil, BMLTCoordinate(latitude: 0, longitude: 0), BMLTCoordinate(latitude: .nan, longitude: 1),
                           BMLTCoordinate(latitude: 91, longitude: 10)] {
            let m = Self.meeting(.hybrid, coordinate, street: "130 Jerusalem Avenue", town: "Hicksville", province: "NY",
                                 postalCode: "11801", nation: "USA")
            #expect(m.addressText == "130 Jerusalem Avenue, Hicksville, NY 11801, USA")
            #expect(m.directionsURL(.appleMaps)?.absoluteString == "https://maps.apple.com/?daddr=" + expected)
            #expect(m.directionsURL(.googleMaps)?.absoluteString == "https://www.google.com/maps/dir/?api=1&destination=" + expected)
            #expect(m.directionsURL(.geo)?.absoluteString == "geo:0,0?q=" + expected)
        }
        let spain = Self.meeting(.inPerson, street: "Plaza de España 1", town: "Madrid")
        #expect(spain.directionsURL(.googleMaps)?.absoluteString
                == "https://www.google.com/maps/dir/?api=1&destination=Plaza%20de%20Espa%C3%B1a%201%2C%20Madrid")
    }

    @Test("a virtual-only meeting, and one with neither coordinate nor address, have no directions")
    func none() {
        let virtual = Self.meeting(.virtual, BMLTCoordinate(latitude: 44.9, longitude: -93.2), street: "1 Main St")
        let empty = Self.meeting(.inPerson, street: "  ")
        for provider in BMLTMapProvider.allCases {
            #expect(virtual.directionsURL(provider) == nil)
            #expect(empty.directionsURL(provider) == nil)
        }
    }

    @Test("addressText: the usual order, empty parts and extra white space left out", arguments: [
        (["1 Main St", "Springfield", "IL", "62701", "USA"], "1 Main St, Springfield, IL 62701, USA"),
        (["  1  Main St ", "", "IL", "", "USA"], "1 Main St, IL, USA"),
        (["", "Springfield", "", "62701", ""], "Springfield, 62701"),
        (["", "", "", "", "Demoland"], "Demoland"),
        (["", " ", "\n", "", ""], nil),
    ] as [([String], String?)])
    func addressText(parts: [String], expected: String?) {
        let m = Self.meeting(.inPerson, street: parts[0], town: parts[1], province: parts[2], postalCode: parts[3], nation: parts[4])
        #expect(m.addressText == expected)
    }
}
