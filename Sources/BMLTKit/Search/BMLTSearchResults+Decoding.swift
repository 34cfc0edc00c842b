import Foundation

extension BMLTSearchResults {
    /// Decodes the body of a `GetSearchResults` reply: the JSON a root server sends for a search (a list of
    /// meetings, or an object with `meetings` and `formats`), for example one an app saved for offline use.
    ///
    /// This is the decoder every search uses: a single pass over the UTF-8 bytes into typed meetings, with the
    /// wire's quirks resolved (numbers as strings, `""` for absent, weekday 1 = Sunday, `HH:MM:SS` times).
    /// Format keys and ids resolve against the reply's own formats first, then `serverFormats`.
    ///
    /// - Throws: `BMLTError.malformedResponse` naming what is wrong (and at which byte, for broken JSON).
    public init(jsonData: Data, serverFormats: [BMLTFormat] = []) throws(BMLTError) {
        self = try WireSearchStream.decode(jsonData, serverFormats: serverFormats)
    }

    /// The generic decoder the streaming one is checked against (a JSON tree, then the same meeting mapping).
    /// For benchmarks and tests only.
    @_spi(Benchmarks)
    public init(referenceDecoding jsonData: Data, serverFormats: [BMLTFormat] = []) throws(BMLTError) {
        self = try WireSearchStream.reference(jsonData, serverFormats: serverFormats)
    }
}
