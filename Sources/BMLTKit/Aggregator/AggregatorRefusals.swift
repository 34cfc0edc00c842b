/// What an aggregator cannot do, refused before anything is sent (`BMLTError.unsupported` naming the reason).
///
/// An aggregator only imports other root servers: it deletes its change log at every import (so change lists
/// and deleted meetings are always empty), refuses every meeting, format, service body and user write with 403
/// even for its server administrator, and has no messages to contacts.
enum AggregatorRefusal {
    /// The change list and deleted meetings: `.unsupported(.aggregatorChangeLog)` when the connection knows (from
    /// validation) that the server is an aggregator.
    static func changes(_ info: BMLTServerInfo?, _ what: BMLTError.Subject) throws(BMLTError) {
        guard info?.aggregatorModeEnabled == true else { return }
        throw .unsupported(.aggregatorChangeLog(what))
    }

    /// Meeting edits and server-administration writes: `.unsupported(.aggregatorWrite)` on an aggregator.
    static func writes(_ info: BMLTServerInfo?, _ what: BMLTError.Subject) throws(BMLTError) {
        guard info?.aggregatorModeEnabled == true else { return }
        throw .unsupported(.aggregatorWrite(what))
    }
}
