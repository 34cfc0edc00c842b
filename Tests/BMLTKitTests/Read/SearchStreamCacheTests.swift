import Foundation
import Testing
@testable import BMLTKit

/// What the single-pass meeting decoder keeps between meetings (format lists and their resolved formats per
/// language, long repeated text, time zones, all by raw bytes), its key table, its reading of plain decimals
/// from bytes, and its skipping of `""` for fields not read yet: each gives what the reference path gives.
@Suite("Streaming search decoder: shared values, keys, decimals")
struct SearchStreamCacheTests {
    static let serverFormats = [
        BMLTFormat(id: 17, key: "O", name: "Open", language: "en"),
        BMLTFormat(id: 17, key: "A", name: "Abierta", language: "es"),
        BMLTFormat(id: 4, key: "C", name: "Closed", language: "en"),
        BMLTFormat(id: 4, key: "C", name: "Cerrada", language: "es"),
        BMLTFormat(id: 4, key: "F", name: "Fermée", language: "fr"),
    ]

    /// The single pass's meetings, after checking that they are the reference path's.
    static func fast(_ json: String, formats: [BMLTFormat] = serverFormats) throws -> [BMLTMeeting] {
        let data = Data(json.utf8)
        let fast = try WireSearchStream.fast(data, serverFormats: formats)
        let wanted = try WireSearchStream.reference(data, serverFormats: formats)
        #expect(fast == wanted, "\(json)")
        return fast.meetings
    }

