import Foundation
import Testing
@testable import BMLTKit

/// What 1.0 promised of its values (review R12–R14): a finding named by kind, a write kind that grows without breaking
/// a `switch`, and equality that holds for every value, a NaN timeout's error included.
@Suite("Growing types: Finding.name, BMLTWriteKind, equality for every value")
struct GrowingTypesTests {
    @Test("every finding has a stable name, its static member's, whatever details it carries (review R12)")
    func findingNames() {
        let findings: [(BMLTUnknownWriteOutcome.Finding, String)] = [
            (.lookUpFailed(.timeout), "lookUpFailed"), (.severalCandidates(ids: [1, 2]), "severalCandidates"),
            (.changedElsewhere(keys: ["meeting_name"]), "changedElsewhere"), (.loginExpired, "loginExpired"),
            (.loginChanged, "loginChanged"), (.doneButUnread(id: 3, .timeout), "doneButUnread"),
            (.noRecordButSimilar(ids: [4]), "noRecordButSimilar"), (.notLookedUp, "notLookedUp"),
            (.notFoundYet, "notFoundYet"), (.unmatchedRecord(ids: [5]), "unmatchedRecord"),
        ]
        for (finding, name) in findings { #expect(finding.name == name, "\(finding)") }
        #expect(Set(findings.map { $0.0.name }).count == BMLTUnknownWriteOutcome.Finding.Kind.allCases.count,
                "one row per kind: a new kind needs its row here")
        // Details do not change the name: a host tells two candidates' lists apart from a look-up failure by name.
        #expect(BMLTUnknownWriteOutcome.Finding.severalCandidates(ids: [7, 8]).name == "severalCandidates")
        #expect(BMLTUnknownWriteOutcome.Finding.lookUpFailed(.cancelled).description.hasPrefix("lookUpFailed("))
    }

    @Test("a NaN timeout's error equals itself, in a Set too; every other value compares as before (review R14)")
    func nanEqualsItself() {
        let error = BMLTError.invalidArgument(.invalidTimeout(.nan))
        #expect(error == error)
        #expect(BMLTError.invalidArgument(.invalidTimeout(.nan)) == .invalidArgument(.invalidTimeout(-.nan)))
        #expect(Set([error, .invalidArgument(.invalidTimeout(-.nan)), .invalidArgument(.invalidTimeout(.signalingNaN))]).count == 1)
        #expect(BMLTError.Argument.invalidTimeout(0) == .invalidTimeout(-0.0))
        #expect(Set([BMLTError.Argument.invalidTimeout(0), .invalidTimeout(-0.0)]).count == 1)
        #expect(BMLTError.Argument.invalidTimeout(.nan) != .invalidTimeout(1))
        #expect(BMLTError.Argument.invalidTimeout(-1) != .invalidTimeout(1) && BMLTError.Argument.invalidTimeout(2) == .invalidTimeout(2))
        #expect(BMLTError.Argument.emptyFieldKey != .invalidTimeout(.nan) && BMLTError.Argument.nearestNoneInWindow(0) != .nearestNoneInWindow(1))
        // Held deeper: an open outcome whose loss or finding holds that error.
        let open = BMLTUnknownWriteOutcome(writeKind: .saveMeeting, itemID: 1, loss: error, finding: .lookUpFailed(error))
        #expect(open == open && BMLTError.writeOutcomeUnknown(open) == .writeOutcomeUnknown(open))
    }

