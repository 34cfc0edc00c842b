import Foundation
import Testing
@testable import BMLTKit

/// The other public seconds and durations a host can set to `.infinity`, `.nan` or a huge number — a retry policy's
/// delays, the progress delays, a draft's duration, the server settings' default duration — never crash.
///
/// Every wait converted to `Task.sleep`'s nanoseconds went through `UInt64(seconds * 1e9)`, and every duration written
/// for the wire through `Int(seconds)`: both trap on such values. Now each goes through one total conversion (`Wait`,
/// `WireTime.wholeSeconds`), checked here for every kind of value; as for the timeout (`TimeoutBadInputTests`) the
/// calls below run in this process because nothing they reach converts a value any other way.
@Suite("retry and progress delays, durations: .infinity, .nan and huge values never crash")
@MainActor
struct NonFiniteDelayTests {
    static let values: [TimeInterval] = [.infinity, -.infinity, .nan, 0, -0.0, -1, 1e300, .greatestFiniteMagnitude,
                                         1e-300, 0.5, 5400]

    @Test("every wait and every wire duration is a whole, bounded number for every value")
    func conversionsAreTotal() {
        for value in Self.values {
            let nanoseconds = Wait.nanoseconds(value)
            #expect(nanoseconds <= 1_000_000_000_000_000_000, "\(value): \(nanoseconds) ns")
            let seconds = WireTime.wholeSeconds(value)
            #expect((0...1_000_000_000).contains(seconds), "\(value): \(seconds) s")
            #expect(WireTime.durationString(value).range(of: #"^[0-9]{2,}:[0-5][0-9]:[0-5][0-9]$"#, options: .regularExpression) != nil,
                    "\(value): \(WireTime.durationString(value))")
        }
        #expect(Wait.nanoseconds(0.5) == 500_000_000 && Wait.nanoseconds(.nan) == 0 && Wait.nanoseconds(-1) == 0)
        #expect(Wait.nanoseconds(.infinity) == Wait.nanoseconds(TimeoutBudget.limit))
        #expect(WireTime.durationString(5400) == "01:30:00" && WireTime.durationString(.nan) == "00:00:00")
        #expect(BMLTTimeOfDay(hour: .max).description == "24:00:00" && BMLTTimeOfDay(hour: .min).description == "00:00:00")
        #expect(BMLTTimeOfDay(hour: 19, minute: 30).description == "19:30:00")
    }

    @Test("a retry policy of infinite delays: the call still ends at its timeout with .timeout, never a second attempt")
    func infiniteRetryDelay() async throws {
        let healthy = SampleReplies.healthy()
        let stub = StubServer { request in request.query("switcher") == "GetServerInfo" ? .json("", status: 503) : healthy(request) }
        var configuration = stub.configuration()
        configuration.retryPolicy = BMLTRetryPolicy(maximumRetries: 3, baseDelay: .infinity, maximumDelay: .infinity, jitter: 0)
        configuration.retryPolicy.baseDelay = .nan   // settable after init too: min(∞, NaN) is ∞, the first wait
        // The deadline ends the infinite wait. (Under a loaded whole run even the first attempt may come after it:
        // then nothing was sent, still .timeout, and never a second attempt.)
        configuration.timeout = 5
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        var thrown: BMLTError?
        do { _ = try await connection.validate() } catch { thrown = error as? BMLTError }
        #expect(thrown == .timeout, "\(String(describing: thrown))")
        #expect(stub.requests.filter { $0.url?.query?.contains("GetServerInfo") == true }.count <= 1, "the first wait never ends")
    }

    @Test("infinite progress delays: the call succeeds and a progress start that never comes is never posted")
    func infiniteProgressDelays() async throws {
        let stub = StubServer(SampleReplies.healthy())
        let recorder = EventRecorder()
        var configuration = stub.configuration(monitors: [recorder])
        configuration.progressStartDelay = .infinity
        configuration.progressStopDelay = .nan
        configuration.timeout = 900    // a hang guard: no deadline is tested here
        let connection = BMLTConnection(rootServerURL: stub.rootURL, configuration: configuration)
        _ = try await connection.validate()
        #expect(connection.server.info != nil)
        #expect(recorder.count(.bmltProgressDidStart) == 0, "\(recorder.names)")
    }

    @Test("a draft's duration of .nan, .infinity, 1e300 or -1 is refused before anything is sent, on 3.x and on 2.16.6; search bounds and order take them")
    func unwritableDurations() throws {
        let legacy = try WireServerInfo.decode(try JSONScanner.parse(FixtureCorpus.data(FixtureCorpus.legacy, "json_GetServerInfo.json")))
        for value: TimeInterval in [.nan, .infinity, 1e300, -1] {
            var draft = BMLTMeetingDraft(serviceBodyID: 3)
            draft.duration = value
            let rest = MeetingDraftRules.problems(in: draft, info: nil, formats: [], serviceBodyIDs: [], options: BMLTSaveOptions(), language: "en")
            #expect(rest.contains { $0.key == "duration_time" && $0.reason == .durationTooLong }, "\(value): \(rest.map(\.key))")
            let old = MeetingDraftRules.problems(in: draft, info: legacy, formats: [], serviceBodyIDs: [], options: BMLTSaveOptions(), language: "en")
            if value.isFinite && value >= 0 {
                #expect(!old.contains { $0.key == "duration_time" }, "\(value): 2.x takes any finite duration")
            } else {
                #expect(old.map(\.key) == ["duration_time"], "\(value): \(old.map(\.key))")
            }
            // Every other path that prints the duration (a change list, the REST body, an export) prints a number.
            #expect(WireMeetingFieldTable.value("duration_time", of: draft.meeting) != nil)
        }
        // A search's duration bounds and the refresh's order read the same values.
        var criteria = BMLTSearchCriteria()
        criteria.minimumDuration = .nan
        criteria.maximumDuration = .infinity
        let items = WireSearchQuery.items(criteria, extent: .meetingsOnly, distanceUnits: .miles)
        #expect(items.filter { $0.name.hasPrefix("MinDuration") || $0.name.hasPrefix("MaxDuration") }
            .allSatisfy { $0.value.flatMap(Int.init) != nil }, "\(items)")
        var meeting = BMLTMeeting(id: 1, serviceBodyID: 1)
        meeting.weekday = .monday
        meeting.startTime = BMLTTimeOfDay(hour: 19)
        meeting.duration = .infinity
        #expect(ServerOrder.sql.key(meeting) != nil)
        var settings = BMLTServerSettings(values: [:])
        settings.defaultDuration = .infinity
        #expect(settings.defaultDuration != nil)
    }
}
