import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import BMLTKit

/// Cancelling administration at each stage leaves no half-done state: no half-open login, no stuck flag, the
/// stores as they were, and the next operation works.
@Suite("Cancelling administration")
@MainActor
struct AdminCancellationTests {
    /// A 3.x server whose steps take `delay` seconds when `slow` says so.
    private func server(slow: Locked<Set<String>>) -> (BMLTConnection, EventRecorder, StubServer) {
        let stub = StubServer { request in
            let path = request.url!.path
            // Slow steps answer after 600 s: the cancel (sent once the slow step is at the server) always comes first, even
            // when a busy machine stalls the test for seconds (the cancelled request never waits for the answer).
            // A write's look-up after a cancellation reads the meeting: only the write itself is slow.
            let isLookUp = request.httpMethod == "GET" && path.hasSuffix("meetings/5")
            let delay = !isLookUp && slow.withLock { set in set.contains { path.hasSuffix($0) } } ? 600.0 : 0
            if path.contains("client_interface") {
                return request.query("switcher") == "GetServerInfo" ? .json(SampleReplies.serverInfo3x) : .json("[]")
            }
            if path.hasSuffix("auth/token") {
                return .json(#"{"access_token":"1|tok","expires_at":\#(Int(Date().timeIntervalSince1970) + 86_400),"user_id":1}"#, delay: delay)
            }
            if path.hasSuffix("users/1") { return .json(#"{"id":1,"username":"a","type":"admin"}"#, delay: delay) }
            if path.hasSuffix("servicebodies") { return .json(#"[{"id":10,"name":"A"}]"#, delay: delay) }
            if path.hasSuffix("auth/logout") { return .text("") }
            if request.httpMethod == "GET" { return .json(#"{"id":5,"serviceBodyId":10,"name":"Saved","day":1,"formatIds":[]}"#, delay: delay) }
            return StubServer.Response(status: 204, headers: [:], delay: delay)
        }
        let recorder = EventRecorder()
        return (BMLTConnection(rootServerURL: stub.rootURL, configuration: stub.configuration(monitors: [recorder])), recorder, stub)
    }

    /// Cancels `request` once the slow step has reached the server (a request after the first `sent` that `isStep`
    /// says is it), so "after its request was sent" is an order of events, not a guess of 0.3 s on a loaded machine.
    private func cancelOnceAtServer(_ request: BMLTRequest, _ connection: BMLTConnection, _ stub: StubServer, after sent: Int,
                                    _ step: String, _ isStep: (URLRequest) -> Bool) async {
        await waitUntil("the \(step) request is at the server") { stub.requests.dropFirst(sent).contains { isStep($0) } }
        request.cancel()
        await waitUntil("the connection is idle") { !connection.isBusy }
    }

    @Test("cancelling a login while the token or the permissions are on their way: not logged in, and the next login works",
          arguments: ["auth/token", "servicebodies"])
    func login(slowStep: String) async throws {
        let slow = Locked<Set<String>>([slowStep])
        let (connection, recorder, stub) = server(slow: slow)
        _ = try await connection.validate()
        let sent = stub.requests.count
        await cancelOnceAtServer(connection.startLogin(username: "a", password: "p"), connection, stub, after: sent, slowStep) {
            $0.url!.path.hasSuffix(slowStep)
        }
        #expect(!connection.admin.isLoggedIn && !connection.adminSession.isLoggedIn && connection.admin.lastError == nil)
        #expect(recorder.count(.bmltRequestCancelled) == 1 && recorder.count(.bmltAdminLoginChanged) == 0 && recorder.errors.isEmpty)
        slow.withLock { $0 = [] }
        try await connection.login(username: "a", password: "p")
        #expect(connection.admin.isLoggedIn && connection.adminSession.isLoggedIn)
    }

    @Test("cancelling a second login ends the first too, and says so")
    func relogin() async throws {
        let slow = Locked<Set<String>>([])
        let (connection, recorder, stub) = server(slow: slow)
        try await connection.login(username: "a", password: "p")
        slow.withLock { $0 = ["auth/token"] }
        let sent = stub.requests.count
        await cancelOnceAtServer(connection.startLogin(username: "b", password: "p"), connection, stub, after: sent, "second login's token") {
            $0.url!.path.hasSuffix("auth/token")
        }
        #expect(!connection.admin.isLoggedIn && !connection.adminSession.isLoggedIn)
        #expect(recorder.names.filter { !$0.hasPrefix("progress") }.suffix(2) == ["admin.loginChanged", "request.cancelled"])
    }

    /// Here the meeting reads back saved, so the save is reported saved; the meeting is still there, so the delete is a
    /// clean cancellation.
    @Test("cancelling a save or a delete after its request was sent: the outcome is what the server holds; the login stays, the next call works",
          arguments: ["save", "delete"])
    func write(kind: String) async throws {
        let slow = Locked<Set<String>>([])
        let (connection, recorder, stub) = server(slow: slow)
        try await connection.login(username: "a", password: "p")
        slow.withLock { $0 = ["meetings/5"] }
        var draft = BMLTMeeting(id: 5, serviceBodyID: 10, name: "Old").editable()
        draft.name = "Saved"
        let sent = stub.requests.count
        let request = kind == "save" ? connection.save(draft) : connection.deleteMeeting(id: 5)
        await cancelOnceAtServer(request, connection, stub, after: sent, kind) { $0.httpMethod != "GET" && $0.url!.path.hasSuffix("meetings/5") }
        #expect(connection.admin.isLoggedIn && connection.admin.lastError == nil && connection.lastError == nil)
        if kind == "save" {
            // The server holds the draft's values: the save was done, and is reported as done (not cancelled).
            #expect(recorder.count(.bmltRequestCancelled) == 0 && recorder.count(.bmltMeetingSaved) == 1)
        } else {
            // The meeting is still there: the delete was not done, a clean cancellation, nothing sent again.
            #expect(recorder.count(.bmltRequestCancelled) == 1 && recorder.count(.bmltMeetingDeleted) == 0)
        }
        #expect(connection.inFlightRequests.isEmpty && recorder.errors.isEmpty)
        slow.withLock { $0 = [] }
        if kind == "save" {
            #expect(try await connection.saveAndWait(draft).meeting.name == "Saved")
        } else {
            try await connection.deleteMeetingAndWait(id: 5)
        }
        #expect(recorder.count(.bmltProgressDidStart) == recorder.count(.bmltProgressDidStop))
    }

    /// Issue 41's review (D9): a change that is not looked up may be held by the server once its request was sent.
    @Test("cancelling a server administration delete after its request was sent: open (not looked up), not a clean cancel")
    func serverAdministrationChange() async throws {
        // Only the DELETE of service body 10 is slow (the login reads the list, `servicebodies`).
        let (connection, recorder, stub) = server(slow: Locked(["servicebodies/10"]))
        try await connection.login(username: "a", password: "p")
        let sent = stub.requests.count
        let request = connection.perform(.deleteServiceBody(id: 10, force: false))
        await cancelOnceAtServer(request, connection, stub, after: sent, "service body delete") { $0.url!.path.hasSuffix("servicebodies/10") }
        #expect(recorder.count(.bmltRequestCancelled) == 0 && connection.inFlightRequests.isEmpty)
        guard case .writeOutcomeUnknown(let open)? = recorder.errors.first else {
            Issue.record("expected an open outcome, got \(recorder.errors)")
            return
        }
        #expect(open.finding == .notLookedUp && open.writeKind == .serverAdministration && open.loss == .cancelled)
        #expect(connection.admin.isLoggedIn)
    }
}
