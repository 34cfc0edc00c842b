import Foundation

/// Decodes a `GetSearchResults` body while it arrives, piece by piece as the HTTP stack delivers it: each meeting is
/// decoded as soon as its last byte is in, and the body is never held whole (only the meeting that spans two pieces
/// is copied, so memory is the decoded meetings plus about one meeting's bytes).
///
/// It gives exactly what the whole-body path gives (PHP notices salvaged by `WirePHPNoise`, then
/// `WireSearchStream.decodeUsable`): the same meetings and formats, and the same errors with the same byte offsets.
/// `SearchChunkEquivalenceTests` and the fuzzer check that with pieces cut at every byte. How:
/// - The structure around the meetings (`[`, `,`, `]`, and `{"meetings": …, "formats": …}`) is read here with the
///   scanner's own rules and messages; each element and member value is framed by `JSONFramer` and then decoded
///   whole by `JSONScanner` (meetings by the same `MeetingReader` as the whole-body path), with offsets counted from
///   the start of the body.
/// - A body that does not begin with `[` or `{` (an HTML page, PHP notices, an empty body) is kept whole and given to
///   the whole-body path at the end: such replies are small, and that path names their errors.
/// - Shape decisions that need the whole reply (a list holding something other than meetings, an error object, text
///   after the JSON that may be PHP's notices) are taken at the end, as the whole-body path takes them.
///
/// Not thread-safe: one writer at a time (the transport's delivery queue), then `finish()`. The state `finish()` reads
/// is internal, not private, for the result side in WireSearchChunks+Result.swift; nothing else touches it.
struct WireSearchChunks {
    /// What the decoding gave.
    struct Outcome: Sendable, Equatable {
        /// The usable meetings and the formats.
        var results: BMLTSearchResults
        /// Meetings left out for lacking a usable id.
        var dropped: Int
        /// The first PHP message printed around the JSON (the server's misconfiguration, for the log), if any.
        var phpMessage: String?
    }

    let query: [URLQueryItem]
    let serverFormats: [BMLTFormat]
    let what = "the meeting search results"

    enum Mode {
        /// No byte but white space (and a byte order mark at the start) yet.
        case leading
        /// Decoding as the bytes arrive.
        case streaming
        /// Kept whole for the whole-body path (the body does not begin with `[` or `{`).
        case whole
        /// Broken JSON: the error, final (later bytes cannot change it).
        case failed(BMLTError)
    }

    /// Where the structure is: what the next significant byte may be.
    enum Step {
        case arrayFirst, arrayElement, arrayNext
        case objectFirst, objectKey, colon, memberValue, objectNext
        /// After the top-level value: the bytes are kept for the end (white space, or PHP's notices).
        case trailer
    }

    /// What a framed value is for.
    private enum Purpose {
        case listElement, key, memberValue
    }

    var mode = Mode.leading
    var step = Step.arrayFirst
    var leading: [UInt8] = []
    var whole = Data()
    var trailer: [UInt8] = []
    /// Bytes of the body before the piece being read.
    var consumed = 0

    // The value being framed, when it spans pieces.
    var framer: JSONFramer?
    var framedStart = 0
    private var framedPurpose = Purpose.listElement
    var carried: [UInt8] = []

    // What has been read.
    var topIsObject = false
    /// The list being streamed: the top-level list, or the value of a `meetings` member.
    private var inMeetingsMember = false
    var listMeetings: [BMLTMeeting] = []
    var listHasOtherThanObjects = false
    private var reader = WireSearchStream.MeetingReader()
    private var context: MeetingDecodingContext
    private let expectedLength: Int
    // The top-level object's members: `meetings` (streamed, or any other value), `formats` and the rest.
    enum MeetingsMember { case streamed([BMLTMeeting], hasOtherThanObjects: Bool), value(WireValue) }
    var meetingsMember: MeetingsMember?
    var members: [String: WireValue] = [:]
    private var pendingKey: (span: JSONScanner.StringSpan, bytes: [UInt8], start: Int)?
    private var currentKey = ""

