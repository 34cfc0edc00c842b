import Observation

/// What the connection knows about its server, kept up to date on the main actor.
///
/// Filled by validation; a failed validation sets `lastError` and `isValid = false` but keeps the last good
/// info, formats and service bodies.
@MainActor
@Observable
public final class BMLTServerStore {
    /// What the server said about itself.
    public internal(set) var info: BMLTServerInfo?
    /// All the server's formats (in the server's language).
    public internal(set) var formats: [BMLTFormat] = []
    /// All service bodies, flat, in the server's order.
    public internal(set) var serviceBodies: [BMLTServiceBody] = [] {
        didSet { if serviceBodies != oldValue { serviceBodyTree = BMLTServiceBody.tree(from: serviceBodies) } }
    }
    /// The service bodies as a tree: the roots, each with its children. Orphans stay at the root.
    public private(set) var serviceBodyTree: [BMLTServiceBodyNode] = []
    /// The languages the server offers.
    public internal(set) var languages: [BMLTLanguage] = []
    /// What the server supports.
    public internal(set) var capabilities: BMLTCapabilities = []
    /// The formats used by at least one meeting (from `allUsedFormats()`).
    public internal(set) var usedFormats: [BMLTFormat] = []
    /// The fields the server's meetings have (from `fieldKeys()`).
    public internal(set) var fieldKeys: [BMLTFieldKey] = []
    /// The box holding all the server's meetings (from `coverageArea()`).
    public internal(set) var coverageArea: BMLTCoverageArea?
    /// An aggregator's root servers (fetched at validation, and by `rootServers()`); empty on a root server.
    public internal(set) var rootServers: [BMLTRootServer] = []
    /// Whether the last validation succeeded.
    public internal(set) var isValid = false
    /// The last error of a server-level operation (validation, formats, service bodies, field keys and values,
    /// coverage area, NAWS export); `nil` after one succeeds.
    public internal(set) var lastError: BMLTError?

    nonisolated init() {}

    /// The format with this id, if the server has it.
    public func format(id: Int) -> BMLTFormat? { formats.first { $0.id == id } }

    /// The service body with this id, if the server has it.
    public func serviceBody(id: Int) -> BMLTServiceBody? { serviceBodies.first { $0.id == id } }
}
