import Foundation

/// GetNAWSDump (csv only): the NAWS export of one service body and its descendants.
enum DemoNAWS {
    static let header = ["Committee", "CommitteeName", "AddDate", "AreaRegion", "ParentName", "ComemID", "ContactID", "ContactName",
                         "CompanyName", "ContactAddrID", "ContactAddress1", "ContactAddress2", "ContactCity", "ContactState",
                         "ContactZip", "ContactCountry", "ContactPhone", "MeetingID", "Room", "Closed", "WheelChr", "Day", "Time",
                         "Language1", "Language2", "Language3", "LocationId", "Place", "Address", "City", "LocBorough", "State",
                         "Zip", "Country", "Directions", "Institutional", "Format1", "Format2", "Format3", "Format4", "Format5",
                         "Delete", "LastChanged", "Longitude", "Latitude", "ContactGP", "PhoneMeetingNumber", "VirtualMeetingLink",
                         "VirtualMeetingInfo", "TimeZone", "bmlt_id", "unpublished"]

    /// One CSV line, every field quoted (quotes doubled), as the real server writes it.
    static func line(_ fields: [String]) -> String {
        fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
    }

    static func dump(_ q: DemoQuery, _ set: DemoDataSet) -> DemoResponse {
        guard let id = q.int("sb_id"), let body = set.serviceBody(id) else {
            let message = q.has("sb_id") ? "The selected sb id is invalid." : "The sb id field is required."
            return .json(.object([("message", .string(message)), ("errors", .object([("sb_id", .array([.string(message)]))]))]),
                         status: 422)
        }
        let bodies = set.withDescendants([id])
        var rows = [line(header)]
        let live = set.sortedMeetings.filter { bodies.contains($0.serviceBodyID) }
        let deleted = set.deletedMeetings.values.filter { bodies.contains($0.serviceBodyID) && !$0.worldID.isEmpty }.sorted { $0.id < $1.id }
        for m in live { rows.append(line(row(m, set, deleted: false))) }
        for m in deleted { rows.append(line(row(m, set, deleted: true))) }
        let csv = rows.joined(separator: "\n") + "\n"
        let safeName = body.name.replacingOccurrences(of: " ", with: "_")
        return DemoResponse(status: 200, headers: DemoResponse.common.merging([
            "Content-Type": "text/csv; charset=UTF-8",
            "Content-Disposition": "attachment; filename=\"BMLT_\(body.worldID)_\(safeName).csv\"",
        ]) { $1 }, body: Data(csv.utf8))
    }

    private static func row(_ m: DemoMeeting, _ set: DemoDataSet, deleted: Bool) -> [String] {
        let body = set.serviceBody(m.serviceBodyID)
        let formats = m.formatIDs.compactMap { set.format($0) }
        let worldFormats = formats.filter { ["FC1", "FC2", "FC3"].contains($0.typeCode) && !$0.worldID.isEmpty }.map(\.worldID)
        let language = formats.first { $0.typeCode == "LANG" }.map { _ in m.lang.uppercased() } ?? ""
        let closed = m.formatIDs.contains(DemoCatalog.ID.open) ? "OPEN" : "CLOSED"
        let slot: (Int) -> String = { $0 < worldFormats.count ? worldFormats[$0] : "" }
        let changed = set.changes.filter { $0.meetingID == m.id }.map(\.date).max()
        let stamp = changed.map { String(Int($0.timeIntervalSince1970)) } ?? ""
        return [m.worldID, m.name, "", body?.worldID ?? "", body?.name ?? "", "", "", "", "", "", "", "", "", "", "", "", "", "",
                "", closed, m.formatIDs.contains(DemoCatalog.ID.wheelchair) ? "TRUE" : "FALSE", DemoText.weekdayNames[m.weekday - 1],
                String(format: "%02d%02d", m.startMinutes / 60, m.startMinutes % 60), language, "", "", "",
                m[field: "location_text"], m[field: "location_street"], m[field: "location_municipality"],
                m[field: "location_neighborhood"], m[field: "location_province"], m[field: "location_postal_code_1"],
                m[field: "location_nation"], m[field: "location_info"], "FALSE", slot(0), slot(1), slot(2), slot(3), slot(4),
                deleted ? "D" : "", stamp, DemoText.coordinate(m.longitude), DemoText.coordinate(m.latitude), "",
                m[field: "phone_meeting_number"], m[field: "virtual_meeting_link"], m[field: "virtual_meeting_additional_info"],
                m.timeZone, String(m.id), m.published ? "" : "1"]
    }
}
