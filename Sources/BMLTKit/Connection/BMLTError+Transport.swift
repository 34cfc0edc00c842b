import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension BMLTError {
    /// Maps an error that ended a transfer: once the reply's head has arrived, any failure but a cancellation or a
    /// timeout is a broken reply (the server was reached), said with the bytes received and the HTTP stack's words.
    static func from(_ error: any Error, afterHead head: HTTPURLResponse?, bytes: Int) -> BMLTError {
        let mapped = from(error)
        guard let head else { return mapped }
        switch mapped {
        case .cancelled, .timeout, .responseTooLarge: return mapped
        default:
            let expected = head.expectedContentLength > 0 ? Int(head.expectedContentLength) : nil
            return .brokenReply(code: (error as NSError).code,
                                detail: .cutOff(afterBytes: bytes, expectedBytes: expected, stack: stackWords(error)))
        }
    }

    /// The HTTP stack's own description of a failure, with anything like an address removed, shortened — where that
    /// description is libcurl's (Linux): FoundationNetworking puts libcurl's English message ("Failed writing header",
    /// "transfer closed with 1600 bytes remaining") in the error's own `NSLocalizedDescriptionKey`. `nil` everywhere
    /// else, and for an error without a description of its own (whose `localizedDescription` is only Foundation's
    /// generic sentence): the sentence then says what the code means, in its own language — Apple's URL loading
    /// system describes errors in the device's language, which would make a sentence of two languages.
    static func stackWords(_ error: any Error) -> String? {
        #if canImport(FoundationNetworking)
        let nsError = error as NSError
        guard let words = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !words.isEmpty else { return nil }
        let text = words.replacingOccurrences(of: "[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]*", with: "<address>", options: .regularExpression)
        return String(text.prefix(160))
        #else
        return nil
        #endif
    }

    /// Maps any error from the transport or below to a `BMLTError`. The description is written here from the
    /// error code, so a URL (and anything in it) never reaches the message.
    static func from(_ error: any Error) -> BMLTError {
        if let error = error as? BMLTError { return error }
        if error is CancellationError { return .cancelled }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain || error is URLError {
            // Codes for a reply that arrived but could not be read: -1 is what FoundationNetworking gives for
            // libcurl's protocol errors ("Failed writing header" for a head it cannot parse, bad chunk sizes,
            // corrupt gzip), -1002 an answer that is not HTTP, -1011 an empty or invalid reply.
            let broken = [-1, URLError.unsupportedURL.rawValue, URLError.badServerResponse.rawValue,
                          URLError.cannotDecodeRawData.rawValue, URLError.cannotDecodeContentData.rawValue,
                          URLError.cannotParseResponse.rawValue, URLError.zeroByteResource.rawValue]
            if broken.contains(nsError.code) {
                return .brokenReply(code: nsError.code, detail: .unreadable(stack: stackWords(error)))
            }
            return from(urlErrorCode: nsError.code)
        }
        return .transport(code: nsError.code)
    }

    /// A `URLError` code as a `BMLTError`: a cancellation, a timeout, or a transport failure whose sentence words the
    /// code (`BMLTError.transportPhrase`: host not found, refused, offline, TLS, …; -1022 and -1005 have their own).
    static func from(urlErrorCode code: Int) -> BMLTError {
        switch code {
        case URLError.cancelled.rawValue: return .cancelled
        case URLError.timedOut.rawValue: return .timeout
        default: return .transport(code: code)
        }
    }
}
