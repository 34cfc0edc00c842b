import Foundation

extension StringProtocol {
    /// The text without the spaces and tabs at its ends: `trimmingCharacters(in: .whitespaces)`, with the answer
    /// for the usual case (neither end is white space) found without going through `NSString`. Servers send numbers,
    /// ids, flags and format codes as strings by the thousand; every wire decoder trims them through here.
    ///
    /// ```swift
    /// " 42 ".trimmedSpaces   // "42"
    /// ```
    var trimmedSpaces: String {
        if let first = unicodeScalars.first, let last = unicodeScalars.last, Self.isPlainEnd(first), Self.isPlainEnd(last) {
            return String(self)
        }
        return trimmingCharacters(in: .whitespaces)
    }

    /// An ASCII character that `.whitespaces` does not hold (its only ASCII members are the space and the tab).
    private static func isPlainEnd(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && scalar != " " && scalar != "\t"
    }
}
