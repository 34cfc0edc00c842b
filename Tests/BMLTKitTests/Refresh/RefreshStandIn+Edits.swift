import Foundation
@testable import BMLTKit

/// What an administrator does between two refreshes: each meeting edit leaves a change record as the captures show
/// them (`json_data` with the meeting before and after); a format's key renamed and a service body renamed leave none.
extension RefreshStandIn {
    enum Edit: String, CaseIterable, Sendable {
        case rename, weekday, time, duration, moveIn, moveOut, publish, unpublish, delete, create, formatKey, bodyRename
    }

    /// Where the radius searches of the tests are centred (Nassau County, inside the sample data).
    static let center = (latitude: 40.72, longitude: -73.62)

    /// One random edit; returns what it did (for a failure's message).
    @discardableResult
    func randomEdit(_ choices: [Edit] = Edit.allCases) -> String {
        locked { stand in
            let edit = choices.randomElement(using: &stand.rng)!
            return "\(edit): " + stand.apply(edit)
        }
    }

    /// One given edit.
    @discardableResult
    func edit(_ edit: Edit) -> String { locked { $0.apply(edit) } }

    /// A new meeting like meeting `id` with `fields` changed, and its creation record; returns its id.
    @discardableResult
    func create(like id: Int, _ fields: [String: String]) -> Int {
        locked { stand in
            stand.clock.addTimeInterval(30)
            var meeting = stand.meetings[id]!
            let newID = (stand.meetings.keys.max() ?? 0) + 1
            meeting.fields["id_bigint"] = String(newID)
            meeting.fields.merge(fields) { $1 }
            meeting.row = Int.random(in: 0...10_000, using: &stand.rng)
            stand.meetings[newID] = meeting
            stand.changes.insert(stand.record("comdef_change_type_new", id: newID, before: nil, after: stand.jsonData(meeting)), at: 0)
            return newID
        }
    }

    /// Only the meetings `ids` held, the others gone without a record (a smaller database, before a test's first read).
    func keepOnly(_ ids: Set<Int>) {
        locked { stand in stand.meetings = stand.meetings.filter { ids.contains($0.key) } }
    }

    /// Meeting `id` with `fields` changed, and its change record.
    func change(_ id: Int, _ fields: [String: String]) {
        locked { stand in
            stand.clock.addTimeInterval(30)
            guard var meeting = stand.meetings[id] else { return }
            let before = stand.jsonData(meeting)
            meeting.fields.merge(fields) { $1 }
            stand.meetings[id] = meeting
            stand.changes.insert(stand.record("comdef_change_type_change", id: id, before: before, after: stand.jsonData(meeting)), at: 0)
        }
    }

    /// Change records that say nothing of what changed (`json_data` left out), for the meeting `id`.
    func recordWithoutJSONData(meetingID id: Int) {
        locked { stand in
            var record = stand.record("comdef_change_type_change", id: id, before: nil, after: nil)
            record["json_data"] = [Any]()
            stand.changes.insert(record, at: 0)
        }
    }