    @MainActor
    @Test("a connection configured with a NaN timeout keeps an error equal to itself in lastError")
    func nanTimeoutConnection() async throws {
        var configuration = BMLTConfiguration(notificationCenter: NotificationCenter())
        configuration.timeout = .nan
        let connection = BMLTConnection(rootServerURL: try #require(URL(string: "https://nan.stub.test/main_server")), configuration: configuration)
        await #expect(throws: BMLTError.invalidArgument(.invalidTimeout(.nan))) { try await connection.validate() }
        let last = try #require(connection.lastError)
        #expect(last == last && connection.lastError == connection.lastError)
    }

    @Test("BMLTWriteKind: 1.0.0's ten writes by name, matched in a switch with default, encoded as 1.0.0's Write was")
    func writeKinds() throws {
        let kinds: [BMLTWriteKind] = [.createMeeting, .saveMeeting, .deleteMeeting, .restoreMeeting, .rollbackMeeting,
                                      .createFormat, .createServiceBody, .createUser, .serverAdministration, .contactMessage]
        #expect(kinds.map(\.name) == ["createMeeting", "saveMeeting", "deleteMeeting", "restoreMeeting", "rollbackMeeting",
                                      "createFormat", "createServiceBody", "createUser", "serverAdministration", "contactMessage"])
        #expect(kinds.map(\.description) == kinds.map(\.name) && Set(kinds).count == 10)
        // Every kind has words of its own in every language (no kind falls to the generic "another change").
        for kind in kinds where kind != .serverAdministration {
            for language in BMLTLocalization.supportedLanguages {
                #expect(WriteOutcomeSentences.name(kind, id: nil, in: language)
                        != WriteOutcomeSentences.name(.serverAdministration, id: nil, in: language), "\(kind) in \(language)")
            }
        }
        // Encoded as the name, a JSON string, as the 1.0.0 enum's raw value was: a stored draft's outcome reads back.
        let encoded = try JSONEncoder().encode([BMLTWriteKind.createMeeting, .contactMessage])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["createMeeting","contactMessage"]"#)
        #expect(try JSONDecoder().decode([BMLTWriteKind].self, from: encoded) == [.createMeeting, .contactMessage])
        // A name a later release adds is kept, not refused.
        let later = try JSONDecoder().decode(BMLTWriteKind.self, from: Data(#""createRootServer""#.utf8))
        #expect(later.name == "createRootServer" && later != .serverAdministration)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(BMLTWriteKind.self, from: Data("17".utf8)) }
        // A host's switch: static members match, the rest goes to default.
        func advice(_ kind: BMLTWriteKind) -> String {
            switch kind {
            case .createMeeting: return "look"
            case .contactMessage: return "ask"
            default: return kind.name
            }
        }
        #expect(advice(.createMeeting) == "look" && advice(.contactMessage) == "ask" && advice(later) == "createRootServer")
    }

    @Test("BMLTError stays small: its large payloads are indirect (every async frame, Result and continuation holds one)")
    func errorStaysSmall() {
        // 1.0.0 held an edit conflict (761 bytes: the meeting as the server holds it) and a deleted meeting (1,624 bytes:
        // the change record with its before and after) inline: BMLTError was 1,625 bytes, and every `throws(BMLTError)`
        // frame, `Result<_, BMLTError>` and resumed continuation of a request copied that much (issue 59: bmlt-bench's
        // pipeline page-faulted 14 times as often as bare URLSession). Indirect, they are a pointer each.
        #expect(MemoryLayout<BMLTError>.size <= 128, "\(MemoryLayout<BMLTError>.size) bytes")
        #expect(MemoryLayout<Result<HTTPReply, BMLTError>>.size <= 256)
        // Values still compare and read back as before.
        let conflict = BMLTEditConflict(meetingID: 42, fields: [], current: BMLTMeeting(id: 42, serviceBodyID: 1, name: "Hope", weekday: .monday))
        #expect(BMLTError.editConflict(conflict) == .editConflict(conflict))
        if case .editConflict(let read) = BMLTError.editConflict(conflict) { #expect(read.current.id == 42) } else { Issue.record("case") }
    }

    @Test("PreviousResultsMismatch: two frozen reasons, named under previousResults; a later one comes as an Argument")
    func previousResultsNames() {
        #expect(BMLTError.Argument.previousResults(.otherServer).name == "previousResults.otherServer")
        #expect(BMLTError.Argument.previousResults(.otherSearch).name == "previousResults.otherSearch")
        let refused = BMLTError.invalidArgument(.previousResults(.otherSearch))
        if case .invalidArgument(.previousResults(.otherSearch)) = refused {} else { Issue.record("matched by value: \(refused)") }
    }

    /// Review of the 1.1.0 merge, finding 21: `Argument`'s `==` and `hash(into:)` are written by hand (for NaN), so a
    /// stored property added later would be left out of both without a word. This names the ones they compare.
    @Test("Argument's hand-written == and hash compare every stored property: key, value, seconds (a new one must join them)")
    func argumentEqualityCoversEveryProperty() {
        let labels = Mirror(reflecting: BMLTError.Argument.invalidTimeout(1)).children.compactMap(\.label)
        #expect(labels == ["key", "value", "seconds"], "add \(labels) to Argument.== and hash(into:), then here")
        #expect(BMLTError.Argument.invalidTimeout(1) != .invalidTimeout(2) && BMLTError.Argument.nearestNoneInWindow(1) != .nearestNoneInWindow(2))
        #expect(BMLTError.Argument.invalidTimeout(1) != .nearestNoneInWindow(1))
    }
}
