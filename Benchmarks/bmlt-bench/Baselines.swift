import Foundation

/// The decoders BMLTKit is measured against, all in one run on the same bytes.
enum Baselines {
    /// (a) `JSONSerialization` parse only.
    static func serializationOnly(_ data: Data) -> Int {
        ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.count ?? 0
    }

    /// (b) BMLTiOSLib's way: `JSONSerialization`, then one dictionary-backed node object per meeting, its
    /// values converted to strings.
    static func oldLibraryWay(_ data: Data) -> Int {
        guard let objects = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return 0 }
        var nodes: [DictionaryNode] = []
        nodes.reserveCapacity(objects.count)
        for object in objects {
            var strings: [String: String] = [:]
            for (key, value) in object {
                if let text = value as? String { strings[key] = text } else if let number = value as? NSNumber { strings[key] = number.stringValue }
            }
            nodes.append(DictionaryNode(rawMeeting: strings))
        }
        return nodes.count
    }

    /// (c) `JSONDecoder` into a plain 13-field, all-`String` struct.
    static func plainDecodable(_ data: Data) -> Int {
        (try? JSONDecoder().decode([PlainMeeting].self, from: data))?.count ?? 0
    }
}

/// BMLTiOSLib's meeting node: a class around the raw dictionary.
final class DictionaryNode {
    let rawMeeting: [String: String]
    let id: Int
    let weekday: Int
    init(rawMeeting: [String: String]) {
        self.rawMeeting = rawMeeting
        id = Int(rawMeeting["id_bigint"] ?? "") ?? 0
        weekday = Int(rawMeeting["weekday_tinyint"] ?? "") ?? 0
    }
}

/// A plain `Decodable` with 13 of the meeting's fields, all strings.
struct PlainMeeting: Decodable {
    let id_bigint: String
    let service_body_bigint: String
    let weekday_tinyint: String
    let start_time: String
    let duration_time: String
    let formats: String
    let longitude: String
    let latitude: String
    let meeting_name: String
    let location_text: String
    let location_street: String
    let location_municipality: String
    let format_shared_id_list: String?   // absent on meetings without formats (real 2.16.6 data)
}
