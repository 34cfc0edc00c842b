import Foundation

/// The rules for a root server's address: what users paste, and what BMLTKit accepts.
enum RootServerURL {
    /// Suffixes people paste after the root, longest first; everything from the suffix on is dropped.
    private static let pastedSuffixes = [
        "/local_server/server_admin/json.php", "/local_server/server_admin/xml.php", "/local_server/server_admin",
        "/local_server", "/client_interface", "/api/v1", "/semantic", "/index.php",
    ]

    /// Normalises a root server URL: trims white space, trailing slashes, query, fragment and any pasted
    /// `client_interface/…`, `local_server/server_admin/json.php` or `api/v1/…` suffix, and lower-cases the
    /// scheme and host. Refuses `http://` unless the host is loopback or `allowsInsecureHTTP` is set.
    static func normalize(_ url: URL, allowsInsecureHTTP: Bool) throws(BMLTError) -> URL {
        let text = url.absoluteString.trimmingCharacters(in: .whitespacesAndNewlines)
        guard var components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty else {
            throw .invalidURL(text)
        }
        guard scheme == "https" || scheme == "http" else { throw .invalidURL(text) }
        if scheme == "http", !allowsInsecureHTTP, !isLoopback(host) {
            throw .insecureURLRefused(host: host)
        }
        components.scheme = scheme
        components.host = host.lowercased()
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        var path = components.path
        while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
        let lowered = path.lowercased()
        if let cut = pastedSuffixes.compactMap({ lowered.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            path = String(path[..<cut.lowerBound])
        }
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path
        guard let normalized = components.url else { throw .invalidURL(text) }
        return normalized
    }

    /// Whether a host name is this machine (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
        let octets = bare.split(separator: ".")
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `<root>/<path>` with the given query items, encoded so that `+`, `&`, `=` and non-ASCII text survive.
    static func url(root: URL, path: String, query: [URLQueryItem]) -> URL {
        // Every request builds its URL: put together as text when the root is a plain one (no query, fragment or
        // trailing slash), which gives what `URLComponents` gives with a tenth of the allocations.
        if let base = plainBase(of: root), let text = text(base: base, path: path, query: query), let url = URL(string: text) {
            return url
        }
        return viaComponents(root: root, path: path, query: query)
    }

    /// The root's text when a request URL can be put together as text under it: no query, fragment or trailing slash.
    static func plainBase(of root: URL) -> String? {
        let base = root.absoluteString
        return root.query == nil && root.fragment == nil && !base.hasSuffix("/") ? base : nil
    }

    /// `<base>/<path>?<query>` as text, or `nil` when the path holds a character that would need encoding.
    static func text(base: String, path: String, query: [URLQueryItem]) -> String? {
        guard isPlainPath(path) else { return nil }
        var text = base + "/" + path
        if !query.isEmpty {
            text += "?"
            for (index, item) in query.enumerated() {
                if index > 0 { text += "&" }
                text += encode(item.name)
                if let value = item.value { text += "=" + encode(value) }
            }
        }
        return text
    }

    /// `url(root:path:query:)` through `URLComponents`, for any root (and to check the text path against).
    static func viaComponents(root: URL, path: String, query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: root, resolvingAgainstBaseURL: false)!
        components.path = components.path + "/" + path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { item in
                encode(item.name) + (item.value.map { "=" + encode($0) } ?? "")
            }.joined(separator: "&")
        }
        return components.url!
    }

    /// Whether a path holds only bytes it may hold as they are (the paths BMLTKit asks for are all of these).
    private static func isPlainPath(_ path: String) -> Bool {
        path.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }
    }

    /// Percent-encodes a query name or value, byte by byte of its UTF-8: ASCII letters, digits and `-._~,:/` stay as
    /// they are, every other byte becomes `%XX` (upper-case hex). Brackets are encoded (`services%5B%5D`, which PHP
    /// reads as `services[]`); so are `+`, `&`, `=`, `#`, `%` and everything non-ASCII. This is what
    /// `addingPercentEncoding(withAllowedCharacters:)` gives for that set (a test compares them), without bridging
    /// every query value through `NSString`.
    static func encode(_ text: String) -> String {
        if text.utf8.allSatisfy(isQueryAllowed) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isQueryAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The bytes a query name or value keeps as they are.
    private static func isQueryAllowed(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/")
    }
}
