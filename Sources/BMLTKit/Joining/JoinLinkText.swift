import Foundation

/// Turns what a service-body admin typed into `virtual_meeting_link` into an `https` URL, or refuses it.
///
/// Accepted: an `https://` link; `//host/…` and a bare `host/…` (a dotted host name such as `zoom.us/j/123`), which
/// get `https://`; `http://` only for the hosts of the known services (upgraded to `https`); a link inside a short
/// sentence ("Zoom: https://…"), the first one. Stripped: surrounding white space, quotes and angle brackets,
/// trailing punctuation (`.`, `,`, `;`, `:`, `!`, `?`, an unbalanced `)` or `]`). Refused: every other scheme
/// (`javascript:`, `file:`, `data:`, `mailto:`, `zoommtg:`…), links with a user name or password (`https://zoom.us@evil.example`),
/// hosts that are not a dotted ASCII name, and text that is not a link.
enum JoinLinkText {
    /// The cleaned `https` link, or `nil`.
    static func httpsURL(from text: String) -> URL? {
        guard text.utf8.count <= 4_096, let candidate = candidate(in: text) else { return nil }
        var rest = Substring(candidate)
        var wasHTTP = false
        let lower = candidate.lowercased()
        if lower.hasPrefix("https://") {
            rest = rest.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = rest.dropFirst(7)
            wasHTTP = true
        } else if lower.hasPrefix("//") {
            rest = rest.dropFirst(2)
        } else if hasScheme(lower) {
            return nil
        }
        // The authority ends at the first "/", "?" or "#".
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@"), let host = hostName(authority) else { return nil }
        if wasHTTP, BMLTVirtualService(host: host) == .other { return nil }
        let tail = percentEncoded(rest[authorityEnd...])
        let port = authority.firstIndex(of: ":").map { String(authority[$0...]) } ?? ""
        guard port.isEmpty || (port.count <= 6 && port.dropFirst().allSatisfy(\.isASCIIDigit) && port.count > 1) else { return nil }
        guard let url = URL(string: "https://" + host + port + tail), url.scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// The one token that may be a link: the whole text when it is one word, else the first word that starts
    /// with `https://` or `http://`; surrounding quotes, brackets and trailing punctuation removed.
    static func candidate(in text: String) -> String? {
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{200B}" })
        guard !words.isEmpty else { return nil }
        var word: Substring
        if words.count == 1 {
            word = words[0]
        } else if let first = words.first(where: { $0.lowercased().contains("http://") || $0.lowercased().contains("https://") }) {
            word = first
            if let start = word.range(of: "http", options: .caseInsensitive) { word = word[start.lowerBound...] }
        } else {
            return nil
        }
        while let first = word.first, "<\"'“‘([{".contains(first) { word = word.dropFirst() }
        while let last = word.last {
            if ".,;:!?\"'”’>".contains(last) {
                word = word.dropLast()
            } else if last == ")", word.filter({ $0 == "(" }).count < word.filter({ $0 == ")" }).count {
                word = word.dropLast()
            } else if last == "]", word.filter({ $0 == "[" }).count < word.filter({ $0 == "]" }).count {
                word = word.dropLast()
            } else {
                break
            }
        }
        return word.isEmpty ? nil : String(word)
    }

    /// Whether the text starts with a URL scheme (`letters:` not followed by a port number).
    private static func hasScheme(_ lower: String) -> Bool {
        guard let colon = lower.firstIndex(of: ":") else { return false }
        let scheme = lower[..<colon]
        guard let first = scheme.first, first.isASCIILetter,
              scheme.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "+" || $0 == "-" || $0 == "." }) else {
            // Something before the colon that is no scheme, e.g. "zoom.us/j/1?x=a:b": a scheme has no "/".
            return false
        }
        // "zoom.us:443/j/1" is a host and a port, not the scheme "zoom.us".
        let after = lower[lower.index(after: colon)...]
        if scheme.contains("."), let next = after.first, next.isASCIIDigit { return false }
        return true
    }

    /// The lower-cased host of an authority (`host` or `host:port`), when it is a dotted ASCII name whose last
    /// label is letters (so "123.456.7890" is no host).
    private static func hostName(_ authority: Substring) -> String? {
        var host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard host.utf8.count <= 253, labels.count >= 2,
              labels.allSatisfy({ label in
                  !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                      && label.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" }
              }),
              let top = labels.last, top.count >= 2, top.allSatisfy({ $0.isASCIILetter || ($0.isASCIIDigit && top.hasPrefix("xn--")) || $0 == "-" })
        else { return nil }
        return host
    }

    /// The path, query and fragment with every character a URL may not hold percent-encoded (UTF-8), and `%`
    /// kept only where it starts a valid escape; so `URL(string:)` reads the same on every platform.
    static func percentEncoded(_ text: Substring) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=")
        var result = ""
        let characters = Array(text)
        var hashes = 0
        for (index, character) in characters.enumerated() {
            if character == "%", index + 2 < characters.count,
               characters[index + 1].isHexDigit, characters[index + 2].isHexDigit,
               characters[index + 1].isASCII, characters[index + 2].isASCII {
                result.append(character)
            } else if character == "#" {
                // A second "#" cannot stand in a URL.
                hashes += 1
                result += hashes == 1 ? "#" : "%23"
            } else if (character == "[" || character == "]") {
                result += character == "[" ? "%5B" : "%5D"
            } else if allowed.contains(character) {
                result.append(character)
            } else {
                for byte in String(character).utf8 { result += String(format: "%%%02X", byte) }
            }
        }
        return result
    }
}

extension Character {
    /// `a`–`z` or `A`–`Z`.
    var isASCIILetter: Bool { isASCII && isLetter }
    /// `0`–`9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
