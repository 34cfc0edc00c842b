import Foundation

/// The result side of `WireSearchChunks`: once the whole body has been read, the shape decisions that need the whole
/// reply, and the whole-body path for a body that did not begin with JSON.
extension WireSearchChunks {
    /// The results, once the whole body has been read: what the whole-body path gives for the same bytes.
    mutating func finish() throws(BMLTError) -> Outcome {
        switch mode {
        case .failed(let error):
            throw error
        case .leading:
            return try Self.wholeBody(Data(leading), query: query, serverFormats: serverFormats)
        case .whole:
            return try Self.wholeBody(whole, query: query, serverFormats: serverFormats)
        case .streaming:
            break
        }
        let end = consumed
        if framer != nil {
            // A value cut off by the end of the body: the scanner says how (a bare one may be whole).
            let bytes = carried
            carried = []
            framer = nil
            bytes.withUnsafeBufferPointer { completed($0, start: framedStart) }
            if case .failed(let error) = mode { throw error }
        }
        switch step {
        case .trailer: break
        case .arrayFirst, .arrayElement, .memberValue: throw endError("the JSON ends too early", at: end)
        case .arrayNext: throw endError("expected , or ] in a list", at: end)
        case .objectFirst, .objectKey: throw endError("expected a member name", at: end)
        case .colon: throw endError("expected :", at: end)
        case .objectNext: throw endError("expected , or } in an object", at: end)
        }
        let phpMessage = try trailingText()
        var results: BMLTSearchResults
        if topIsObject {
            results = try objectResults()
        } else {
            if listHasOtherThanObjects { throw .malformedResponse(what: what, detail: "expected a list of meetings") }
            results = BMLTSearchResults(meetings: listMeetings, formats: [])
            listMeetings = []
        }
        let (usable, dropped) = try WireSearchStream.usable(results, query: query, what: what)
        results = usable
        return Outcome(results: results, dropped: dropped, phpMessage: phpMessage)
    }

    private func endError(_ message: String, at offset: Int) -> BMLTError {
        .malformedResponse(what: what, detail: "the body is not valid JSON (\(message) at byte \(offset))")
    }

    /// Text after the JSON: nothing but white space is fine; PHP's notices are salvaged (their first message
    /// returned); anything else is the scanner's "unexpected text".
    private func trailingText() throws(BMLTError) -> String? {
        guard let first = trailer.firstIndex(where: { !JSONScanner.isWhitespace($0) }) else { return nil }
        let trailerStart = consumed - trailer.count
        let lastSignificant = trailer.last { !WirePHPNoise.isBlankByte($0) }
        if let lastSignificant, lastSignificant != UInt8(ascii: "]"), lastSignificant != UInt8(ascii: "}"),
           let message = WirePHPNoise.noiseMessage(before: leading, after: trailer) {
            return message
        }
        throw endError("unexpected text after the JSON value", at: trailerStart + first)
    }

    /// `{"meetings": …, "formats": …}` (or any other object) as the whole-body path reads it.
    private mutating func objectResults() throws(BMLTError) -> BMLTSearchResults {
        guard meetingsMember != nil || members["formats"] != nil else {
            // Neither member: an error object, `{}` ("nothing"), or not a search reply at all.
            let value = WireValue.object(members)
            try WireReply.refuseErrorObject(value, what: what)
            return try WireSearchResults.decode(value, serverFormats: serverFormats)
        }
        var formats: [BMLTFormat] = []
        var skipped = 0
        if let list = members["formats"] {
            (formats, skipped) = try WireSearchResults.sideFormats(list, besideMeetings: meetingsMember != nil)
        }
        let table = WireFormatTable(preferred: formats, fallback: serverFormats)
        switch meetingsMember {
        case .none:
            return BMLTSearchResults(meetings: [], formats: formats, skippedFormats: skipped)
        case .value(let value):
            return BMLTSearchResults(meetings: try WireMeeting.decodeList(value, formats: table, what: what), formats: formats,
                                     skippedFormats: skipped)
        case .streamed(var meetings, let hasOtherThanObjects):
            meetingsMember = nil
            if hasOtherThanObjects { throw .malformedResponse(what: what, detail: "expected a list of meetings") }
            for index in meetings.indices { MeetingBuilder.resolveFormats(of: &meetings[index], in: table) }
            return BMLTSearchResults(meetings: meetings, formats: formats, skippedFormats: skipped)
        }
    }

    /// The whole-body path, for bodies that do not begin with JSON: PHP's notices removed, then decoded.
    static func wholeBody(_ data: Data, query: [URLQueryItem], serverFormats: [BMLTFormat]) throws(BMLTError) -> Outcome {
        var body = data
        var message: String?
        if let salvaged = WirePHPNoise.salvage(body) {
            body = salvaged.json
            message = salvaged.firstMessage
        }
        let (results, dropped) = try WireSearchStream.decodeUsable(body, query: query, serverFormats: serverFormats)
        return Outcome(results: results, dropped: dropped, phpMessage: message)
    }
}
