/// `GetFieldKeys`, `GetFieldValues` and `GetCoverageArea` replies.
enum WireFieldValues {
    static func decodeKeys(_ value: WireValue) throws(BMLTError) -> [BMLTFieldKey] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: .fieldKeys, detail: .unexpectedShape(expected: "[{key}]"))
        }
        return entries.compactMap { entry in
            guard let key = entry["key"]?.string else { return nil }
            return BMLTFieldKey(key: key, description: entry["description"]?.string ?? key)
        }
    }

    /// `[{"<key>": "<value>", "ids": "1,2"}]`; the value `"NULL"` (or empty) means meetings without one.
    static func decodeValues(_ value: WireValue, key: String) throws(BMLTError) -> [BMLTFieldValue] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: .fieldValues(key: key), detail: .unexpectedShape(expected: "[value]"))
        }
        // Values stored as `prompt#@-@#value` (databases from 2.x/3.x) give their value, the prompt kept; entries
        // whose values are then the same are one entry, with the meetings of both.
        var values: [BMLTFieldValue] = []
        var index: [String?: Int] = [:]
        for entry in entries {
            var text = entry[key]?.string
            if text == "NULL" { text = nil }
            let prompted = text.flatMap(BMLTPromptedValue.init(parsing:))
            if let prompted { text = prompted.value.isEmpty ? nil : prompted.value }
            let ids = entry["ids"]?.list.compactMap { Int($0) } ?? []
            if let at = index[text] {
                values[at].meetingIDs += ids
                if values[at].prompt == nil { values[at].prompt = prompted?.prompt }
            } else {
                index[text] = values.count
                var value = BMLTFieldValue(value: text, meetingIDs: ids)
                value.prompt = prompted?.prompt
                values.append(value)
            }
        }
        return values
    }

    static func decodeCoverage(_ value: WireValue) throws(BMLTError) -> BMLTCoverageArea {
        let box = value.array?.first ?? value
        guard let north = box["nw_corner_latitude"]?.double, let west = box["nw_corner_longitude"]?.double,
              let south = box["se_corner_latitude"]?.double, let east = box["se_corner_longitude"]?.double,
              (-90...90).contains(north), (-90...90).contains(south),
              (-180...180).contains(west), (-180...180).contains(east) else {
            throw .malformedResponse(what: .coverageArea, detail: .unexpectedShape(expected: "[north, east, south, west] (degrees)"))
        }
        return BMLTCoverageArea(northWest: BMLTCoordinate(latitude: north, longitude: west),
                                southEast: BMLTCoordinate(latitude: south, longitude: east))
    }
}
