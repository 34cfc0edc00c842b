import Foundation
import Testing
@testable import BMLTKit

@Suite("Notification names and typed payloads")
@MainActor
struct NotificationPayloadTests {
    private func notification(_ event: BMLTEvent, connection: BMLTConnection) -> Notification {
        Notification(name: event.notificationName, object: connection, userInfo: event.userInfo)
    }

    @Test("every name is reverse-DNS under org.bmlt.kit and unique")
    func names() {
        let names = Notification.Name.bmltAllNotifications.map(\.rawValue)
        #expect(names.count == 27)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix("org.bmlt.kit.") })
    }

    @Test("each event's payload reads back through its typed accessor")
    func payloadsRoundTrip() {
        let connection = BMLTConnection(rootServerURL: URL(string: "https://example.org/main_server")!)
        let request = BMLTRequest(kind: .meetingSearch)
        let meeting = BMLTMeeting(id: 42, serviceBodyID: 7, name: "Hope", weekday: .tuesday)
        let format = BMLTFormat(id: 17, key: "O", name: "Open")
        let change = BMLTChange(id: 9, type: .changed, meetingID: 42, before: meeting, after: meeting)
        let info = BMLTServerInfo(version: "3.1.2", versionInt: 3_001_002)

        let validated = notification(.serverValidated(isValid: true, info: info, error: nil, request: request), connection: connection)
        #expect(validated.bmltIsServerValid == true)
        #expect(validated.bmltServerInfo == info)
        #expect(validated.bmltError == nil)
        #expect(validated.bmltRequest === request)
        #expect(validated.object as AnyObject? === connection)

        let search = notification(.meetingSearchResults([meeting], request: request), connection: connection)
        #expect(search.bmltMeetings == [meeting])
        #expect(search.bmltSearchDelta == nil, "a whole download carries no delta")
        #expect(search.name == .bmltMeetingSearchResults)
        let refreshed = BMLTRequest(kind: .meetingSearch)
        refreshed.searchDelta = BMLTSearchDelta(added: [42], changed: [], removed: [7])
        let update = notification(.meetingSearchResults([meeting], request: refreshed), connection: connection)
        #expect(update.bmltMeetings == [meeting], "the whole list, as before")
        #expect(update.bmltSearchDelta == BMLTSearchDelta(added: [42], changed: [], removed: [7]))

        let formats = notification(.formatSearchResults([format], isAllUsedFormats: true, request: request), connection: connection)
        #expect(formats.bmltFormats == [format])
        #expect(formats.bmltIsAllUsedFormats == true)

        #expect(notification(.changeListResults([change], request: request), connection: connection).bmltChanges == [change])

        let saved = notification(.meetingSaved(meeting, fieldChanges: [BMLTFieldChange(key: "meeting_name", before: "A", after: "Hope")], request: request), connection: connection)
        #expect(saved.bmltMeeting == meeting)
        #expect(saved.bmltMeetingID == 42)
        #expect(saved.bmltFieldChanges == [BMLTFieldChange(key: "meeting_name", before: "A", after: "Hope")])

        #expect(notification(.meetingAdded(meeting, request: request), connection: connection).bmltMeeting == meeting)
        #expect(notification(.meetingDeleted(id: 42, request: request), connection: connection).bmltMeetingID == 42)
        #expect(notification(.messageSent(true, request: request), connection: connection).bmltMessageSent == true)
        #expect(notification(.adminLoginChanged(isLoggedIn: false, request: nil), connection: connection).bmltIsLoggedIn == false)
        #expect(notification(.requestCancelled(request), connection: connection).bmltRequest === request)

        let failed = notification(.error(.timeout, request: request), connection: connection)
        #expect(failed.bmltError == .timeout)
        #expect(failed.bmltRequest === request)
        if case .error(.timeout, let carried)? = failed.bmltEvent { #expect(carried === request) } else { Issue.record("bmltEvent lost") }

        let area = BMLTCoverageArea(northWest: .init(latitude: 45, longitude: -80), southEast: .init(latitude: 40, longitude: -72))
        #expect(notification(.coverageAreaResults(area, request: request), connection: connection).bmltCoverageArea == area)
        let values = notification(.fieldValueResults(key: "weekday_tinyint", values: [BMLTFieldValue(value: "2", meetingIDs: [1, 2])], request: request), connection: connection)
        #expect(values.bmltFieldKey == "weekday_tinyint")
        #expect(values.bmltFieldValues == [BMLTFieldValue(value: "2", meetingIDs: [1, 2])])
    }

    @Test("a notification from elsewhere has no BMLTKit payload")
    func foreignNotification() {
        let note = Notification(name: .bmltError, object: nil, userInfo: ["org.bmlt.kit.error": "not an error value"])
        #expect(note.bmltError == nil)
        #expect(note.bmltMeetings == nil)
        #expect(note.bmltEvent == nil)
    }

    @Test("posted notifications reach NotificationCenter observers with the connection as object")
    func postedThroughCenter() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let center = NotificationCenter()
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(center: center))
        let names = Locked<[String]>([])
        let tokens = Notification.Name.bmltAllNotifications.map { name in
            center.addObserver(forName: name, object: connection, queue: nil) { note in
                names.withLock { $0.append(note.name.rawValue) }
            }
        }
        defer { tokens.forEach(center.removeObserver) }
        _ = try await connection.validate()
        #expect(names.withLock { $0 } == ["org.bmlt.kit.progress.didStart", "org.bmlt.kit.server.validated", "org.bmlt.kit.progress.didStop"])
    }

    @Test("every error has a sentence a person can act on, without secrets")
    func errorDescriptions() {
        let errors: [BMLTError] = [
            .invalidURL("x"), .insecureURLRefused(host: "h"), .notARootServer(reason: .noVersion),
            .unsupportedServerVersion(found: "1.0", minimum: "2.0.0"), .transport(code: -1004),
            .timeout, .httpStatus(code: 500, message: nil), .malformedResponse(what: .meetingSearch, detail: .page),
            .unauthorized(message: nil), .forbidden(message: "no"), .notFound(message: nil), .conflict(message: "in use"),
            .validationFailed(message: "bad", fieldErrors: ["name": ["required"]]), .unsupported(.serverAdministration),
            .messageRejected(.invalidSender), .cancelled, .responseTooLarge(limit: 10),
        ]
        for error in errors {
            #expect(error.localizedDescription.count > 15, "\(error)")
            #expect(error.localizedDescription.hasSuffix("."), "\(error)")
        }
        #expect(BMLTError.validationFailed(message: "bad", fieldErrors: ["name": ["required"]]).localizedDescription.contains("name: required"))
        #expect(BMLTMessageRejection.allCases.map(\.rawValue) == [0, -1, -2, -3, -4])
    }
}
