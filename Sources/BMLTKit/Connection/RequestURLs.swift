import Foundation

/// The request URLs of one connection, remembered: `RootServerURL.url(root:path:query:)`, with the root's text and
/// the URLs already parsed kept for the next request. Every request builds its URL, and most are ones the connection
/// has built before (validation, formats, service bodies, the same search again); parsing the text into a `URL` was
/// the largest cost of building it.
///
/// ```swift
/// let urls = RequestURLs()
/// let url = urls.url(root: root, path: "client_interface/json/", query: [URLQueryItem(name: "switcher", value: "GetFormats")])
/// ```
final class RequestURLs: Sendable {
    private struct State {
        /// The root last asked for, and its text when it is a plain one (no query, fragment or trailing slash).
        var root: URL?
        var plainBase: String?
        /// URLs parsed from their text; emptied when it reaches `capacity`.
        var parsed: [String: URL] = [:]
    }

    private let state = Locked(State())
    private let capacity: Int

    /// Remembers up to `capacity` URLs (then starts again).
    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The URL for `path` and `query` under `root`: the same as `RootServerURL.url(root:path:query:)`.
    func url(root: URL, path: String, query: [URLQueryItem]) -> URL {
        let base = state.withLock { state -> String? in
            if state.root != root {
                state.root = root
                state.plainBase = RootServerURL.plainBase(of: root)
            }
            return state.plainBase
        }
        // Where the text path does not apply, what `RootServerURL.url` would fall back to, without trying it again.
        guard let base, let text = RootServerURL.text(base: base, path: path, query: query) else {
            return RootServerURL.viaComponents(root: root, path: path, query: query)
        }
        if let known = state.withLock({ $0.parsed[text] }) { return known }
        guard let url = URL(string: text) else { return RootServerURL.viaComponents(root: root, path: path, query: query) }
        state.withLock { state in
            if state.parsed.count >= capacity { state.parsed.removeAll(keepingCapacity: true) }
            state.parsed[text] = url
        }
        return url
    }
}
