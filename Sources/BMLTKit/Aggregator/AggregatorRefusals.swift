/// What an aggregator cannot do, refused before anything is sent (`BMLTError.unsupported` naming the reason).
///
/// An aggregator only imports other root servers: it deletes its change log at every import (so change lists
/// and deleted meetings are always empty), refuses every meeting, format, service body and user write with 403
/// even for its server administrator, and has no messages to contacts.
enum AggregatorRefusal {
    /// Throws `.unsupported` when the connection knows (from validation) that the server is an aggregator.
    static func refuse(_ info: BMLTServerInfo?, _ what: String, because reason: String) throws(BMLTError) {
        guard info?.aggregatorModeEnabled == true else { return }
        throw .unsupported("\(what) on an aggregator: \(reason)")
    }

    /// The change list and deleted meetings.
    static func changes(_ info: BMLTServerInfo?, _ what: String) throws(BMLTError) {
        try refuse(info, what, because: "it deletes its change log at every import, so the list is always empty; "
                   + "ask the root server the meeting comes from (connection.server.rootServer(of:))")
    }

    /// Meeting edits and server-administration writes.
    static func writes(_ info: BMLTServerInfo?, _ what: String) throws(BMLTError) {
        try refuse(info, what, because: "it refuses every write with 403, even for its administrator; "
                   + "edit the meeting on the root server it was imported from")
    }
}
