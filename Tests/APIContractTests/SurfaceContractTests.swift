import BMLTKit
import CaptureReplay
import Foundation
import Testing

/// The public surface as an app compiles against it (no `@testable`): issue 49's "a surface to keep".
@Suite("API contract: the surface an app compiles against", .serialized)
@MainActor
struct SurfaceContractTests {
    /// Inside an `async` function a bare server-administration verb is the fire-and-forget form: it returns its
    /// `BMLTRequest` with no `await` (while the deprecated `async` forwarders of the same names existed, this file did
    /// not compile: Swift picked the `async` overload, "expression is 'async' but is not marked with 'await'").
    /// Against the captured 3.1.2 server: `DELETE /api/v1/formats/17` answered 409 (`133-format-delete-in-use-409.json`).
    @Test("in async code, deleteFormat(id:) is the fire-and-forget form; its outcome arrives as an event", .needsCaptures)
    func bareVerbIsFireAndForgetInAsyncCode() async throws {
        let http = try RESTAdminReplay.start(folder: "rootserver-3x")
        defer { http.stop() }
        let connection = BMLTConnection(rootServerURL: http.baseURL.appendingPathComponent("main_server"),
                                        configuration: BMLTConfiguration(timeout: hangGuardTimeout))   // a hang guard (issue 50)
        _ = try await connection.validate()
        try await connection.login(username: "serveradmin", password: RESTAdminReplay.password)
        var events = connection.events.makeAsyncIterator()

        let request = connection.deleteFormat(id: 17)          // no `await`, no `try`: fire-and-forget
        #expect(type(of: request) == BMLTRequest.self)
        var outcome: BMLTError?
        while let event = await events.next() {
            if case .error(let error, let failed) = event, failed == request { outcome = error; break }
            if case .serverAdminSaved(_, let done) = event, done == request { break }
        }
        guard case .conflict(let message)? = outcome else { Issue.record("outcome: \(String(describing: outcome))"); return }
        #expect(message?.hasSuffix("You cannot delete a format while meetings are using it.") == true)
        #expect(http.requests.contains { $0.method == "DELETE" && $0.path.hasSuffix("api/v1/formats/17") })

        // The waiting form is spelled AndWait, and throws the same typed error.
        do {
            try await connection.deleteFormatAndWait(id: 17)
            Issue.record("a format in use was deleted")
        } catch {
            #expect(error as? BMLTError == .conflict(message: message))
        }
    }

    /// Every bare verb of server administration, in `async` code, starts a request without `await` (the requests are
    /// cancelled at once, before any login; the server is a closed loopback port).
    @Test("in async code, every bare server-administration verb returns a BMLTRequest without await")
    func everyBareVerbIsFireAndForget() async throws {
        let connection = BMLTConnection(rootServerURL: URL(string: "http://127.0.0.1:9/main_server/")!)
        let format = BMLTAdminFormat(worldID: "VM", type: "FC2", translations: [.init(key: "TV", name: "Test", language: "en")])
        let body = BMLTAdminServiceBody(parentID: 1, name: "Area", type: "AS", adminUserID: 3, assignedUserIDs: [])
        let user = BMLTAdminUser(username: "tester", type: "observer", displayName: "Tester", ownerID: 1)
        let requests: [BMLTRequest] = [
            connection.createFormat(format), connection.patchFormat(format, from: format), connection.deleteFormat(id: 1),
            connection.createServiceBody(body), connection.patchServiceBody(body, from: body),
            connection.deleteServiceBody(id: 1), connection.createUser(user, password: "S3cret-pw!"),
            connection.patchUser(user, from: user), connection.deleteUser(id: 1),
            connection.patchServerSettings(["language": .string("en")]),
        ]
        requests.forEach { $0.cancel() }
        #expect(requests.count == 10 && Set(requests).count == 10 && requests.allSatisfy(\.isCancelled))
    }

