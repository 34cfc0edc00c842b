import Foundation

/// `client_interface/contact.php`: its bare-integer replies, and the checks it applies to a sender's address.
enum WireContactReply {
    /// `1` → sent; `0`, `-1` … `-4` → the rejection; anything else is a malformed reply.
    static func decode(_ reply: HTTPReply) throws(BMLTError) {
        try WireReply.checkStatus(reply)
        let text = reply.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let code = Int(text) else {
            throw .malformedResponse(what: .contactMessage,
                                     detail: text.hasPrefix("<") ? .page : .unexpectedShape(expected: "1 | 0 | -1 … -4"))
        }
        if code == 1 { return }
        guard let rejection = BMLTMessageRejection(rawValue: code) else {
            throw .malformedResponse(what: .contactMessage, detail: .unknownResultCode(code))
        }
        throw .messageRejected(rejection)
    }

    /// Whether the server will accept `address` as a sender: the server's own rule (letters, digits, `_ . -`
    /// before the `@`; a dotted domain ending in 2–6 letters), and no header-injection characters.
    static func isAcceptableSender(_ address: String) -> Bool {
        let lowered = address.lowercased()
        if lowered.contains("\r") || lowered.contains("\n") || lowered.contains(";")
            || lowered.contains("to:") || lowered.contains("cc:") || lowered.contains("bc:") { return false }
        let parts = lowered.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) })
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }),
              let last = labels.last, (2...6).contains(last.count), last.allSatisfy(\.isLetter) else { return false }
        return true
    }

    /// More than two links in a message make the server call it spam.
    static func linkCount(_ body: String) -> Int {
        body.split(whereSeparator: \.isWhitespace).filter { word in
            let lowered = word.lowercased()
            return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("ftp://")
        }.count
    }
}