    /// A decoder for the reply to a search made with `query` (its `data_field_key` decides whether id-less meetings
    /// are kept), resolving formats against `serverFormats` when the reply has none of its own. `expectedLength` (the
    /// `Content-Length`, when known) sizes the meeting list once instead of growing it.
    init(query: [URLQueryItem], serverFormats: [BMLTFormat], expectedLength: Int? = nil) {
        self.query = query
        self.serverFormats = serverFormats
        context = MeetingDecodingContext(formats: WireFormatTable(serverFormats))
        self.expectedLength = max(0, expectedLength ?? 0)
    }

    /// Meetings decoded so far (of the list being read).
    var meetingsDecoded: Int { listMeetings.count }

    /// Meetings of the streamed list handed out by `takeDecoded` so far (usable or not).
    private var handedOut = 0

    /// The meetings of the list being read decoded since the last call, in the reply's order, without those `finish()`
    /// will leave out for lacking a usable id: the batches of `meetingBatches(matching:)`. Nothing once the body is
    /// known to be broken, or not a list of meetings. A `meetings` member's meetings are decoded before the formats the
    /// reply carries after them: the copies handed out are resolved against `table` (the server's formats), as the
    /// meetings of a top-level list were while decoded; with no server formats to resolve against, they are held for
    /// `finish()`. `finish()` still gives every meeting.
    mutating func takeDecoded(resolvingAgainst table: WireFormatTable) -> [BMLTMeeting] {
        guard case .streaming = mode, !listHasOtherThanObjects else { return [] }
        let all: [BMLTMeeting]
        let resolve: Bool
        if case .streamed(let meetings, let hasOtherThanObjects)? = meetingsMember {
            guard !hasOtherThanObjects else { return [] }
            (all, resolve) = (meetings, true)
        } else if inMeetingsMember {
            (all, resolve) = (listMeetings, true)
        } else if !topIsObject {
            (all, resolve) = (listMeetings, false)
        } else {
            return []
        }
        guard handedOut < all.count else { return [] }
        // Nothing to resolve against before the reply's own formats: the meetings wait for them (the end), so that no
        // batch differs from the results (a connection not validated yet streams a list reply only).
        if resolve && table.isEmpty { return [] }
        let keepsIDless = WireSearchStream.keepsMeetingsWithoutIDs(query)
        var batch = all[handedOut...].filter { keepsIDless || $0.id > 0 }
        handedOut = all.count
        if resolve { for index in batch.indices { MeetingBuilder.resolveFormats(of: &batch[index], in: table) } }
        return batch
    }

    /// Body bytes held now: the value that spans pieces, text after the JSON, or the whole body when it does not begin
    /// with JSON.
    var bytesHeld: Int { carried.count + trailer.count + whole.count + leading.count }

    // MARK: Input

    /// Reads the next piece of the body.
    mutating func consume(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let base = piece.baseAddress, !piece.isEmpty else { return }
        defer { consumed += piece.count }
        switch mode {
        case .failed: return
        case .whole: whole.append(base, count: piece.count); return
        case .leading, .streaming: break
        }
        var index = 0
        if case .leading = mode {
            index = lead(piece)
            guard case .streaming = mode else { return }
        }
        if framer != nil {
            guard let end = framer!.scan(piece, from: 0) else {
                carried.append(contentsOf: piece)
                return
            }
            carried.append(contentsOf: UnsafeBufferPointer(rebasing: piece[0..<end]))
            let bytes = carried
            carried = []
            framer = nil
            bytes.withUnsafeBufferPointer { completed($0, start: framedStart) }
            index = end
        }
        structure(piece, from: index)
    }

    /// Reads `Data` piece by piece (for bodies that arrive as `Data`).
    mutating func consume(_ data: Data) {
        data.withUnsafeBytes { raw in consume(raw.bindMemory(to: UInt8.self)) }
    }

