import BMLTDemoServer
import BMLTKit
import CaptureReplay
import Foundation

/// What BMLTKit itself does on a server, asked by the test with its own calls (never through `check`): the oracle the
/// check's verdicts on BMLTKit are held to. Some of them depend on library fixes made on other branches (issues 56 and
/// 57: 2.x searches by id, 2.x creations that ignore `published`, long id lists, false edit conflicts on hidden fields);
/// the check must say ✘ exactly when BMLTKit does the wrong thing, before those fixes and after them.
@MainActor
enum LibraryOracle {
    static func connection(_ root: URL?) -> BMLTConnection {
        var configuration = BMLTConfiguration()
        configuration.timeout = 900
        if root == nil { configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration() }
        return BMLTConnection(rootServerURL: root ?? BMLTDemoServer.rootURL, configuration: configuration)
    }

    /// The ids BMLTKit returns for `ids` with a weekday (as the check's "search by ids" asks).
    static func byIDs(_ root: URL?, ids: [Int], weekday: Int) async throws -> [Int] {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = ids
        criteria.weekdays = [BMLTWeekday(rawValue: weekday)!]
        return try await connection(root).meetings(matching: criteria, extent: .meetingsOnly).meetings.map(\.id)
    }

    /// Whether BMLTKit's search of the region's first 400 ids comes back whole.
    static func searchOf400IDs(_ root: URL?, rootServerIDs: [Int] = []) async -> Bool {
        let reader = connection(root)
        var all = BMLTSearchCriteria()
        all.rootServerIDs = rootServerIDs
        guard let region = try? await reader.meetings(matching: all, extent: .meetingsOnly).meetings else { return false }
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = Array(region.map(\.id).prefix(400))
        guard let found = try? await reader.meetings(matching: criteria, extent: .meetingsOnly).meetings else { return false }
        return Set(found.map(\.id)) == Set(criteria.meetingIDs)
    }

    /// Whether a draft saved as published is published (a fresh server, then deleted again).
    static func createsPublished(_ root: URL?, user: String, password: String, serviceBody: Int) async throws -> Bool {
        let writer = connection(root)
        try await writer.login(username: user, password: password)
        var draft = newMeeting(in: serviceBody, named: "oracle published", on: writer)
        draft.isPublished = true
        let saved = try await writer.saveAndWait(draft)
        try await writer.deleteMeetingAndWait(id: saved.meeting.id)
        try? await writer.logoutAndWait()
        return saved.meeting.isPublished == true
    }

    /// A new meeting's draft every generation's rules take (a place in Hempstead, NY; a venue type only where json.php
    /// is not the interface).
    static func newMeeting(in serviceBody: Int, named name: String, on writer: BMLTConnection) -> BMLTMeetingDraft {
        var draft = BMLTMeetingDraft(serviceBodyID: serviceBody)
        draft.name = name
        draft.weekday = .monday
        draft.startTime = BMLTTimeOfDay(hour: 18)
        draft.duration = 3600
        draft.coordinate = BMLTCoordinate(latitude: 40.7, longitude: -73.6)
        draft.street = "1 Main St"
        draft.municipality = "Hempstead"
        draft.province = "NY"
        if writer.serverInfo?.majorVersion ?? 3 >= 3 { draft.venueType = .inPerson }
        return draft
    }

    /// Whether an anonymous BMLTKit search by id shows an unpublished meeting.
    static func showsUnpublishedByID(_ root: URL?, id: Int) async throws -> Bool {
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [id]
        return try await connection(root).meetings(matching: criteria, extent: .meetingsOnly).meetings.contains { $0.id == id }
    }

    /// Whether an administrator's edit of a hidden field, in a draft made from the login's search of a meeting holding a
    /// value there, saves (rather than a false edit conflict: review R2).
    static func hiddenEditFromSearchSaves(_ root: URL?, user: String, password: String, serviceBody: Int) async throws -> Bool {
        let writer = connection(root)
        try await writer.login(username: user, password: password)
        var draft = newMeeting(in: serviceBody, named: "oracle hidden", on: writer)
        draft.contactName1 = "Robin"
        let made = try await writer.saveAndWait(draft).meeting
        var criteria = BMLTSearchCriteria()
        criteria.meetingIDs = [made.id]
        criteria.publishedStatus = .both
        var saves = false
        if let found = try await writer.meetings(matching: criteria, extent: .meetingsOnly).meetings.first {
            var edit = found.editable()
            edit.contactName1 = "Robin (edited)"
            do {
                _ = try await writer.saveAndWait(edit)
                saves = true
            } catch BMLTError.editConflict {
                saves = false
            }
        }
        try await writer.deleteMeetingAndWait(id: made.id)
        try? await writer.logoutAndWait()
        return saves
    }
}
