/// Semantic format objects (`GetFormats`, the `formats` of `get_used_formats`) → `BMLTFormat`.
enum WireFormat {
    static func decodeList(_ value: WireValue, what: BMLTError.Subject = .formats) throws(BMLTError) -> [BMLTFormat] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: what, detail: .unexpectedShape(expected: "[format]"))
        }
        return try WireShape.usable(entries.compactMap(decode), of: entries.count, what: what, key: "id")
    }

    /// The `formats` list a search reply carries beside its meetings: a side list, which never costs the meetings.
    /// Whatever cannot be read is left out and counted instead of failing the search — entries without a usable id or
    /// key, entries that are not objects, and a value that is not a list at all (`null`, an object keyed some other
    /// way, text), which counts as one. `{}` is the server's "nothing". What was left out is logged as a warning
    /// through the running operation's log; the meetings keep the format keys and ids they carry.
    static func decodeSideList(_ value: WireValue, what: BMLTError.Subject = .searchFormats) -> (formats: [BMLTFormat], skipped: Int) {
        guard let entries = WireShape.list(value) else {
            WireShape.droppedLog?.warning("\(what) was not a list of formats; left out (the meetings keep their format keys and ids)")
            return ([], 1)
        }
        let formats = entries.compactMap(decode)
        let skipped = entries.count - formats.count
        if skipped > 0 {
            WireShape.droppedLog?.warning("\(what) held \(skipped) entr\(skipped == 1 ? "y" : "ies") without a usable id or key; "
                                          + "left out (\(formats.count) kept; the meetings keep their format keys and ids)")
        }
        return (formats, skipped)
    }

    /// One format; `nil` when it has no usable id or key (such an entry cannot be referred to).
    static func decode(_ value: WireValue) -> BMLTFormat? {
        guard let id = value["id"]?.int, let key = value["key_string"]?.string else { return nil }
        return BMLTFormat(
            id: id,
            key: key,
            name: value["name_string"]?.string ?? "",
            description: value["description_string"]?.string ?? "",
            language: value["lang"]?.string ?? "en",
            worldID: value["world_id"]?.string,
            type: value["format_type_enum"]?.string.flatMap(formatType),
            rootServerURI: value["root_server_uri"]?.string,
            rootServerID: value["root_server_id"]?.int
        )
    }

    /// Either vocabulary (`FC1` or `MEETING_FORMAT`); unknown types kept; `nil` for empty text.
    static func formatType(_ text: String) -> BMLTFormatType? {
        let trimmed = text.trimmedSpaces
        return trimmed.isEmpty ? nil : BMLTFormatType(rawValue: trimmed)
    }
}

/// Semantic service-body objects (`GetServiceBodies`) → `BMLTServiceBody`.
enum WireServiceBody {
    static func decodeList(_ value: WireValue) throws(BMLTError) -> [BMLTServiceBody] {
        guard let entries = WireShape.objectList(value) else {
            throw .malformedResponse(what: .serviceBodies, detail: .unexpectedShape(expected: "[service body]"))
        }
        return try WireShape.usable(entries.compactMap(decode), of: entries.count, what: .serviceBodies, key: "id")
    }

    static func decode(_ value: WireValue) -> BMLTServiceBody? {
        guard let id = value["id"]?.int else { return nil }
        let parent = value["parent_id"]?.int
        return BMLTServiceBody(
            id: id,
            parentID: (parent == nil || parent == 0) ? nil : parent,
            name: value["name"]?.string ?? "",
            description: value["description"]?.string ?? "",
            type: value["type"]?.string.flatMap { BMLTServiceBodyType(rawValue: $0.uppercased()) },
            url: value["url"]?.string.flatMap(WireURL.parse),
            helpline: value["helpline"]?.string,
            worldID: value["world_id"]?.string,
            email: value["contact_email"]?.string,
            rootServerID: value["root_server_id"]?.int
        )
    }
}