    /// Before the first significant byte: decides between streaming (`[` or `{` after white space, and a byte order
    /// mark at the very start, which the scanner skips) and the whole-body path. Returns where the structure starts.
    private mutating func lead(_ piece: UnsafeBufferPointer<UInt8>) -> Int {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for index in piece.indices {
            let byte = piece[index]
            let offset = consumed + index
            if offset < 3, leading.count == offset, leading.elementsEqual(bom.prefix(offset)), byte == bom[offset] {
                leading.append(byte)
                continue
            }
            let partialBOM = (1...2).contains(leading.count) && leading.elementsEqual(bom.prefix(leading.count))
            switch byte {
            case _ where partialBOM:
                break   // a byte order mark cut short: not JSON
            case _ where JSONScanner.isWhitespace(byte):
                leading.append(byte)
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                mode = .streaming
                topIsObject = byte == UInt8(ascii: "{")
                step = topIsObject ? .objectFirst : .arrayFirst
                return index + 1
            default:
                break
            }
            mode = .whole
            whole = Data(leading)
            whole.append(contentsOf: UnsafeBufferPointer(rebasing: piece[index...]))
            return piece.count
        }
        return piece.count
    }

    /// Reads the structure from `index` on, framing values and decoding those that end in this piece in place.
    private mutating func structure(_ piece: UnsafeBufferPointer<UInt8>, from start: Int) {
        var index = start
        while index < piece.count {
            guard case .streaming = mode else { return }
            if step == .trailer {
                trailer.append(contentsOf: UnsafeBufferPointer(rebasing: piece[index...]))
                return
            }
            let byte = piece[index]
            if JSONScanner.isWhitespace(byte) {
                index += 1
                continue
            }
            let offset = consumed + index
            switch step {
            case .arrayFirst where byte == UInt8(ascii: "]"):
                index += 1
                closeList()
            case .arrayFirst, .arrayElement:
                index = frame(piece, at: index, for: .listElement)
            case .arrayNext:
                if byte == UInt8(ascii: ",") { step = .arrayElement; index += 1 }
                else if byte == UInt8(ascii: "]") { index += 1; closeList() }
                else { return fail("expected , or ] in a list", at: offset) }
            case .objectFirst where byte == UInt8(ascii: "}"):
                index += 1
                step = .trailer
            case .objectFirst, .objectKey:
                guard byte == UInt8(ascii: "\"") else { return fail("expected a member name", at: offset) }
                index = frame(piece, at: index, for: .key)
            case .colon:
                guard byte == UInt8(ascii: ":") else { return fail("expected :", at: offset) }
                index += 1
                guard nameKey() else { return }
                step = .memberValue
            case .memberValue:
                if currentKey == "meetings", byte == UInt8(ascii: "[") {
                    index += 1
                    openMeetingsMember()
                } else {
                    index = frame(piece, at: index, for: .memberValue)
                }
            case .objectNext:
                if byte == UInt8(ascii: ",") { step = .objectKey; index += 1 }
                else if byte == UInt8(ascii: "}") { step = .trailer; index += 1 }
                else { return fail("expected , or } in an object", at: offset) }
            case .trailer:
                break
            }
        }
    }

    /// Starts framing the value at `index`; decodes it now when it ends in this piece, else carries its bytes.
    /// Returns where reading goes on.
    private mutating func frame(_ piece: UnsafeBufferPointer<UInt8>, at index: Int, for purpose: Purpose) -> Int {
        guard var framer = JSONFramer(first: piece[index]) else {
            fail("unexpected character", at: consumed + index)
            return piece.count
        }
        if let end = framer.scan(piece, from: index) {
            completed(UnsafeBufferPointer(rebasing: piece[index..<end]), start: consumed + index, purpose: purpose)
            return end
        }
        self.framer = framer
        framedStart = consumed + index
        framedPurpose = purpose
        carried = Array(UnsafeBufferPointer(rebasing: piece[index...]))
        return piece.count
    }

