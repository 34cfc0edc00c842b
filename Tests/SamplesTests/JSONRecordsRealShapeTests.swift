import BMLTKit
import Foundation
import Testing
@testable import ObserverCLI

/// The CLI's meeting record for real servers' shapes: an end past midnight and no coordinate.
@Suite("bmlt-observer meeting records: past midnight, no coordinate")
struct JSONRecordsRealShapeTests {
    @Test("endTime wraps past midnight with endsNextDay; 0,0 decoded as no coordinate prints no latitude")
    func record() throws {
        let reply = #"[{"id_bigint":"1","service_body_bigint":"2","meeting_name":"Nachtgruppe","start_time":"23:55:00","duration_time":"01:35:00","latitude":"0","longitude":"0","bus_lines":"Bus Lines#@-@#M29"}]"#
        let meeting = try #require(try BMLTSearchResults(jsonData: Data(reply.utf8)).meetings.first)
        let record = JSONRecords.meeting(meeting)
        #expect(record["endTime"] as? String == "01:30" && record["endsNextDay"] as? Bool == true)
        #expect(record["latitude"] == nil && record["longitude"] == nil)
        #expect(record["busLines"] as? String == "M29")
        var early = meeting
        early.startTime = BMLTTimeOfDay(hour: 19)
        #expect(JSONRecords.meeting(early)["endsNextDay"] == nil && JSONRecords.meeting(early)["endTime"] as? String == "20:35")
    }
}
