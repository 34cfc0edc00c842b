import BMLTKit
import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    /// The read commands: their flags become the right criteria, bad flags are usage errors (exit 2), and each
    /// command runs against the embedded demo server (exit 0).
    @Suite("bmlt-observer read commands", .serialized)
    @MainActor
    struct ReadCommandTests {
        private func criteria(_ arguments: [String]) throws -> BMLTSearchCriteria {
            try SearchCommand.criteria(from: ObserverCLI.parser.parse(["search"] + arguments))
        }

        @Test("search flags → criteria")
        func searchFlags() throws {
            let criteria = try criteria(["--weekday", "mon,wed", "--weekday", "7", "--service-body", "1002", "--recursive",
                                         "--format", "17", "--format", "3", "--any-format", "--near", "40.7,-73.9", "--radius", "8km",
                                         "--text", "Hope", "--starts-after", "18:30", "--venue", "hybrid", "--page-size", "10", "--page", "2"])
            #expect(criteria.weekdays == [.monday, .wednesday, .saturday])
            #expect(criteria.serviceBodyIDs == [1002] && criteria.includeChildServiceBodies)
            #expect(criteria.formats == .any(of: [17, 3]))
            #expect(criteria.location == .init(latitude: 40.7, longitude: -73.9, radius: .kilometers(8)))
            #expect(criteria.text == "Hope" && criteria.startsAfter == BMLTTimeOfDay(hour: 18, minute: 30))
            #expect(criteria.venueTypes == [.hybrid] && criteria.page == .init(size: 10, number: 2))
            #expect(try self.criteria(["--near", "1,2"]).location?.radius == .nearest(10))
        }

        @Test("bad search flags are usage errors", arguments: [
            ["--weekday", "funday"], ["--near", "91,0"], ["--radius", "5mi"], ["--near", "1,2", "--radius", "far"],
            ["--starts-after", "25:00"], ["--venue", "boat"], ["--page", "2"], ["--service-body", "x"],
        ])
        func badFlags(arguments: [String]) async {
            #expect(throws: UsageError.self) { try self.criteria(arguments) }
            #expect(await ObserverCLI.run(["--no-spinner", "search"] + arguments) == 2)
        }

        @Test("each read command runs against the demo server", arguments: [
            ["search", "--weekday", "mon", "--limit", "3"], ["search", "--near", "41.0,-74.0", "--radius", "nearest:5"],
            ["changes", "--limit", "2"], ["changes", "--from", "2020-01-01", "--to", "2030-12-31"], ["deleted"],
            ["field-keys"], ["field-values", "location_municipality"], ["coverage"], ["naws", "1"],
            ["watch", "--weekday", "tue", "--interval", "0.05", "--count", "2"],
        ])
        func runs(arguments: [String]) async {
            #expect(await ObserverCLI.run(["--no-spinner"] + arguments, environment: hangGuardEnvironment) == 0)
        }

        @Test("watch reports meetings added, removed and changed with the fields that changed")
        func watchDifferences() {
            let old = BMLTMeeting(id: 1, serviceBodyID: 1, name: "Hope", weekday: .monday)
            var renamed = old
            renamed.name = "New Hope"
            let lines = WatchAndMessageCommands.differences(from: [1: old, 2: BMLTMeeting(id: 2, serviceBodyID: 1, name: "Gone")],
                                                            to: [1: renamed, 3: BMLTMeeting(id: 3, serviceBodyID: 1, name: "Fresh")])
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("+ ") && lines[0].contains("Fresh") && lines[1].hasPrefix("- ") && lines[1].contains("Gone"))
            #expect(lines[2] == "~ #1 New Hope: name: Hope → New Hope")
        }

        @Test("missing positionals and bad dates exit 2", arguments: [["field-values"], ["naws"], ["changes", "--from", "yesterday"],
                                                                     ["send-message", "1"], ["send-message", "--from", "a@b.org", "--body", "x"],
                                                                     ["watch", "--interval", "0"], ["watch", "--interval", "inf"], ["watch", "--interval", "nan"]])
        func missing(arguments: [String]) async {
            #expect(await ObserverCLI.run(["--no-spinner"] + arguments) == 2)
        }
    }
}