    mutating func completed(_ bytes: UnsafeBufferPointer<UInt8>, start: Int) {
        completed(bytes, start: start, purpose: framedPurpose)
    }

    /// A whole value: decoded for what it is, errors placed at their offset in the body.
    private mutating func completed(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, purpose: Purpose) {
        let listDepth = topIsObject ? 2 : 1
        do throws(JSONScanner.Failure) {
            switch purpose {
            case .listElement:
                var scanner = JSONScanner(bytes, depth: listDepth)
                if bytes.first == UInt8(ascii: "{") && !listHasOtherThanObjects {
                    let meeting: BMLTMeeting
                    do {
                        meeting = try reader.meeting(&scanner, context: &context)
                    } catch let failure as JSONScanner.Failure {
                        throw failure
                    } catch {
                        throw JSONScanner.Failure(message: "unexpected character", offset: scanner.index)
                    }
                    if listMeetings.isEmpty, expectedLength > 0 {
                        // Meetings of one reply are about the same size: size the list once from the first.
                        listMeetings.reserveCapacity(min(1 + (expectedLength - start) / max(64, bytes.count), 1 << 20))
                    }
                    listMeetings.append(meeting)
                } else {
                    if bytes.first != UInt8(ascii: "{") {
                        listHasOtherThanObjects = true
                        listMeetings = []
                    }
                    _ = try scanner.value()
                }
                try after(scanner, bytes, start: start, next: .arrayNext, message: "expected , or ] in a list")
            case .key:
                var scanner = JSONScanner(bytes, depth: 1)
                let span = try scanner.stringSpan()
                pendingKey = (span, Array(bytes), start)
                step = .colon
            case .memberValue:
                var scanner = JSONScanner(bytes, depth: 1)
                let value = try scanner.value()
                if currentKey == "meetings" { meetingsMember = .value(value) } else { members[currentKey] = value }
                try after(scanner, bytes, start: start, next: .objectNext, message: "expected , or } in an object")
            }
        } catch {
            fail(error.message, at: start + error.offset)
        }
    }

    /// After a value: a bare value that stopped before its framed end leaves a byte that the next step refuses.
    private mutating func after(_ scanner: borrowing JSONScanner, _ bytes: UnsafeBufferPointer<UInt8>, start: Int,
                                next: Step, message: String) throws(JSONScanner.Failure) {
        if scanner.index < bytes.count { throw JSONScanner.Failure(message: message, offset: scanner.index) }
        step = next
    }

    /// The member name read before the colon, checked now (the whole-body scanner checks it after the colon too).
    private mutating func nameKey() -> Bool {
        guard let (span, bytes, start) = pendingKey else { return false }
        pendingKey = nil
        // A Result out of the closure: Swift 6.0's withUnsafeBufferPointer rethrows `any Error`, not a typed error.
        let key: Result<String, JSONScanner.Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONScanner.Failure) { return .success(try JSONScanner(buffer).string(span)) } catch { return .failure(error) }
        }
        switch key {
        case .success(let name):
            currentKey = name
            return true
        case .failure(let error):
            fail(error.message, at: start + error.offset)
            return false
        }
    }

    private mutating func openMeetingsMember() {
        inMeetingsMember = true
        listMeetings = []
        handedOut = 0
        listHasOtherThanObjects = false
        context = MeetingDecodingContext(formats: .empty)
        step = .arrayFirst
    }

    /// The list's `]`: the top-level list ends the value; a `meetings` member's list is that member's value.
    private mutating func closeList() {
        if inMeetingsMember {
            meetingsMember = .streamed(listMeetings, hasOtherThanObjects: listHasOtherThanObjects)
            listMeetings = []
            inMeetingsMember = false
            step = .objectNext
        } else {
            step = .trailer
        }
    }

    private mutating func fail(_ message: String, at offset: Int) {
        mode = .failed(.malformedResponse(what: what, detail: "the body is not valid JSON (\(message) at byte \(offset))"))
        carried = []
        listMeetings = []
    }
}
