import Foundation
import Testing
@testable import BMLTKit

/// What a person expects from real servers' data (`RealShapeReplies`), on every decode path: the streaming
/// decoder, the reference (whole-tree) decoder, the chunked decoder as bytes arrive, REST meetings and the
/// legacy admin interface's meetings.
@Suite("Real servers' shapes: past midnight, format lists, prompts, not geocoded")
struct RealShapeDecodingTests {
    static let formats = SearchStreamEquivalenceTests.serverFormats

    /// The meetings of a search reply by every search path, after checking that all of them agree.
    static func meetings(_ text: String) throws -> [BMLTMeeting] {
        let data = Data(text.utf8)
        let streamed = try BMLTSearchResults(jsonData: data, serverFormats: formats)
        let reference = try WireSearchStream.reference(data, serverFormats: formats)
        let whole = try WireSearchChunks.wholeBody(data, query: [], serverFormats: formats).results
        var decoder = WireSearchChunks(query: [], serverFormats: formats, expectedLength: data.count)
        for start in stride(from: 0, to: data.count, by: 5) { decoder.consume(data.subdata(in: start..<min(start + 5, data.count))) }
        let chunked = try decoder.finish().results
        #expect(streamed == reference && reference == whole && whole == chunked)
        return chunked.meetings
    }

    @Test("endTime runs past midnight into the next day, never clamped at 24:00")
    func pastMidnight() throws {
        let byID = Dictionary(uniqueKeysWithValues: try Self.meetings(RealShapeReplies.pastMidnight).map { ($0.id, $0) })
        let late = try #require(byID[301]), later = try #require(byID[302]), midnight = try #require(byID[303])
        let evening = try #require(byID[304])
        #expect(late.endTime == BMLTTimeOfDay(hour: 1, minute: 30) && late.endsNextDay && late.endDayOffset == 1)
        #expect(later.endTime == BMLTTimeOfDay(hour: 0, minute: 30) && later.endsNextDay)
        #expect(midnight.endTime == BMLTTimeOfDay(hour: 0) && midnight.endsNextDay)
        #expect(evening.endTime == BMLTTimeOfDay(hour: 20) && !evening.endsNextDay && evening.endDayOffset == 0)
        var unknown = late
        unknown.duration = nil
        #expect(unknown.endTime == nil && unknown.endDayOffset == nil && !unknown.endsNextDay)
        var long = late
        long.duration = 26 * 3600      // 23:55 + 26 h: two days later, at 01:55
        #expect(long.endTime == BMLTTimeOfDay(hour: 1, minute: 55) && long.endDayOffset == 2)
    }

    @Test("a reply with format ids only gets its keys, one with keys only gets its ids, in the meeting's language")
    func halfFormatLists() throws {
        let ids = try Self.meetings(RealShapeReplies.idsOnly)
        #expect(ids.map(\.formatKeys) == [["O", "C"], ["A"], ["O", "C"]])
        #expect(ids.map(\.formatIDs) == [[17, 4], [17], [17, 4]])
        #expect(ids[0].formats.map(\.name) == ["Open", "Closed"] && ids[1].formats.map(\.name) == ["Abierta"])
        let keys = try Self.meetings(RealShapeReplies.keysOnly)
        #expect(keys.map(\.formatIDs) == [[17, 4], [4], [17, 4]])
        #expect(keys.map(\.formatKeys) == [["O", "C"], ["C"], ["O", "C"]])
        let used = try Self.meetings(RealShapeReplies.idsOnlyUsedFormats)
        #expect(used[0].formatKeys == ["G", "Of"] && used[0].formats.map(\.name) == ["Geschlossen", "Offen"])
        let usedKeys = try Self.meetings(RealShapeReplies.keysOnlyUsedFormats)
        #expect(usedKeys[0].formatIDs == [4] && usedKeys[0].formatKeys == ["C"])
        // Both lists sent: both kept as the server wrote them.
        let full = try Self.meetings(RealShapeReplies.pastMidnight)
        #expect(full[0].formatKeys == ["O", "C"] && full[0].formatIDs == [17, 4])
        // No formats known: nothing to fill from, nothing invented.
        let bare = try BMLTSearchResults(jsonData: Data(RealShapeReplies.idsOnly.utf8), serverFormats: [])
        #expect(bare.meetings[0].formatKeys.isEmpty && bare.meetings[0].formatIDs == [17, 4])
    }

