import Foundation

/// The read-interface and administration decoders: meetings and search replies, changes and deletions, field
/// keys and values, coverage, the NAWS CSV, the legacy json.php replies and the REST admin replies.
enum FuzzReadAdminTargets {
    static let formats = [BMLTFormat(id: 17, key: "O"), BMLTFormat(id: 54, key: "VM"), BMLTFormat(id: 3, key: "BT", language: "es")]

    static func run(_ data: Data) {
        let reply = HTTPReply(data: data, statusCode: 200, headers: [:], url: nil)
        if let value = try? WireValue.parse(data, what: .request) {
            if let results = try? WireSearchResults.decode(value, serverFormats: formats) {
                for meeting in results.meetings { _ = meeting.editable().changes; _ = meeting.endTime }
            }
            if let changes = try? WireChange.decodeList(value, formats: WireFormatTable(formats)) {
                _ = WireChange.latestDeletions(changes)
                for change in changes { var draft = BMLTMeetingDraft(serviceBodyID: 1); draft.revert(toBefore: change) }
            }
            _ = try? WireFieldValues.decodeKeys(value)
            _ = try? WireFieldValues.decodeValues(value, key: "formats")
            _ = try? WireFieldValues.decodeCoverage(value)
            _ = try? WireLegacyAdmin.permissions(value)
            _ = WireLegacyAdmin.user(value)
            _ = try? WireLegacyAdmin.fieldChanges(value, what: .request)
            _ = try? WireLegacyAdmin.meetingID(value, what: .request)
            _ = try? WireLegacyAdmin.meetings(value, formats: formats, what: .request)
            if let meeting = try? WireRESTMeeting.decode(value, formats: formats, what: .request) {
                _ = WireJSONWriter.object(WireRESTMeeting.body(meeting, formats: formats, defaultDuration: 3600))
            }
            _ = try? WireRESTAuth.token(value)
            if let user = WireRESTAuth.user(value) { _ = try? WireRESTAuth.permissions(serviceBodies: value, user: user) }
            _ = try? WireRESTAuth.permissions(serviceBodies: value, user: BMLTUser(id: 1, role: .serviceBodyAdministrator))
        }
        _ = try? WireLegacyAdmin.login(reply)
        _ = try? WireLegacyAdmin.logout(reply)
        _ = try? WireLegacyAdmin.json(reply, what: .request)
        let text = String(decoding: data, as: UTF8.self)
        _ = WireCSV.rows(text)
        _ = try? WireCSV.nawsExport(text)
    }
}
