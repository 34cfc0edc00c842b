import Foundation
import LoopbackHTTPServer
import Testing
@testable import BMLTKit

/// Records without a usable id are not records: over a real socket, they are left out and counted in the log, and
/// a reply fails only when nothing usable is left — never meetings numbered #0.
@Suite("Records without an id")
@MainActor
struct IDlessRecordTests {
    static let meeting = #"{"id_bigint":"5","meeting_name":"Real","weekday_tinyint":"2","start_time":"19:00:00","service_body_bigint":"1"}"#

    /// A loopback 3.x server whose search answer is `search`.
    static func connection(search: String, lines: Locked<[String]>) throws -> (BMLTConnection, LoopbackHTTPServer) {
        let http = try LoopbackHTTPServer { request in
            switch request.query("switcher") {
            case "GetSearchResults": .json(search)
            case "GetServerInfo": .json(SampleReplies.serverInfo3x)
            default: .json("[]")
            }
        }
        let configuration = BMLTConfiguration(timeout: hangGuardTimeout, retryPolicy: .none, logLevel: .errors, logHandler: { _, line in lines.withLock { $0.append(line) } })
        return (BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"), configuration: configuration), http)
    }

    @Test("no usable id anywhere: {} objects, ids that are arrays, text or 0 — one malformedResponse, never meeting #0", arguments: [
        "[{},{},{}]",
        #"[{"id_bigint":["1"],"meeting_name":["x"]},{"id_bigint":{"a":1}}]"#,
        #"[{"id_bigint":"abc"},{"id_bigint":"0"},{"id_bigint":"-4"}]"#,
        "[" + String(repeating: "{},", count: 3000) + "{}]",
    ])
    func nothingUsable(reply: String) async throws {
        let lines = Locked<[String]>([])
        let (connection, http) = try Self.connection(search: reply, lines: lines)
        defer { http.stop() }
        do {
            let found = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
            Issue.record("expected an error, got \(found.count) meetings, ids \(found.prefix(3).map(\.id))")
        } catch let error as BMLTError {
            guard case .malformedResponse(_, let detail) = error else { Issue.record("\(error)"); return }
            guard case .noUsableEntry(_, let key) = detail else { Issue.record("\(detail)"); return }
            #expect(key.hasPrefix("id"))
            #expect(detail.description.contains("has a usable id"), "\(detail)")
        }
        #expect(connection.search.meetings.isEmpty && connection.search.lastError != nil)
    }

    @Test("some usable: the records with ids are kept in order, the rest left out and counted in a warning")
    func someUsable() async throws {
        let lines = Locked<[String]>([])
        let reply = "[{}," + Self.meeting + #",{"id_bigint":[5]},"# + Self.meeting.replacingOccurrences(of: "\"5\"", with: "\"7\"") + "]"
        let (connection, http) = try Self.connection(search: reply, lines: lines)
        defer { http.stop() }
        let meetings = try await connection.meetings(matching: BMLTSearchCriteria(), extent: .meetingsOnly).meetings
        #expect(meetings.map(\.id) == [5, 7])
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("warning: ") && $0.contains("2 meetings without a usable id") && $0.contains("2 kept") })
    }

    @Test("formats and service bodies over a socket: entries without an id are left out and counted in a warning")
    func otherRecordsLogged() async throws {
        let lines = Locked<[String]>([])
        let http = try LoopbackHTTPServer { request in
            switch request.query("switcher") {
            case "GetFormats": .json(#"[{},{"id":"3","key_string":"O"},{"id":["4"],"key_string":"C"}]"#)
            case "GetServiceBodies": .json(#"[{"name":"x"},{"id":"9","name":"y"}]"#)
            case "GetServerInfo": .json(SampleReplies.serverInfo3x)
            default: .json("[]")
            }
        }
        defer { http.stop() }
        let configuration = BMLTConfiguration(timeout: hangGuardTimeout, retryPolicy: .none, logLevel: .errors, logHandler: { _, line in lines.withLock { $0.append(line) } })
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"), configuration: configuration)
        #expect(try await connection.formats().map(\.id) == [3])
        #expect(try await connection.serviceBodies().map(\.id) == [9])
        let warnings = lines.withLock { $0 }.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.contains { $0.contains("the format list held 2 entries without a usable id; left out (1 kept)") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("the service body list held 1 entry without a usable id; left out (1 kept)") }, "\(warnings)")
        #expect(connection.inFlightRequests.isEmpty)
    }

    @Test("formats, service bodies and changes: entries without an id are left out; a list of only such entries fails")
    func otherRecords() throws {
        #expect(try WireFormat.decodeList(WireValue.parse(Data(#"[{},{"id":"3","key_string":"O"}]"#.utf8), what: .request)).map(\.id) == [3])
        #expect(throws: BMLTError.self) { try WireFormat.decodeList(WireValue.parse(Data("[{},{}]".utf8), what: .request)) }
        #expect(try WireServiceBody.decodeList(WireValue.parse(Data(#"[{"name":"x"},{"id":"9","name":"y"}]"#.utf8), what: .request)).map(\.id) == [9])
        #expect(throws: BMLTError.self) { try WireServiceBody.decodeList(WireValue.parse(Data(#"[{"name":"x"}]"#.utf8), what: .request)) }
        #expect(throws: BMLTError.self) { try WireChange.decodeList(WireValue.parse(Data("[{}]".utf8), what: .request), formats: .empty) }
        #expect(try WireChange.decodeList(WireValue.parse(Data("[]".utf8), what: .request), formats: .empty).isEmpty, "an empty list is fine")
    }
}
