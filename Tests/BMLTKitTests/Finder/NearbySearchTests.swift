import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// The widening nearby search against a stub that answers `GetSearchResults` like a server does: the meetings within
/// `geo_width_km` of `lat_val`/`long_val`.
@Suite("Nearby meetings: widening search, distances, searches that coexist")
@MainActor
struct NearbySearchTests {
    nonisolated static let center = BMLTCoordinate(latitude: 45.0, longitude: -93.0)
    /// Meetings due north of the centre at these distances (km): one degree of latitude is 111.195 km.
    nonisolated static let distances: [Double] = [1, 3, 5, 9, 17, 40]

    nonisolated static func meetingJSON(_ index: Int, _ kilometers: Double) -> String {
        let latitude = center.latitude + kilometers / 111.19492664455873
        return #"{"id_bigint":"\#(index + 1)","meeting_name":"M\#(index + 1)","weekday_tinyint":"3","start_time":"19:00:00","#
            + #""service_body_bigint":"1","latitude":"\#(latitude)","longitude":"\#(center.longitude)"}"#
    }

    /// The stub: validation replies, and searches filtered by the requested width; the first `heldSearches`
    /// searches are answered only once `released` says so (an order of events, not a guess of how long a busy
    /// machine takes), or never when they are cancelled first.
    nonisolated static func server(heldSearches: Int = 0, released: @escaping @Sendable () -> Bool = { true }) -> StubServer {
        let searches = Locked(0)
        return StubServer { request in
            switch request.query("switcher") {
            case "GetServerInfo": return .json(SampleReplies.serverInfo3x)
            case "GetSearchResults":
                // `.nearest(n)` sends a negative `geo_width`: answered with every meeting (the client keeps the n nearest).
                let width = Double(request.query("geo_width_km") ?? "") ?? (request.query("geo_width") == nil ? 0 : 1_000)
                let number = searches.withLock { $0 += 1; return $0 }
                // The order a server may use: not by distance.
                let found = distances.enumerated().reversed().filter { $0.element <= width }.map { meetingJSON($0.offset, $0.element) }
                var response = StubServer.Response.json("[" + found.joined(separator: ",") + "]")
                if number <= heldSearches { response.heldUntil = released }
                return response
            default: return .json("[]")
            }
        }
    }

    @Test("widens from 2 km by doubling until it holds enough: 2, 4, 8, 16 km for four meetings, nearest first")
    func widensUntilEnough() async throws {
        let stub = Self.server()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let meetings = try await connection.meetings(near: Self.center, atLeast: 4, maximumRadius: Measurement(value: 100, unit: .kilometers))
        let widths = stub.requests.compactMap { $0.query("geo_width_km") }.compactMap(Double.init)
        #expect(widths == [2, 4, 8, 16])
        #expect(meetings.map(\.id) == [1, 2, 3, 4], "nearest first, whatever order the server sent")
        let kilometers = meetings.compactMap { $0.distance(from: Self.center)?.value }
        #expect(zip(kilometers, Self.distances).allSatisfy { abs($0 - $1) < 0.01 })
        #expect(connection.search.meetings.map(\.id) == [1, 2, 3, 4])
        #expect(connection.search.criteria?.location?.radius == .kilometers(16))
    }

    @Test("stops at the maximum radius with what it holds; the radius never passes it")
    func stopsAtTheMaximum() async throws {
        let stub = Self.server()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        let meetings = try await connection.meetings(near: Self.center, atLeast: 50, maximumRadius: Measurement(value: 6, unit: .miles))
        let widths = stub.requests.compactMap { $0.query("geo_width_km") }.compactMap(Double.init)
        // 6 miles is 9.656 km: 2, 4, 8, then 9.656 (not 16).
        #expect(widths.count == 4 && widths.prefix(3) == [2, 4, 8] && abs(widths[3] - 9.656) < 0.001, "\(widths)")
        #expect(meetings.map(\.id) == [1, 2, 3, 4], "1, 3, 5 and 9 km are within 6 miles; 17 km is not")
    }