    static func base(_ array: [some Any]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("the same format ids in different languages resolve to each language's formats")
    func idsPerLanguage() throws {
        let meetings = try Self.fast("""
        [{"id_bigint":"1","format_shared_id_list":"17,4","lang_enum":"en"},
         {"id_bigint":"2","format_shared_id_list":"17,4","lang_enum":"es"},
         {"id_bigint":"3","format_shared_id_list":"17,4","lang_enum":"fr"},
         {"id_bigint":"4","format_shared_id_list":"17,4","lang_enum":"es"},
         {"id_bigint":"5","format_shared_id_list":"17,4"},
         {"id_bigint":"6","format_shared_id_list":"17,4","lang_enum":"en"}]
        """)
        #expect(meetings.map { $0.formats.map(\.name) } == [
            ["Open", "Closed"], ["Abierta", "Cerrada"], ["Open", "Fermée"], ["Abierta", "Cerrada"], ["Open", "Closed"], ["Open", "Closed"],
        ])
        #expect(meetings.allSatisfy { $0.formatIDs == [17, 4] })
        // Equal lists share one array: the ids always, the formats per language.
        #expect(Set(meetings.map { Self.base($0.formatIDs) }).count == 1)
        #expect(Self.base(meetings[1].formats) == Self.base(meetings[3].formats))
        #expect(Self.base(meetings[0].formats) == Self.base(meetings[5].formats))
        #expect(Self.base(meetings[0].formats) != Self.base(meetings[1].formats))
    }

    @Test("the same format keys in different languages resolve to each language's formats")
    func keysPerLanguage() throws {
        let meetings = try Self.fast("""
        [{"id_bigint":"1","formats":"C","lang_enum":"es"},{"id_bigint":"2","formats":"C","lang_enum":"en"},
         {"id_bigint":"3","formats":"C","lang_enum":"es"},{"id_bigint":"4","formats":"A,O","lang_enum":"es"},
         {"id_bigint":"5","formats":"A,O","lang_enum":"en"}]
        """)
        #expect(meetings.map { $0.formats.map(\.name) } == [["Cerrada"], ["Closed"], ["Cerrada"], ["Abierta", "Open"], ["Abierta", "Open"]])
        #expect(Self.base(meetings[0].formatKeys) == Self.base(meetings[2].formatKeys))
    }

    @Test("a list is known by its bytes: escaped or not, and a later member of the same key replaces it")
    func rawBytes() throws {
        let meetings = try Self.fast(#"""
        [{"id_bigint":"1","format_shared_id_list":"17\u002c4","formats":"O\u002cC","root_server_uri":"http:\/\/a.example\/main"},
         {"id_bigint":"2","format_shared_id_list":"17,4","formats":"O,C","root_server_uri":"http://a.example/main"},
         {"id_bigint":"3","format_shared_id_list":"17,4","format_shared_id_list":"","formats":"O,C","formats":["X"]},
         {"id_bigint":"4","formats":["X"],"formats":"O,C","format_shared_id_list":4,"format_shared_id_list":"17"},
         {"id_bigint":"5","format_shared_id_list":" 17, 4,x,,99","formats":" O , C ,,ZZ","lang_enum":"es"}]
        """#)
        #expect(meetings[0].formatIDs == [17, 4] && meetings[1].formatIDs == [17, 4])
        #expect(meetings[0].formatKeys == ["O", "C"] && meetings[1].formatKeys == ["O", "C"])
        #expect(meetings[0].rootServerURI == "http://a.example/main" && meetings[1].rootServerURI == "http://a.example/main")
        #expect(meetings[2].formatIDs == [] && meetings[2].formatKeys == ["X"] && meetings[2].formats == [])
        #expect(meetings[3].formatIDs == [17] && meetings[3].formatKeys == ["O", "C"] && meetings[3].formats.map(\.name) == ["Open"])
        #expect(meetings[4].formatIDs == [17, 4, 99] && meetings[4].formatKeys == ["O", "C", "ZZ"])
        #expect(meetings[4].formats.map(\.name) == ["Abierta", "Cerrada"])
    }

    @Test("time zones and long repeated text: looked up once, the same for every meeting")
    func zonesAndText() throws {
        let name = "A Service Body With A Long Name"
        let meetings = try Self.fast("""
        [{"id_bigint":"1","time_zone":"America/New_York","service_body_name":"\(name)"},
         {"id_bigint":"2","time_zone":"America\\/New_York","service_body_name":"\(name)"},
         {"id_bigint":"3","time_zone":"Nowhere/Else","service_body_name":""},
         {"id_bigint":"4","time_zone":"Nowhere/Else","time_zone":"Europe/Berlin"},
         {"id_bigint":"5","time_zone":"America/New_York","time_zone":""}]
        """)
        #expect(meetings.map { $0.timeZone?.identifier } == ["America/New_York", "America/New_York", nil, "Europe/Berlin", nil])
        #expect(meetings.map(\.serviceBodyName) == [name, name, nil, nil, nil])
    }

    @Test("a value that did not read is not remembered: the same bytes fail again")
    func failuresNotKept() throws {
        var context = MeetingDecodingContext(formats: WireFormatTable(Self.serverFormats))
        var reader = WireSearchStream.MeetingReader()
        func meeting(_ bytes: [UInt8]) -> Result<BMLTMeeting, JSONScanner.Failure> {
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer, depth: 1)
                do { return .success(try reader.meeting(&scanner, context: &context)) } catch {
                    return .failure(error as! JSONScanner.Failure)
                }
            }
        }
        for field in ["root_server_uri", "formats", "format_shared_id_list", "time_zone", "service_body_name"] {
            let bad = Array(#"{"id_bigint":"1",""#.utf8) + Array(field.utf8) + Array(#"":"x"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
            let first = meeting(bad), second = meeting(bad)
            guard case .failure(let error) = first else { Issue.record("\(field): invalid UTF-8 accepted"); continue }
            #expect(error.message == "invalid UTF-8 in a string", "\(field)")
            #expect(second == first, "\(field)")
        }
        let escaped = Array(#"{"id_bigint":"1","root_server_uri":"http:\/\/a\q"}"#.utf8)
        #expect(meeting(escaped) == meeting(escaped))
        guard case .failure = meeting(escaped) else { Issue.record("a bad escape was accepted"); return }
        let good = meeting(Array(#"{"id_bigint":"2","root_server_uri":"http:\/\/a","format_shared_id_list":"4","lang_enum":"fr"}"#.utf8))
        #expect((try? good.get())?.rootServerURI == "http://a" && (try? good.get())?.formats.map(\.name) == ["Fermée"])
    }

    @Test("one meeting at a time through MeetingReader.meeting, sharing a context: the whole reply's meetings")
    func meetingByMeeting() throws {
        let objects = [
            #"{"id_bigint":"1","format_shared_id_list":"17,4","lang_enum":"es","root_server_uri":"http:\/\/a"}"#,
            #"{"id_bigint":"2","format_shared_id_list":"17,4","lang_enum":"en","root_server_uri":"http:\/\/a"}"#,
            #"{"lang_enum":"es","id_bigint":"3","root_server_uri":"http:\/\/a","format_shared_id_list":"17,4"}"#,
            #"{}"#,
        ]
        var context = MeetingDecodingContext(formats: WireFormatTable(Self.serverFormats))
        var reader = WireSearchStream.MeetingReader()
        var meetings: [BMLTMeeting] = []
        for object in objects {
            let bytes = Array(object.utf8)
            try bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer, depth: 1)
                meetings.append(try reader.meeting(&scanner, context: &context))
            }
        }
        let wanted = try Self.fast("[" + objects.joined(separator: ",") + "]")
        #expect(meetings == wanted)
    }

    @Test("keys in any order, written with escapes, repeated, or unknown: the reference's meeting")
    func keyOrders() throws {
        let capture = #"""
        {"id_bigint":"1452","worldid_mixed":"G00299489","shared_group_id_bigint":"","service_body_bigint":"1003","weekday_tinyint":"1","venue_type":"1","start_time":"07:30:00","duration_time":"01:00:00","time_zone":"","formats":"O,ME","lang_enum":"en","longitude":"-72.619113922119","latitude":"40.969387158898","distance_in_km":"","distance_in_miles":"","email_contact":"","meeting_name":"11th Step Meditation","location_text":"Community Baptist Church","location_info":"corner with church lane","location_street":"5267 Sound Ave (Cnty rd 48)","location_city_subsection":"","location_neighborhood":"","location_municipality":"Aquebogue","location_sub_province":"Suffolk","location_province":"NY","location_postal_code_1":"11931","location_nation":"USA","comments":"","zone":"","train_lines":"","bus_lines":"","contact_phone_2":"","contact_email_2":"","contact_name_2":"","contact_phone_1":"","contact_email_1":"","contact_name_1":"","phone_meeting_number":"","virtual_meeting_link":"","virtual_meeting_additional_info":"","published":"1","root_server_uri":"http:\/\/127.0.0.1:8000\/main_server","format_shared_id_list":"17,41","service_body_name":"","admin_notes":"","root_server_id":"3","custom_key":"x"}
        """#
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(capture.utf8)) as? [String: String])
        let members = fields.map { #""\#($0.key)":"\#($0.value.replacingOccurrences(of: "/", with: #"\/"#))""# }.sorted()
        var generator = SplitMix(seed: 0x0DE5)
        var objects: [String] = []
        for _ in 0..<200 {
            var shuffled = members
            for index in shuffled.indices.reversed() {
                shuffled.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            objects.append("{" + shuffled.joined(separator: ",") + "}")
        }
        let meetings = try Self.fast("[" + objects.joined(separator: ",") + "]")
        #expect(meetings.count == 200 && Set(meetings).count == 1)
        #expect(meetings[0].extraFields == ["custom_key": "x"] && meetings[0].rootServerID == 3)

        // A standard key written with escapes, then the same key plain with "": the value is cleared, as the
        // reference clears it (the last member wins).
        let repeated = try Self.fast(#"""
        [{"id\u005fbigint":"5","id_bigint":""},{"meeting\u005fname":"A","meeting_name":""},{"zone":"Z","zone":""},
         {"published":"1","published":""},{"latitude":"40.5","longitude":"-73.25","latitude":""},
         {"time\u005fzone":"Europe/Berlin","time_zone":""},{"zone":"","zone":"Z"},{"location_tex":"x","location_textt":"y"}]
        """#)
        #expect(repeated[0].id == 0 && repeated[1].name == "" && repeated[2].zone == nil && repeated[3].isPublished == false)
        #expect(repeated[4].coordinate == nil && repeated[5].timeZone == nil && repeated[6].zone == "Z")
        #expect(repeated[7].extraFields == ["location_tex": "x", "location_textt": "y"])
    }

    @Test("plain decimals read from bytes are the Double that Double(String) gives, bit for bit")
    func decimals() {
        func check(_ text: String) {
            let fast = Array(text.utf8).withUnsafeBufferPointer(MeetingBuilder.decimal)
            guard let fast else { return }   // not a plain decimal: read as before
            let slow = Double(text)
            #expect(slow?.bitPattern == fast.bitPattern, "\(text): \(fast) against \(String(describing: slow))")
        }
        for text in ["0", "-0", "0.0", "-0.0", "40.969387158898", "-72.619113922119", "90", "-180", "0.1", "0.3",
                     "9007199254740992", "9007199254740993", "123456789012345678", "0.000000000000000001",
                     "1.7976931348623157", "00012.5", "4.35", "2.675", "1.0000000000000000"] {
            check(text)
        }
        var generator = SplitMix(seed: 0xDEC1)
        for _ in 0..<50_000 {
            let digits = Int(generator.next() % 18) + 1
            let point = Int(generator.next() % UInt64(digits + 1))
            var text = generator.next() % 2 == 0 ? "-" : ""
            for index in 0..<digits {
                if index == point, index > 0 { text += "." }
                text += String(generator.next() % 10)
            }
            check(text)
        }
        for text in ["", "-", ".5", "5.", "1e5", "+1", " 1", "1 ", "1..2", "0x10", "inf", "nan", "1234567890123456789"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer(MeetingBuilder.decimal) == nil, "\(text)")
        }
    }

    @Test("the byte-keyed table: exact keys only, grows, and stops taking entries at its limit")
    func byteKeyedCache() {
        var cache = ByteKeyedCache<Int>(limit: 300, longest: 40)
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        var keys: [String] = [""]
        for length in 1...40 {
            keys.append(String(repeating: "a", count: length))
            keys.append(String(repeating: "a", count: length - 1) + "b")
            keys.append("b" + String(repeating: "a", count: length - 1))
        }
        keys = Array(Set(keys)).sorted()
        for (value, key) in keys.enumerated() {
            #expect(bytes(key).withUnsafeBufferPointer { cache.entry($0) } == nil)
            #expect(bytes(key).withUnsafeBufferPointer { cache.add($0, value) } == value)
        }
        for (value, key) in keys.enumerated() {
            let entry = bytes(key).withUnsafeBufferPointer { cache.entry($0) }
            #expect(entry.map { cache.values[$0] } == value, "\(key)")
        }
        #expect(bytes(String(repeating: "a", count: 41)).withUnsafeBufferPointer { cache.add($0, 0) } == nil)
        var added = keys.count
        for number in 0..<1000 where added < 300 {
            if bytes("k\(number)").withUnsafeBufferPointer({ cache.add($0, number) }) != nil { added += 1 }
        }
        #expect(bytes("one more").withUnsafeBufferPointer { cache.add($0, 0) } == nil)
        #expect(bytes("k5").withUnsafeBufferPointer { cache.entry($0) }.map { cache.values[$0] } == 5)
    }
}
