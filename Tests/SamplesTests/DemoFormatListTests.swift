import BMLTKit
import BMLTDemoServer
import Foundation
import Testing

extension DemoServerSuites {
    /// Searches of the demo server that ask for one format list only (`data_field_key`), decoded by BMLTKit.
    @Suite("Demo server: half format lists")
    @MainActor
    struct DemoFormatListTests {
        @Test("a search asking for the format ids alone, or the keys alone, gets both lists, equal to a full search's")
        func bothListsFilled() async throws {
            let connection = BMLTConnection(rootServerURL: BMLTDemoServer.rootURL,
                                            configuration: BMLTConfiguration(timeout: 900, urlSessionConfiguration: BMLTDemoServer.sessionConfiguration()))
            _ = try await connection.validate()          // loads the server's formats, which the lists resolve against
            #expect(!connection.server.formats.isEmpty)
            var criteria = BMLTSearchCriteria()
            criteria.weekdays = [.wednesday]
            let full = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
            #expect(full.contains { !$0.formatIDs.isEmpty })
            let fullByID = Dictionary(uniqueKeysWithValues: full.map { ($0.id, $0) })
            for only in ["format_shared_id_list", "formats"] {
                criteria.dataFieldKeys = ["id_bigint", "lang_enum", only]
                let narrowed = try await connection.meetings(matching: criteria, extent: .meetingsOnly).meetings
                #expect(narrowed.count == full.count, "\(only)")
                for meeting in narrowed {
                    let whole = try #require(fullByID[meeting.id])
                    #expect(Set(meeting.formatIDs) == Set(whole.formatIDs), "\(only): ids of #\(meeting.id)")
                    #expect(Set(meeting.formatKeys) == Set(whole.formatKeys), "\(only): keys of #\(meeting.id)")
                    #expect(meeting.formats.count == whole.formats.count, "\(only): formats of #\(meeting.id)")
                }
            }
        }
    }
}
