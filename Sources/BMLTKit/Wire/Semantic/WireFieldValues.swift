/// `GetFieldKeys`, `GetFieldValues` and `GetCoverageArea` replies.
enum WireFieldValues {
    static func decodeKeys(_ value: WireValue) throws(BMLTError) -> [BMLTFieldKey] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: "the field keys", detail: "expected a list of keys")
        }
        return entries.compactMap { entry in
            guard let key = entry["key"]?.string else { return nil }
            return BMLTFieldKey(key: key, description: entry["description"]?.string ?? key)
        }
    }

    /// `[{"<key>": "<value>", "ids": "1,2"}]`; the value `"NULL"` (or empty) means meetings without one.
    static func decodeValues(_ value: WireValue, key: String) throws(BMLTError) -> [BMLTFieldValue] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: "the values of \(key)", detail: "expected a list of values")
        }
        return entries.map { entry in
            let text = entry[key]?.string
            return BMLTFieldValue(value: text == "NULL" ? nil : text,
                                  meetingIDs: entry["ids"]?.list.compactMap { Int($0) } ?? [])
        }
    }

    static func decodeCoverage(_ value: WireValue) throws(BMLTError) -> BMLTCoverageArea {
        let box = value.array?.first ?? value
        guard let north = box["nw_corner_latitude"]?.double, let west = box["nw_corner_longitude"]?.double,
              let south = box["se_corner_latitude"]?.double, let east = box["se_corner_longitude"]?.double,
              (-90...90).contains(north), (-90...90).contains(south),
              (-180...180).contains(west), (-180...180).contains(east) else {
            throw .malformedResponse(what: "the coverage area", detail: "expected the corners of a box in degrees")
        }
        return BMLTCoverageArea(northWest: BMLTCoordinate(latitude: north, longitude: west),
                                southEast: BMLTCoordinate(latitude: south, longitude: east))
    }
}
