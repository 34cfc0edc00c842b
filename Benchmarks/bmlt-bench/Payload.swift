import Foundation

/// The benchmark's inputs: the real 2.16.6 capture of every published meeting (1,512) when `../shared` is
/// beside the project, else meetings generated here in the same shape; replicated ×10 and ×100 with fresh ids.
enum Payload {
    /// The base payload's bytes and where they came from.
    static func base() -> (data: Data, source: String) {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let capture = here.deletingLastPathComponent().appendingPathComponent("shared/fixtures/rootserver/json_GetSearchResults_all.json")
        if let data = try? Data(contentsOf: capture) { return (data, "real capture json_GetSearchResults_all.json") }
        return (generated(count: 1500), "generated meetings (the capture was not found)")
    }

    /// The base payload replicated `factor` times, every copy with its own ids.
    static func replicated(_ base: Data, factor: Int) -> Data {
        guard factor > 1, let meetings = try? JSONSerialization.jsonObject(with: base) as? [[String: Any]] else { return base }
        let maxID = meetings.compactMap { Int($0["id_bigint"] as? String ?? "") }.max() ?? 0
        var copies: [[String: Any]] = []
        copies.reserveCapacity(meetings.count * factor)
        for copy in 0..<factor {
            for var meeting in meetings {
                if copy > 0, let id = Int(meeting["id_bigint"] as? String ?? "") {
                    meeting["id_bigint"] = String(id + copy * (maxID + 1))
                }
                copies.append(meeting)
            }
        }
        return try! JSONSerialization.data(withJSONObject: copies)
    }

    /// Meetings in the read interface's shape (all strings), for a clone without the capture.
    static func generated(count: Int) -> Data {
        var meetings: [[String: String]] = []
        for index in 0..<count {
            meetings.append([
                "id_bigint": String(1000 + index), "worldid_mixed": "G\(100_000 + index)", "shared_group_id_bigint": "",
                "service_body_bigint": String(1000 + index % 40), "weekday_tinyint": String(index % 7 + 1),
                "venue_type": String(index % 3 + 1), "start_time": String(format: "%02d:%02d:00", 7 + index % 15, (index * 15) % 60),
                "duration_time": index % 4 == 0 ? "01:30:00" : "01:00:00", "time_zone": "", "formats": "O,BT,WC",
                "lang_enum": "en", "longitude": String(-73.5 - Double(index % 100) / 100), "latitude": String(40.6 + Double(index % 90) / 100),
                "distance_in_km": "", "distance_in_miles": "", "email_contact": "", "meeting_name": "Meeting \(index)",
                "location_text": "Hall \(index)", "location_info": "", "location_street": "\(index) Main St.",
                "location_city_subsection": "", "location_neighborhood": "", "location_municipality": "Town \(index % 50)",
                "location_sub_province": "County", "location_province": "NY", "location_postal_code_1": "11550",
                "location_nation": "USA", "comments": "", "zone": "", "train_lines": "", "bus_lines": "",
                "contact_phone_2": "", "contact_email_2": "", "contact_name_2": "", "contact_phone_1": "",
                "contact_email_1": "", "contact_name_1": "", "phone_meeting_number": "", "virtual_meeting_link": "",
                "virtual_meeting_additional_info": "", "published": "1", "root_server_uri": "https://example.org/main_server",
                "format_shared_id_list": "3,17,33",
            ])
        }
        return try! JSONSerialization.data(withJSONObject: meetings)
    }
}
