import Foundation
import Testing
@testable import BMLTKit

/// The meeting decoder's leniency, one quirk at a time, on replies written for these tests.
@Suite("Meeting decoder quirks")
struct MeetingDecoderTests {
    private let formats = [BMLTFormat(id: 17, key: "O", name: "Open"), BMLTFormat(id: 3, key: "BT", name: "Basic Text"),
                           BMLTFormat(id: 17, key: "A", name: "Abierta", language: "es")]

    private func decode(_ json: String) throws -> [BMLTMeeting] {
        try WireSearchResults.decode(try WireValue.parse(Data(json.utf8), what: .request), serverFormats: formats).meetings
    }

    private func one(_ members: String) throws -> BMLTMeeting {
        try #require(try decode("[{\(members)}]").first)
    }

    @Test("the usual strings become typed values")
    func typed() throws {
        let meeting = try one("""
        "id_bigint":"42","service_body_bigint":"1002","weekday_tinyint":"2","venue_type":"3","start_time":"19:30:00",
        "duration_time":"01:30:00","time_zone":"America/New_York","formats":"O,BT","format_shared_id_list":"17,3",
        "lang_enum":"en","latitude":"40.5","longitude":"-73.25","meeting_name":"Hope","published":"1",
        "worldid_mixed":"G1","virtual_meeting_link":"https://zoom.example/j/1","distance_in_km":"1.5","shared_group_id_bigint":""
        """)
        #expect(meeting.id == 42 && meeting.serviceBodyID == 1002 && meeting.weekday == .monday && meeting.venueType == .hybrid)
        #expect(meeting.startTime == BMLTTimeOfDay(hour: 19, minute: 30) && meeting.duration == 5400)
        #expect(meeting.endTime == BMLTTimeOfDay(hour: 21))
        #expect(meeting.timeZone?.identifier == "America/New_York")
        #expect(meeting.formats.map(\.name) == ["Open", "Basic Text"] && meeting.formatKeys == ["O", "BT"] && meeting.formatIDs == [17, 3])
        #expect(meeting.coordinate == BMLTCoordinate(latitude: 40.5, longitude: -73.25))
        #expect(meeting.isPublished == true && meeting.worldID == "G1" && meeting.distanceInKilometers == 1.5)
        #expect(meeting.sharedGroupID == nil && meeting.distanceInMiles == nil && meeting.extraFields.isEmpty)
    }

    @Test("numbers instead of strings, null instead of strings, empty strings as absent")
    func looseTypes() throws {
        let meeting = try one("""
        "id_bigint":42,"service_body_bigint":1002.0,"weekday_tinyint":7,"latitude":40.5,"longitude":-73,
        "meeting_name":null,"location_municipality":"","comments":null,"published":1,"location_postal_code_1":11550
        """)
        #expect(meeting.id == 42 && meeting.serviceBodyID == 1002 && meeting.weekday == .saturday)
        #expect(meeting.coordinate == BMLTCoordinate(latitude: 40.5, longitude: -73))
        #expect(meeting.name == "" && meeting.municipality == nil && meeting.comments == nil)
        #expect(meeting.isPublished == true && meeting.postalCode == "11550")
    }

    @Test("H:MM:SS and HH:MM are times; nonsense is absent, never midnight")
    func times() throws {
        #expect(try one(#""start_time":"9:05:00""#).startTime == BMLTTimeOfDay(hour: 9, minute: 5))
        #expect(try one(#""start_time":"09:05""#).startTime == BMLTTimeOfDay(hour: 9, minute: 5))
        #expect(try one(#""start_time":"24:00:00""#).startTime == BMLTTimeOfDay(hour: 24))
        for bad in ["", "20", "7pm", "25:00:00", "12:60:00", "ab:cd:ef", "-1:00:00", "１２:００:００"] {
            #expect(try one(#""start_time":"\#(bad)""#).startTime == nil, "\(bad)")
        }
        #expect(try one(#""duration_time":"36:00:00""#).duration == 36 * 3600)
        #expect(try one(#""duration_time":"x""#).duration == nil)
    }

    @Test("weekday 1 is Sunday; out of range is absent")
    func weekdays() throws {
        #expect(try one(#""weekday_tinyint":"1""#).weekday == .sunday)
        #expect(try one(#""weekday_tinyint":"0""#).weekday == nil)
        #expect(try one(#""weekday_tinyint":"8""#).weekday == nil)
    }

