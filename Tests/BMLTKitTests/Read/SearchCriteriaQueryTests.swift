import Foundation
import Testing
@testable import BMLTKit

/// `BMLTSearchCriteria` → the `GetSearchResults` query, field by field, and the encoding on the wire.
@Suite("Search criteria → query")
struct SearchCriteriaQueryTests {
    private func query(_ build: (inout BMLTSearchCriteria) -> Void, extent: BMLTSearchExtent = .meetingsOnly,
                       units: BMLTDistanceUnit = .miles) -> [String] {
        var criteria = BMLTSearchCriteria()
        build(&criteria)
        return criteria.queryItems(extent: extent, distanceUnits: units).map { "\($0.name)=\($0.value ?? "")" }
    }

    @Test("empty criteria send nothing; each extent adds its flag")
    func emptyAndExtents() {
        #expect(query { _ in }.isEmpty)
        #expect(BMLTSearchCriteria().isEmpty)
        #expect(query({ _ in }, extent: .formatsOnly) == ["get_formats_only=1"])
        #expect(query({ _ in }, extent: .meetingsAndFormats) == ["get_used_formats=1"])
    }

    @Test("ids, weekdays, venue types, services: included positive, excluded negative, as name[] arrays")
    func arrays() {
        #expect(query {
            $0.meetingIDs = [5, 7]
            $0.weekdays = [.wednesday, .monday]; $0.excludedWeekdays = [.sunday]
            $0.venueTypes = [.hybrid, .virtual]; $0.excludedVenueTypes = [.inPerson]
            $0.serviceBodyIDs = [1002]; $0.excludedServiceBodyIDs = [1003]; $0.includeChildServiceBodies = true
        } == ["meeting_ids[]=5", "meeting_ids[]=7", "weekdays[]=2", "weekdays[]=4", "weekdays[]=-1",
              "venue_types[]=2", "venue_types[]=3", "venue_types[]=-1", "services[]=1002", "services[]=-1003", "recursive=1"])
        #expect(query { $0.includeChildServiceBodies = true }.isEmpty, "recursive alone means nothing")
    }

    @Test("formats: AND by default, OR on request, exclusions negative")
    func formats() {
        #expect(query { $0.formats = .all(of: [17, 3]) } == ["formats[]=17", "formats[]=3"])
        #expect(query { $0.formats = .any(of: [17, 3]).excluding([4]) }
                == ["formats[]=17", "formats[]=3", "formats[]=-4", "formats_comparison_operator=OR"])
        #expect(query { $0.formats = .excluding([4, 5]) } == ["formats[]=-4", "formats[]=-5"])
    }

    @Test("times and durations go as hour and minute; durations in whole minutes")
    func times() {
        #expect(query {
            $0.startsAfter = .init(hour: 19, minute: 30); $0.startsBefore = .init(hour: 21)
            $0.endsBefore = .init(hour: 23, minute: 5); $0.minimumDuration = 90 * 60; $0.maximumDuration = 2 * 3600 + 29
        } == ["StartsAfterH=19", "StartsAfterM=30", "StartsBeforeH=21", "StartsBeforeM=0", "EndsBeforeH=23", "EndsBeforeM=5",
              "MinDurationH=1", "MinDurationM=30", "MaxDurationH=2", "MaxDurationM=0"])
    }

    @Test("location: miles → geo_width, km → geo_width_km, server units follow the server, nearest N is negative")
    func location() {
        #expect(query { $0.location = .init(latitude: 40.7070026, longitude: -73.6233694, radius: .miles(3)) }
                == ["lat_val=40.7070026", "long_val=-73.6233694", "geo_width=3"])
        #expect(query { $0.location = .init(latitude: 1, longitude: 2, radius: .kilometers(2.5)) }
                == ["lat_val=1", "long_val=2", "geo_width_km=2.5"])
        #expect(query({ $0.location = .init(latitude: 1, longitude: 2, radius: .serverUnits(4)) }, units: .kilometers)
                == ["lat_val=1", "long_val=2", "geo_width_km=4"])
        #expect(query({ $0.location = .init(latitude: 1, longitude: 2, radius: .serverUnits(4)) }, units: .miles)
                == ["lat_val=1", "long_val=2", "geo_width=4"])
        #expect(query { $0.location = .nearest(10, latitude: 1, longitude: 2); $0.sortByDistance = true }
                == ["lat_val=1", "long_val=2", "geo_width=-10", "sort_results_by_distance=1"])
        #expect(query { $0.location = .init(latitude: 0.00001, longitude: 2, radius: .miles(-5)) }
                == ["lat_val=0.00001", "long_val=2", "geo_width=5"], "no exponent notation; a distance is never negative")
    }

    @Test("text: plain, all words, exact, address with a radius converted to the server's unit")
    func text() {
        #expect(query { $0.text = "Hope" } == ["SearchString=Hope"])
        #expect(query { $0.text = "a b"; $0.textMatch = .allWords } == ["SearchString=a b", "SearchStringAll=1"])
        #expect(query { $0.text = "a b"; $0.textMatch = .exact } == ["SearchString=a b", "SearchStringExact=1"])
        #expect(query({ $0.text = "1 Main St"; $0.textMatch = .address(radius: .miles(10)) }, units: .kilometers)
                == ["SearchString=1 Main St", "StringSearchIsAnAddress=1", "SearchStringRadius=16.09344"])
        #expect(query { $0.text = "1 Main St"; $0.textMatch = .address(radius: .nearest(7)) }
                == ["SearchString=1 Main St", "StringSearchIsAnAddress=1", "SearchStringRadius=-7"])
        #expect(query { $0.text = "" }.isEmpty)
    }

    @Test("field match, published status, data_field_key (with the keys a meeting needs), sorting, paging, language, aggregator, raw")
    func remaining() {
        #expect(query {
            $0.fieldMatch = .init(key: "location_municipality", value: "Hempstead")
            $0.publishedStatus = .unpublished
            $0.dataFieldKeys = ["meeting_name", "id_bigint"]
            $0.sortKeys = ["location_municipality", "start_time"]; $0.sortDescending = true; $0.sortAlias = .weekdayState
            $0.page = .init(size: 0, number: -3)
            $0.language = "es"
            $0.rootServerIDs = [3]
            $0.rawParameters = [URLQueryItem(name: "new_thing", value: "x")]
        } == ["meeting_key=location_municipality", "meeting_key_value=Hempstead", "advanced_published=-1",
              "data_field_key=meeting_name,id_bigint,service_body_bigint", "sort_keys=location_municipality,start_time",
              "sort_dir=desc", "sort_key=weekday_state", "page_size=1", "page_num=1", "lang_enum=es", "root_server_ids[]=3",
              "new_thing=x"])
    }

    @Test("+, &, =, # and non-ASCII in any value survive the URL (percent-encoded, PHP reads them back)")
    func encoding() {
        var criteria = BMLTSearchCriteria()
        criteria.text = "A+B & C=D #1 Café 日本"
        criteria.fieldMatch = .init(key: "location_text", value: "St. Mary's & St. Joseph's")
        let url = RootServerURL.url(root: URL(string: "https://x.example/main_server")!, path: "client_interface/json/",
                                    query: criteria.queryItems())
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: false)!.percentEncodedQuery!
        #expect(!encoded.contains("+") && !encoded.contains(" ") && !encoded.contains("#"))
        #expect(encoded.contains("SearchString=A%2BB%20%26%20C%3DD%20%231%20Caf%C3%A9%20%E6%97%A5%E6%9C%AC"))
        let decoded = CaptureIndex.parameters(encoded)
        #expect(decoded.contains("SearchString=A+B & C=D #1 Café 日本"))
        #expect(decoded.contains("meeting_key_value=St. Mary's & St. Joseph's"))
    }

    @Test("criteria are values: a search's copy does not change when the caller's changes")
    func valueSemantics() {
        var criteria = BMLTSearchCriteria()
        criteria.weekdays = [.monday]
        let sent = criteria
        criteria.weekdays.insert(.friday)
        criteria.formats = criteria.formats.excluding([1])
        #expect(sent.weekdays == [.monday] && sent.formats == .none)
        #expect(sent != criteria)
        let data = try? JSONEncoder().encode(criteria)
        #expect(data.flatMap { try? JSONDecoder().decode(BMLTSearchCriteria.self, from: $0) } == criteria)
    }
}