    @Test("nearby searches coexist: the async form and queries cancel nothing; a searchNearby replaces only the previous searchNearby")
    func nearbySearchesCoexist() async throws {
        // The first search's reply is held until the second searchNearby has started: it can only end by that
        // search replacing it (cancelled, never delivered), whatever the time either takes.
        let secondStarted = Locked(false)
        let stub = Self.server(heldSearches: 1, released: { secondStarted.withLock { $0 } })
        let recorder = EventRecorder()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder]))
        _ = try await connection.validate()
        let first = connection.searchNearby(Self.center, atLeast: 6, maximumRadius: Measurement(value: 100, unit: .kilometers))
        await waitUntil("the nearby search's first step is at the server") { stub.requests.contains { $0.query("switcher") == "GetSearchResults" } }   // its first step is at the server
        let meetings = try await connection.meetings(near: Self.center, atLeast: 1, maximumRadius: Measurement(value: 100, unit: .kilometers))
        #expect(meetings.map(\.id) == [1])
        // Two views' nearby queries, refreshed at once beside it.
        let map = BMLTMeetingQuery(connection, nearby: .init(Self.center, atLeast: 4, maximumRadius: Measurement(value: 100, unit: .kilometers)))
        var narrowed = BMLTSearchCriteria()
        narrowed.weekdays = [.tuesday]
        let list = BMLTMeetingQuery(connection, criteria: narrowed,
                                    nearby: .init(Self.center, atLeast: 2, maximumRadius: Measurement(value: 100, unit: .kilometers)))
        async let mapDone: Void = map.refresh()
        async let listDone: Void = list.refresh()
        _ = await (mapDone, listDone)
        #expect(map.meetings.map(\.id) == [1, 2, 3, 4] && map.isComplete && map.lastError == nil, "nearest first")
        #expect(list.meetings.map(\.id) == [1, 2] && list.isComplete && list.lastError == nil)
        #expect(stub.requests.contains { $0.query("weekdays[]") == "3" }, "the query's criteria narrow every step")
        #expect(!first.isCancelled, "neither the async form nor a query cancels a running nearby search")
        #expect(connection.search.meetings.map(\.id) == [1], "queries leave the store alone")
        // The next fire-and-forget nearby search replaces the previous one (both fill the one store).
        let second = connection.searchNearby(Self.center, atLeast: 2, maximumRadius: Measurement(value: 100, unit: .kilometers))
        secondStarted.withLock { $0 = true }
        #expect(first.isCancelled && !second.isCancelled)
        await waitUntil("nothing is in flight") { connection.inFlightRequests.isEmpty }
        let cancelled = recorder.all.compactMap { if case .requestCancelled(let request) = $0 { request } else { nil } }
        #expect(cancelled == [first])
        #expect(connection.search.meetings.map(\.id) == [1, 2])
        #expect(recorder.count(.bmltMeetingSearchResults) == 4)
    }

    @Test(".nearest(n) in a query: the n nearest, as meetings(matching:) gives them")
    func nearestInAQuery() async throws {
        let stub = Self.server()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration())
        _ = try await connection.validate()
        var criteria = BMLTSearchCriteria()
        criteria.location = .init(latitude: Self.center.latitude, longitude: Self.center.longitude, radius: .kilometers(50))
        let query = BMLTMeetingQuery(connection, criteria: criteria)
        await query.refresh()
        let whole = try await connection.meetings(matching: criteria).meetings
        #expect(query.meetings == whole && whole.count == 6 && query.isComplete)
        criteria.location?.radius = .nearest(3)
        query.criteria = criteria
        await query.refresh()
        #expect(Set(query.meetings.map(\.id)) == [1, 2, 3] && query.isComplete && query.lastError == nil)
        let nearest = try await connection.meetings(matching: criteria).meetings
        #expect(query.meetings == nearest)
    }

    @Test("distance(from:) is the great-circle distance; sortedByDistance puts meetings without coordinates last")
    func distances() {
        var paris = BMLTMeeting(id: 1, serviceBodyID: 1)
        paris.coordinate = BMLTCoordinate(latitude: 48.8566, longitude: 2.3522)
        let london = BMLTCoordinate(latitude: 51.5074, longitude: -0.1278)
        let kilometers = paris.distance(from: london)!.value
        #expect(abs(kilometers - 343.5) < 1, "Paris–London is about 343.5 km: \(kilometers)")
        #expect(abs(paris.distance(from: london)!.converted(to: .miles).value - 213.4) < 1)
        let nowhere = BMLTMeeting(id: 2, serviceBodyID: 1)
        #expect(nowhere.distance(from: london) == nil)
        var near = BMLTMeeting(id: 3, serviceBodyID: 1)
        near.coordinate = BMLTCoordinate(latitude: 51.5, longitude: -0.12)
        #expect([nowhere, paris, near].sortedByDistance(from: london).map(\.id) == [3, 1, 2])
    }
}