    @Test("formats as CSV or array, resolved by id, else by key in the meeting's language; unknown keys kept as keys")
    func formatResolution() throws {
        #expect(try one(#""formats":["O","BT"]"#).formats.map(\.id) == [17, 3])
        #expect(try one(#""formats":"A","lang_enum":"es""#).formats.map(\.name) == ["Abierta"])
        #expect(try one(#""formats":"O","format_shared_id_list":"17","lang_enum":"es""#).formats.map(\.name) == ["Abierta"])
        let unknown = try one(#""formats":"O,ZZ""#)
        #expect(unknown.formatKeys == ["O", "ZZ"] && unknown.formats.map(\.key) == ["O"])
    }

    @Test("published: 2.x writes \"\" for unpublished, 3.x \"0\"; absent is unknown")
    func published() throws {
        #expect(try one(#""published":"""#).isPublished == false)
        #expect(try one(#""published":"0""#).isPublished == false)
        #expect(try one(#""id_bigint":"1""#).isPublished == nil)
    }

    @Test("coordinates out of range or half given are absent")
    func coordinates() throws {
        #expect(try one(#""latitude":"95","longitude":"10""#).coordinate == nil)
        #expect(try one(#""latitude":"45""#).coordinate == nil)
        #expect(try one(#""latitude":"NaN","longitude":"1""#).coordinate == nil)
    }

    @Test("unknown server-defined keys are kept as text; fields left out by data_field_key are nil")
    func extraAndMissing() throws {
        let meeting = try one(#""meeting_name":"Hope","custom_entry_code":"1234","empty_custom":"","root_server_id":"7""#)
        #expect(meeting.extraFields == ["custom_entry_code": "1234"])
        #expect(meeting.rootServerID == 7 && meeting.id == 0 && meeting.weekday == nil && meeting.startTime == nil)
    }

    @Test("[] and {} are no meetings; a list with non-objects and other shapes are a clear error")
    func shapes() throws {
        #expect(try decode("[]").isEmpty)
        #expect(try decode("{}").isEmpty)
        #expect(try decode(#"{"meetings":[],"formats":[]}"#).isEmpty)
        #expect(throws: BMLTError.malformedResponse(what: .meetingSearch, detail: .unexpectedShape(expected: "[meeting]"))) {
            try decode(#"[{"id_bigint":"5"},null]"#)
        }
        #expect(throws: BMLTError.malformedResponse(what: .meetingSearch, detail: .unexpectedShape(expected: "[meeting]"))) {
            try decode(#""just text""#)
        }
        // A formats list beside the meetings is a side list: unreadable, it is left out and counted, never an error.
        #expect(try BMLTSearchResults(jsonData: Data(#"{"meetings":[],"formats":"O"}"#.utf8)).skippedFormats == 1)
        #expect(throws: BMLTError.malformedResponse(what: .searchFormats, detail: .unexpectedShape(expected: "[format]"))) {
            try decode(#"{"formats":"O"}"#)
        }
    }

    @Test("get_used_formats: the search's own formats win over the server's list")
    func usedFormats() throws {
        let json = #"{"meetings":[{"id_bigint":"1","formats":"O","format_shared_id_list":"17"}],"formats":[{"key_string":"O","name_string":"Offen","lang":"de","id":"17"}]}"#
        let results = try WireSearchResults.decode(try WireValue.parse(Data(json.utf8), what: .request), serverFormats: formats)
        #expect(results.formats.map(\.name) == ["Offen"])
        #expect(results.meetings.first?.formats.map(\.name) == ["Offen"])
    }
}

/// Change records, deleted meetings, field values, coverage and the NAWS CSV on replies written for these tests.
@Suite("Other read decoders")
struct OtherReadDecoderTests {
    private func changes(_ json: String) throws -> [BMLTChange] {
        try WireChange.decodeList(try WireValue.parse(Data(json.utf8), what: .request), formats: .empty)
    }

    private static func change(_ id: Int, meeting: Int, type: String, date: Int, exists: String) -> String {
        #"{"change_id":"\#(id)","meeting_id":"\#(meeting)","change_type":"comdef_change_type_\#(type)","date_int":"\#(date)","meeting_exists":"\#(exists)","json_data":{"before":{"id_bigint":"\#(meeting)","meeting_name":"M\#(meeting) v\#(id)","formats":["O"]}}}"#
    }

    @Test("a change carries before/after meetings; json_data [] means neither; unknown types are .other")
    func changeRecords() throws {
        let list = try changes("""
        [{"change_id":"1","date_int":"1795339156","change_type":"comdef_change_type_change","meeting_id":"9","user_id":"4",
          "meeting_exists":"1","json_data":{"before":{"id_bigint":"9","meeting_name":"Old","formats":["O","C"]},
          "after":{"id_bigint":"9","meeting_name":"New","formats":[]}}},
         {"change_id":"2","change_type":"comdef_change_type_new","json_data":[]},
         {"change_id":"3","change_type":"something_new"},
         {"change_id":"x"}]
        """)
        #expect(list.map(\.id) == [1, 2, 3])
        #expect(list[0].before?.name == "Old" && list[0].after?.name == "New" && list[0].before?.formatKeys == ["O", "C"])
        #expect(list[0].date == Date(timeIntervalSince1970: 1_795_339_156) && list[0].userID == 4 && list[0].meetingExists == true)
        #expect(list[1].type == .created && list[1].before == nil && list[1].after == nil)
        #expect(list[2].type == .other)
    }

    @Test("deleted meetings: only deletions of meetings that do not exist now, the latest per meeting, newest first")
    func latestDeletions() throws {
        let list = try changes("[" + [
            Self.change(1, meeting: 10, type: "delete", date: 100, exists: "0"),
            Self.change(2, meeting: 10, type: "delete", date: 300, exists: "0"),
            Self.change(3, meeting: 11, type: "delete", date: 200, exists: "1"),
            Self.change(4, meeting: 12, type: "change", date: 400, exists: "0"),
            Self.change(5, meeting: 13, type: "delete", date: 250, exists: "0"),
        ].joined(separator: ",") + "]")
        let deletions = WireChange.latestDeletions(list)
        #expect(deletions.map(\.id) == [2, 5])
        #expect(deletions.first?.before?.name == "M10 v2")
    }

    @Test("dates for GetChanges are Gregorian YYYY-MM-DD in the given time zone")
    func days() {
        let date = Date(timeIntervalSince1970: 1_795_339_156)   // 2026-11-22 09:19 UTC
        #expect(WireChange.day(date, timeZone: TimeZone(identifier: "UTC")!) == "2026-11-22")
        #expect(WireChange.day(date, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!) == "2026-11-22")
        #expect(WireChange.day(date, timeZone: TimeZone(identifier: "America/Anchorage")!) == "2026-11-22")
        #expect(WireChange.day(Date(timeIntervalSince1970: 0), timeZone: TimeZone(identifier: "America/New_York")!) == "1969-12-31")
    }

    @Test("field values: NULL is no value; ids are a list; coverage needs four corners in range")
    func fieldValuesAndCoverage() throws {
        let values = try WireFieldValues.decodeValues(try WireValue.parse(Data(#"[{"formats":"NULL","ids":"1,2"},{"formats":"17,3","ids":"3"}]"#.utf8), what: .request), key: "formats")
        #expect(values == [BMLTFieldValue(value: nil, meetingIDs: [1, 2]), BMLTFieldValue(value: "17,3", meetingIDs: [3])])
        let box = #"[{"nw_corner_longitude":"-79.3","nw_corner_latitude":"44.9","se_corner_longitude":"-72.1","se_corner_latitude":"40.5"}]"#
        #expect(try WireFieldValues.decodeCoverage(try WireValue.parse(Data(box.utf8), what: .request)).southEast.latitude == 40.5)
        #expect(throws: BMLTError.self) {
            try WireFieldValues.decodeCoverage(try WireValue.parse(Data(#"[{"nw_corner_longitude":"x"}]"#.utf8), what: .request))
        }
    }

    @Test("CSV: quoted fields with commas, doubled quotes and line breaks; CRLF; a missing final line break")
    func csv() throws {
        let text = "\u{FEFF}\"Committee\",\"Place\",\"bmlt_id\"\r\n\"C1\",\"Hall, Room 2\",\"5\"\r\n\"C2\",\"Say \"\"hi\"\"\nthen go\",\"6\"\nC3,plain,7"
        let export = try WireCSV.nawsExport(text)
        #expect(export.columns == ["Committee", "Place", "bmlt_id"])
        #expect(export.rows == [["Committee": "C1", "Place": "Hall, Room 2", "bmlt_id": "5"],
                                ["Committee": "C2", "Place": "Say \"hi\"\nthen go", "bmlt_id": "6"],
                                ["Committee": "C3", "Place": "plain", "bmlt_id": "7"]])
        #expect(WireCSV.rows("a,\"unterminated\nb") == [["a", "unterminated\nb"]])
        #expect(WireCSV.rows("a,b\n\n") == [["a", "b"], [""]])
        #expect(throws: BMLTError.self) { try WireCSV.nawsExport("") }
        #expect(throws: BMLTError.self) { try WireCSV.nawsExport("<html>error</html>") }
    }
}

/// A meeting an app saved with `Codable` before a field was added still decodes.
@Suite("Meeting Codable across versions")
struct MeetingCodableCompatibilityTests {
    @Test("a meeting encoded before foldedMeetingIDs existed decodes with it empty")
    func olderEncodingDecodes() throws {
        var meeting = BMLTMeeting(id: 7, serviceBodyID: 3, name: "Tuesday Night", weekday: .tuesday)
        meeting.foldedMeetingIDs = [9, 11]
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(meeting)) as? [String: Any])
        #expect(object["foldedIDs"] as? [Int] == [9, 11])
        object.removeValue(forKey: "foldedIDs")
        let older = try JSONDecoder().decode(BMLTMeeting.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(older.id == 7 && older.name == "Tuesday Night" && older.weekday == .tuesday)
        #expect(older.foldedMeetingIDs.isEmpty)
        let roundTrip = try JSONDecoder().decode(BMLTMeeting.self, from: JSONEncoder().encode(meeting))
        #expect(roundTrip.foldedMeetingIDs == [9, 11])
    }
}