    @Test("filled lists are shared between meetings with the same list and language, not made per meeting")
    func filledListsShared() throws {
        func base(_ array: [some Any]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let ids = try WireSearchStream.fast(Data(RealShapeReplies.idsOnly.utf8), serverFormats: Self.formats).meetings
        #expect(base(ids[0].formatKeys) == base(ids[2].formatKeys) && base(ids[0].formatKeys) != base(ids[1].formatKeys))
        let keys = try WireSearchStream.fast(Data(RealShapeReplies.keysOnly.utf8), serverFormats: Self.formats).meetings
        #expect(base(keys[0].formatIDs) == base(keys[2].formatIDs))
    }

    @Test("prompt#@-@#value: the value in the typed field or extraFields, the prompt and the exact text kept")
    func prompts() throws {
        let meetings = try Self.meetings(RealShapeReplies.pastMidnight)
        let berlin = meetings[0], evening = meetings[3]
        #expect(berlin.busLines == "M29, 140 bis Oranienplatz" && berlin.trainLines == "U1, U3, U8 Kottbusser Tor")
        #expect(berlin.extraFields["zugang"] == "Rollstuhlgerecht")
        #expect(berlin.prompt(for: "train_lines") == "ÖPNV" && berlin.prompt(for: "zugang") == "Zugang")
        #expect(berlin.fieldPrompts["bus_lines"]?.wireText == "Bus Lines#@-@#M29, 140 bis Oranienplatz")
        #expect(berlin.prompt(for: "location_text") == nil && berlin.locationInfo == "Hinterhof, 2. Stock")
        // observer_only#@-@#prompt#@-@#value, a doubled prompt, and a prompt with no value.
        #expect(evening.contactName1 == "Ana" && evening.fieldPrompts["contact_name_1"]?.isObserverOnly == true)
        #expect(evening.prompt(for: "contact_name_1") == "Contact 1 Name")
        #expect(evening.busLines == "Bx 7, M100" && evening.prompt(for: "bus_lines") == "Bus Lines")
        #expect(evening.trainLines == nil && evening.fieldPrompts["train_lines"]?.wireText == "Train Lines#@-@#")
        #expect(meetings[1].fieldPrompts.isEmpty && meetings[2].fieldPrompts.isEmpty)
    }

    @Test("a later plain value of the same key drops the earlier prompt (the last member wins)")
    func duplicateKeys() throws {
        let meetings = try Self.meetings(#"[{"id_bigint":"1","bus_lines":"Bus Lines#@-@#A","bus_lines":"B","x":"P#@-@#1","x":"2"}]"#)
        #expect(meetings[0].busLines == "B" && meetings[0].extraFields["x"] == "2" && meetings[0].fieldPrompts.isEmpty)
    }

    @Test("latitude and longitude 0,0 or empty are no coordinate; a 0 on one axis alone is a place")
    func notGeocoded() throws {
        let meetings = try Self.meetings(RealShapeReplies.pastMidnight)
        #expect(meetings[0].coordinate == BMLTCoordinate(latitude: 52.499, longitude: 13.4181))
        #expect(meetings[1].coordinate == nil && meetings[2].coordinate == nil && meetings[3].coordinate == nil)
        #expect(meetings[3].distanceInKilometers == nil && meetings[3].distanceInMiles == nil, "a distance to 0,0 means nothing")
        let numeric = try Self.meetings(RealShapeReplies.numericCoordinates)
        #expect(numeric[0].coordinate == nil)
        #expect(numeric[1].coordinate == BMLTCoordinate(latitude: -33.8688, longitude: 151.2093))
        #expect(numeric[2].coordinate == BMLTCoordinate(latitude: 0, longitude: 151.2))
    }

    @Test("German, Portuguese and Russian text decodes exactly")
    func languages() throws {
        let meetings = try Self.meetings(RealShapeReplies.pastMidnight)
        #expect(meetings[0].street == "Oranienstraße 12" && meetings[0].nation == "Deutschland")
        #expect(meetings[1].name == "Grupo Serenidade — São João" && meetings[1].comments == "Reunião às sextas; café após a reunião")
        #expect(meetings[2].name == "Группа «Надежда»" && meetings[2].municipality == "Москва")
    }

    @Test("REST meetings: 0,0 is no coordinate, prompts split, both format lists; an unchanged PUT sends the exact text back")
    func restMeeting() throws {
        let value = try JSONScanner.parse(Data(RealShapeReplies.restMeeting.utf8))
        let meeting = try WireRESTMeeting.decode(value, formats: Self.formats, what: .meeting(id: 601))
        #expect(meeting.coordinate == nil && meeting.formatIDs == [17, 4] && meeting.formatKeys == ["O", "C"])
        #expect(meeting.busLines == "Linie 136" && meeting.prompt(for: "bus_lines") == "Bus Lines")
        #expect(meeting.extraFields["zugang"] == "Rollstuhlgerecht")
        #expect(meeting.endTime == BMLTTimeOfDay(hour: 0, minute: 30) && meeting.endsNextDay)

        func member(_ body: [(String, WireValue)], _ key: String) -> WireValue? { body.first { $0.0 == key }?.1 }
        let server = try WireServerInfo.decode(try JSONScanner.parse(Data(RealShapeReplies.serverInfoBooleans.utf8)))
        let unchanged = WireRESTMeeting.body(meeting, formats: Self.formats, defaultDuration: 3600, server: server)
        #expect(member(unchanged, "bus_lines") == .string("Bus Lines#@-@#Linie 136"))
        #expect(member(unchanged, "customFields") == .object(["zugang": .string("Zugang#@-@# Rollstuhlgerecht")]))
        #expect(member(unchanged, "latitude") == .integer(0) && member(unchanged, "longitude") == .integer(0),
                "no coordinate is written as the server's 0,0 (it requires numbers)")

        var draft = meeting.editable()
        draft.busLines = "Linie 136, 146"
        #expect(draft.changes.map(\.key) == ["bus_lines"])
        #expect(draft.changes.first?.before == "Linie 136" && draft.changes.first?.after == "Linie 136, 146")
        let edited = WireRESTMeeting.body(draft.meeting, keys: ["bus_lines"], formats: Self.formats, defaultDuration: 3600, server: server)
        #expect(member(edited, "bus_lines") == .string("Linie 136, 146"), "an edited field is written as the value alone")
        draft.busLines = "Linie 136"         // edited back: the exact text again
        #expect(!draft.hasChanges)
        #expect(WireMeetingFieldTable.wireValue("bus_lines", of: draft.meeting) == "Bus Lines#@-@#Linie 136")
    }

    @Test("reverting to a change's before-image brings its exact prompt#@-@#value text back with the value")
    func revertKeepsPrompt() throws {
        let before = try Self.meetings(#"[{"id_bigint":"9","service_body_bigint":"7","bus_lines":"Bus Lines#@-@#Q66"}]"#)[0]
        let after = try Self.meetings(#"[{"id_bigint":"9","service_body_bigint":"7","bus_lines":"Q10"}]"#)[0]
        var draft = after.editable()
        draft.revert(toBefore: BMLTChange(id: 1, type: .changed, meetingID: 9, before: before, after: after))
        #expect(draft.busLines == "Q66" && draft.changes.map(\.key) == ["bus_lines"])
        #expect(WireMeetingFieldTable.wireValue("bus_lines", of: draft.meeting) == "Bus Lines#@-@#Q66")
    }

    @Test("legacy admin meetings: prompts split, 0,0 no coordinate, format keys from ids")
    func legacyAdminMeeting() throws {
        let object: [String: WireValue] = [
            "id_bigint": .string("701"), "service_body_bigint": .string("7"), "format_shared_id_list": .string("4,17"),
            "latitude": .string("0"), "longitude": .string("0"), "train_lines": .string("ÖPNV#@-@#S-Bahn"),
            "zugang": .string("Zugang#@-@#Aufzug"), "published": .string("1"),
        ]
        let meeting = try #require(WireMeetingFieldTable.meeting(from: object, formats: Self.formats))
        #expect(meeting.coordinate == nil && meeting.formatKeys == ["C", "O"])
        #expect(meeting.trainLines == "S-Bahn" && meeting.extraFields["zugang"] == "Aufzug" && meeting.prompt(for: "zugang") == "Zugang")
        var draft = meeting.editable()
        draft.extraFields["zugang"] = "Aufzug, Rampe"
        #expect(draft.changes.map { "\($0.key)=\($0.after ?? "")" } == ["zugang=Aufzug, Rampe"])
    }

    @Test("Codable: prompts survive a round trip, and a meeting encoded without them still decodes")
    func codable() throws {
        let meeting = try Self.meetings(RealShapeReplies.pastMidnight)[0]
        let data = try JSONEncoder().encode(meeting)
        #expect(try JSONDecoder().decode(BMLTMeeting.self, from: data) == meeting)
        var plain = meeting
        plain.fieldPrompts = [:]
        let old = try JSONDecoder().decode(BMLTMeeting.self, from: try JSONEncoder().encode(plain))
        #expect(old.fieldPrompts.isEmpty && old.busLines == meeting.busLines)
    }

    @Test("GetFieldValues: stored prompts give their values, equal values become one entry")
    func fieldValues() throws {
        let reply = #"[{"bus_lines":"Bus Lines#@-@#Q66","ids":"1,2"},{"bus_lines":"Q66","ids":"3"},{"bus_lines":"NULL","ids":"4"}]"#
        let values = try WireFieldValues.decodeValues(try JSONScanner.parse(Data(reply.utf8)), key: "bus_lines")
        #expect(values.map(\.value) == ["Q66", nil] && values[0].meetingIDs == [1, 2, 3] && values[0].prompt == "Bus Lines")
    }

    @Test("2.x change details are HTML-escaped: read as plain text; a change's meetings split prompts and drop 0,0")
    func changeDetails() throws {
        let reply = #"[{"date_int":"1700000000","change_type":"comdef_change_type_change","change_id":"5","meeting_id":"9","details":"The meeting start time was changed from &quot;23:00&quot; to &quot;23:55&quot;. Caf&#039;s &amp; more","json_data":{"before":{"id_bigint":"9","bus_lines":"Bus Lines#@-@#Q66","latitude":"0","longitude":"0"},"after":{"id_bigint":"9","start_time":"23:55:00","duration_time":"01:35:00"}}}]"#
        let changes = try WireChange.decodeList(try JSONScanner.parse(Data(reply.utf8)), formats: .empty)
        #expect(changes.first?.details == #"The meeting start time was changed from "23:00" to "23:55". Caf's & more"#)
        #expect(changes.first?.before?.busLines == "Q66" && changes.first?.before?.coordinate == nil)
        #expect(changes.first?.after?.endTime == BMLTTimeOfDay(hour: 1, minute: 30))
    }

    @Test("server info flags as JSON booleans, \"0\"/\"1\" and \"true\"/\"false\"; a 0,0 centre is none")
    func serverInfoFlags() throws {
        func info(_ text: String) throws -> BMLTServerInfo {
            try WireServerInfo.decode(try JSONScanner.parse(Data(text.utf8)))
        }
        let modern = try info(RealShapeReplies.serverInfoBooleans)
        #expect(modern.semanticAdminEnabled && !modern.emailEnabled && modern.emailIncludesServiceBodies)
        #expect(modern.meetingTimeZonesEnabled && modern.autoGeocodingEnabled == false && modern.defaultClosedStatus == true)
        #expect(modern.center == nil && modern.majorVersion == 4)
        let digits = try info(RealShapeReplies.serverInfoDigits)
        #expect(digits.semanticAdminEnabled && !digits.emailEnabled && digits.emailIncludesServiceBodies && !digits.meetingTimeZonesEnabled)
        #expect(digits.center == BMLTCoordinate(latitude: -23.55, longitude: -46.63) && digits.nativeLanguage == "pt")
        let words = try info(RealShapeReplies.serverInfoWords)
        #expect(words.semanticAdminEnabled && !words.emailEnabled && words.meetingTimeZonesEnabled)
        #expect(words.autoGeocodingEnabled == true && words.defaultClosedStatus == false && !words.aggregatorModeEnabled)
    }

    @Test("an aggregator's service bodies whose parents are missing stay at the root of the tree, none lost")
    func orphanedServiceBodies() throws {
        let bodies = try WireServiceBody.decodeList(try JSONScanner.parse(Data(RealShapeReplies.aggregatorServiceBodies.utf8)))
        #expect(bodies.count == 4 && bodies.first { $0.id == 502 }?.parentID == 988)
        #expect(bodies.first { $0.id == 503 }?.name == "Подгруппа")
        let tree = BMLTServiceBody.tree(from: bodies)
        #expect(Set(tree.map(\.id)) == [501, 502, 504])
        #expect(tree.flatMap(\.flattened).count == 4 && tree.first { $0.id == 502 }?.children.map(\.id) == [503])
    }
}
