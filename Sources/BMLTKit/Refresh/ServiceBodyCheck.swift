import Foundation

/// What the change log does not record about service bodies: one renamed (4.x lists each meeting's
/// `service_body_name`, `rootserver-4x/005-GetSearchResults-services-weekday.json`). The names the list shows are
/// compared with `GetServiceBodies`; the meetings whose name changed are asked for again with the others. A service
/// body moved to another parent changes only what a search of child service bodies finds: such a search is
/// downloaded whole (`MeetingRefresh.serverRanked`).
enum ServiceBodyCheck {
    /// The ids of the meetings of `previous` whose service body's name is now another (or whose body is gone).
    static func affected(_ previous: BMLTSearchResults, _ context: OperationContext) async -> Result<Set<Int>, BMLTError> {
        let named = previous.meetings.filter { $0.serviceBodyName != nil }
        guard !named.isEmpty else { return .success([]) }
        let bodies: [BMLTServiceBody]
        do {
            let reply = try await context.freshSemanticReply("GetServiceBodies", [], unique: true)
            context.transport.refreshMemory.noteServiceBodies(bytes: reply.data.count)
            bodies = try WireServiceBody.decodeList(try WireReply.body(reply.data, what: .serviceBodies))
        } catch {
            return .failure(error)
        }
        let names = Dictionary(bodies.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let changed = named.filter { names[$0.serviceBodyID] != $0.serviceBodyName }
        if !changed.isEmpty {
            context.transport.log.note("refresh: the service body names of \(changed.count) meetings changed on the server: "
                                       + "asked for again")
        }
        return .success(Set(changed.map(\.id)))
    }
}
