import BMLTKit
import BMLTDemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking   // URLRequest, on Linux
#endif
import Observation

/// A finder screen's model: one connection, two views, two queries — the list (today's meetings) and the map (the
/// 25 nearest) — refreshed at once, neither waiting for the other.
@MainActor
@Observable
final class FinderModel {
    let connection: BMLTConnection
    let list: BMLTMeetingQuery
    let map: BMLTMeetingQuery

    /// `now`: when "today from now" begins (a preview or a test can fix it; the rest of today's meetings at 23:00 is
    /// rightly none).
    init(connection: BMLTConnection, here: BMLTCoordinate, timeZone: TimeZone = .current, now: Date = Date()) {
        self.connection = connection
        list = BMLTMeetingQuery(connection, criteria: .fromNow(days: 1, now, in: timeZone))
        var nearest = BMLTSearchCriteria()
        nearest.location = .nearest(25, latitude: here.latitude, longitude: here.longitude)
        map = BMLTMeetingQuery(connection, criteria: nearest)
    }

    /// Whether a search is running (the progress indicator).
    var isLoading: Bool { list.isLoading || map.isLoading }

    /// What went wrong last, for the error banner: the server's validation, else either search.
    var error: BMLTError? { connection.server.lastError ?? list.lastError ?? map.lastError }

    /// The error banner's sentence in `locale`, the view's (`@Environment(\.locale)`): a preview set to Spanish, or a
    /// screen given its own locale, shows BMLTKit's Spanish table, not the process's language.
    func errorSentence(in locale: Locale) -> String? { error?.localizedDescription(for: locale) }

    /// A meeting on the map.
    struct Pin: Identifiable, Sendable {
        let id: Int
        let name: String
        let coordinate: BMLTCoordinate
    }

    /// The map's pins: the meetings that have a place.
    var pins: [Pin] {
        map.meetings.compactMap { meeting in meeting.coordinate.map { Pin(id: meeting.id, name: meeting.name, coordinate: $0) } }
    }

    /// Validates once (the server's formats name each meeting's), then both searches at once.
    func refresh() async {
        if !connection.isValid, (try? await connection.validate()) == nil { return }
        async let listed: Void = list.refresh()
        async let mapped: Void = map.refresh()
        _ = await (listed, mapped)
    }

    /// The model on the embedded demo server, for previews and tests (no network). It answers through a transport
    /// (`DemoTransport`) rather than `BMLTDemoServer.sessionConfiguration()`'s `URLProtocol`, which watchOS ignores:
    /// there a preview would reach for the network and find no `demo.bmlt.invalid`. The transport works everywhere.
    static func demo() -> FinderModel {
        let demo = BMLTConfiguration(httpTransport: DemoTransport())
        return FinderModel(connection: BMLTConnection(rootServerURL: BMLTDemoServer.rootURL, configuration: demo),
                           here: BMLTCoordinate(latitude: 45.15, longitude: -93.3))
    }
}

extension FinderModel {
    /// The model with no network at all (every request fails as a phone in airplane mode does), for the preview of the
    /// error banner and its tests.
    static func offline() -> FinderModel {
        FinderModel(connection: BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
                                               configuration: BMLTConfiguration(httpTransport: OfflineTransport())),
                    here: BMLTCoordinate(latitude: 45.15, longitude: -93.3))
    }
}

/// A transport with no network: every request fails with `URLError.notConnectedToInternet`.
struct OfflineTransport: BMLTHTTPTransport {
    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse { throw URLError(.notConnectedToInternet) }
}

/// The demo server as an HTTP transport: every request answered in the process by `BMLTDemoServer.answer(_:)`.
struct DemoTransport: BMLTHTTPTransport {
    func send(_ request: URLRequest) async throws -> BMLTHTTPResponse {
        let reply = BMLTDemoServer.answer(request)
        return BMLTHTTPResponse(statusCode: reply.statusCode, headers: reply.headers, body: reply.body, url: request.url)
    }
}