    /// `BMLTError.Subject` is a struct: a `switch` names the subjects it handles (`~=`), payloads are properties,
    /// and `default` takes the rest — including subjects a later release adds.
    @Test("a switch over BMLTError.Subject matches by name, with default; ids and keys are properties")
    func subjectSwitch() {
        func describe(_ subject: BMLTError.Subject) -> String {
            switch subject {
            case .meetingSearch: return "search"
            case .meeting(id: 42): return "meeting 42"
            case .fieldValues(key: "location_municipality"): return "towns"
            default: return "other \(subject.name) \(subject.id.map(String.init) ?? "-") \(subject.fieldKey ?? "-")"
            }
        }
        #expect(describe(.meetingSearch) == "search")
        #expect(describe(.meeting(id: 42)) == "meeting 42")
        #expect(describe(.meeting(id: 7)) == "other meeting 7 -")
        #expect(describe(.fieldValues(key: "location_municipality")) == "towns")
        #expect(describe(.fieldValues(key: "weekday_tinyint")) == "other fieldValues - weekday_tinyint")
        #expect(describe(.format(id: 56)) == "other format 56 -")
        #expect(BMLTError.Subject.meeting(id: 42) == .meeting(id: 42) && BMLTError.Subject.meeting(id: 42) != .format(id: 42))
        #expect(Set<BMLTError.Subject>([.formats, .formats, .users]).count == 2)
        #expect(BMLTError.Subject.meeting(id: 42).description == "meeting 42")
        #expect(BMLTError.Subject.meetingSearch.description == "the meeting search results")

        // In an error, as apps match it.
        let error = BMLTError.malformedResponse(what: .meeting(id: 42), detail: .emptyBody)
        guard case .malformedResponse(let what, .emptyBody) = error, what == .meeting(id: 42), what.id == 42 else {
            Issue.record("\(error)"); return
        }
        if case .malformedResponse(.meetingSearch, _) = error { Issue.record("matched another subject") }
    }

    /// `BMLTError.Argument` is a struct too: `==`, `switch` with `default`, the number as a property.
    @Test("BMLTError.Argument matches by name, with default; its number is a property")
    func argumentSwitch() {
        func describe(_ argument: BMLTError.Argument) -> String {
            switch argument {
            case .emptyFieldKey: return "key"
            case .nearestNoneInWindow(0): return "none"
            default: return "\(argument.name) \(argument.value.map(String.init) ?? "-")"
            }
        }
        #expect(describe(.emptyFieldKey) == "key")
        #expect(describe(.nearestNoneInWindow(0)) == "none")
        #expect(describe(.nearestNoneInWindow(-2)) == "nearestNoneInWindow -2")
        #expect(describe(.aggregatorSearchWithoutFilter) == "aggregatorSearchWithoutFilter -")
        #expect(BMLTError.invalidArgument(.emptyFieldKey) == .invalidArgument(.emptyFieldKey))
        #expect(BMLTError.invalidArgument(.emptyFieldKey) != .invalidArgument(.aggregatorSearchWithoutFilter))
        #expect(BMLTError.Argument.emptyFieldKey.description == "a field key is needed")
    }

    /// A `switch` over `BMLTError` itself ends in `default`, as its documentation says (new cases come in minor
    /// releases); `catch` patterns on its cases keep working.
    @Test("BMLTError: catch by case, switch with default")
    func errorSwitchWithDefault() async {
        func sentence(_ error: BMLTError) -> String {
            switch error {
            case .timeout: return "later"
            case .unsupported(let what): return "not here: \(what)"
            default: return error.localizedDescription(for: Locale(identifier: "en"))
            }
        }
        #expect(sentence(.timeout) == "later")
        #expect(sentence(.unsupported(.serverSettings)).hasPrefix("not here: server settings"))
        #expect(!sentence(.cancelled).isEmpty)
        do { throw BMLTError.cancelled } catch BMLTError.cancelled { } catch { Issue.record("\(error)") }
    }
}