    private func apply(_ edit: Edit) -> String {
        clock.addTimeInterval(Double(Int.random(in: 5...90, using: &rng)))
        let ids = meetings.keys.sorted()
        guard let id = ids.randomElement(using: &rng), var meeting = meetings[id] else { return "no meeting" }
        let before = jsonData(meeting)
        switch edit {
        case .rename: meeting.fields["meeting_name"] = (meeting.fields["meeting_name"] ?? "") + " (renamed \(nextChangeID))"
        case .weekday: meeting.fields["weekday_tinyint"] = String(Int.random(in: 1...7, using: &rng))
        case .time:
            let times = ["07:00:00", "12:00:00", "19:30:00", "20:00:00", "10:30:00"]
            meeting.fields["start_time"] = times.randomElement(using: &rng)!
        case .duration: meeting.fields["duration_time"] = ["01:00:00", "01:30:00", "01:15:00"].randomElement(using: &rng)!
        case .moveIn, .moveOut:
            let reach = edit == .moveIn ? 0.05 : 1.5
            meeting.fields["latitude"] = String(Self.center.latitude + Double.random(in: -reach...reach, using: &rng))
            meeting.fields["longitude"] = String(Self.center.longitude + Double.random(in: -reach...reach, using: &rng))
        case .publish, .unpublish: meeting.fields["published"] = edit == .publish ? "1" : "0"
        case .delete:
            meetings[id] = nil
            changes.insert(record("comdef_change_type_delete", id: id, before: before, after: nil), at: 0)
            return "deleted \(id)"
        case .create:
            let newID = (ids.last ?? 0) + Int.random(in: 1...40, using: &rng)
            meeting.fields["id_bigint"] = String(newID)
            meeting.fields["meeting_name"] = "New meeting \(newID)"
            meeting.row = Int.random(in: 0...10_000, using: &rng)
            meetings[newID] = meeting
            changes.insert(record("comdef_change_type_new", id: newID, before: nil, after: jsonData(meeting)), at: 0)
            return "created \(newID) like \(id)"
        case .formatKey:
            // The meeting's least used format (one used by most of a list makes the refresh a whole download).
            let uses = { (format: Int) in self.meetings.values.filter { $0.formatIDs.contains(format) }.count }
            guard let formatID = meeting.formatIDs.min(by: { uses($0) < uses($1) }),
                  let index = formats.firstIndex(where: { $0.id == formatID }) else {
                return "no format"
            }
            formats[index].fields["key_string"] = formats[index].key + "x"
            formats[index].fields["name_string"] = (formats[index].fields["name_string"] ?? "") + " (renamed)"
            return "format \(formatID) renamed to \(formats[index].key) (no change record)"
        case .bodyRename:
            guard let index = bodies.firstIndex(where: { $0["id"] == meeting.fields["service_body_bigint"] }) else { return "no body" }
            bodies[index]["name"] = (bodies[index]["name"] ?? "") + " (renamed)"
            return "service body \(bodies[index]["id"] ?? "") renamed (no change record)"
        }
        meetings[id] = meeting
        changes.insert(record("comdef_change_type_change", id: id, before: before, after: jsonData(meeting)), at: 0)
        return "changed \(id)"
    }

    /// The meeting as `json_data` holds it: the main fields and the non-empty data fields, formats as an array of keys.
    func jsonData(_ meeting: Meeting) -> [String: Any] {
        var data: [String: Any] = meeting.fields.filter { !$0.value.isEmpty && !["distance_in_km", "distance_in_miles",
                                                                                   "root_server_uri", "format_shared_id_list",
                                                                                   "service_body_name"].contains($0.key) }
        data["formats"] = meeting.formatIDs.compactMap { id in formats.first { $0.id == id }?.key }
        return data
    }

    func record(_ type: String, id: Int, before: [String: Any]?, after: [String: Any]?) -> [String: Any] {
        nextChangeID += 1
        let fields = (after ?? before) ?? [:]
        var data: [String: Any] = [:]
        if let before { data["before"] = before }
        if let after { data["after"] = after }
        let body = fields["service_body_bigint"] as? String ?? ""
        return ["date_int": String(Int(clock.timeIntervalSince1970 + databaseClockOffset)), "date_string": "9:19 AM, 11/22/2026",
                "change_type": type, "change_id": String(nextChangeID), "meeting_id": String(id),
                "meeting_name": fields["meeting_name"] as? String ?? "", "user_id": "1", "user_name": "Server Administrator",
                "service_body_id": body, "service_body_name": bodies.first { $0["id"] == body }?["name"] ?? "",
                "meeting_exists": type == "comdef_change_type_delete" ? "0" : "1", "details": "The meeting was changed.",
                "json_data": data]
    }
}
