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
            let expected = head.expectedContentLength > 0 ? " of \(head.expectedContentLength)" : ""
            return .brokenReply(code: (error as NSError).code,
                                detail: "the reply was cut off or damaged after \(bytes)\(expected) bytes of its body (\(stackWords(error)))")
        }
    }

    /// The HTTP stack's own description of a failure, with anything like an address removed, shortened — where that
    /// description is libcurl's (Linux): FoundationNetworking puts libcurl's English message ("Failed writing header",
    /// "transfer closed with 1600 bytes remaining") in the error's own `NSLocalizedDescriptionKey`. Everywhere else,
    /// and for an error without a description of its own (whose `localizedDescription` is only Foundation's generic
    /// sentence), BMLTKit's own words for the code: Apple's URL loading system describes errors in the device's
    /// language, which would make a sentence of two languages.
    static func stackWords(_ error: any Error) -> String {
        let nsError = error as NSError
        var own: String {
            guard case .transport(_, let words) = from(urlErrorCode: nsError.code) else { return "code \(nsError.code)" }
            return words
        }
        #if canImport(FoundationNetworking)
        guard let words = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !words.isEmpty else { return own }
        let text = words.replacingOccurrences(of: "[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]*", with: "<address>", options: .regularExpression)
        return String(text.prefix(160))
        #else
        return own
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
                return .brokenReply(code: nsError.code, detail: "the reply could not be read (\(stackWords(error)))")
            }
            return from(urlErrorCode: nsError.code)
        }
        return .transport(code: nsError.code, description: "an unexpected error")
    }

    static func from(urlErrorCode code: Int) -> BMLTError {
        switch code {
        case URLError.cancelled.rawValue: return .cancelled
        case URLError.timedOut.rawValue: return .timeout
        case URLError.cannotFindHost.rawValue, URLError.dnsLookupFailed.rawValue:
            return .transport(code: code, description: "the server's name could not be found")
        case URLError.cannotConnectToHost.rawValue:
            return .transport(code: code, description: "the server refused the connection")
        case URLError.networkConnectionLost.rawValue:
            return .transport(code: code, description: "the connection was lost")
        case URLError.notConnectedToInternet.rawValue:
            return .transport(code: code, description: "this device is offline")
        case URLError.secureConnectionFailed.rawValue, URLError.serverCertificateUntrusted.rawValue,
             URLError.serverCertificateHasBadDate.rawValue, URLError.serverCertificateHasUnknownRoot.rawValue,
             URLError.serverCertificateNotYetValid.rawValue, URLError.clientCertificateRejected.rawValue:
            return .transport(code: code, description: "a secure (TLS) connection could not be made")
        case URLError.badServerResponse.rawValue:
            return .transport(code: code, description: "the server's answer was broken off or invalid")
        case URLError.httpTooManyRedirects.rawValue, URLError.redirectToNonExistentLocation.rawValue:
            return .transport(code: code, description: "the server redirected in a way that cannot be followed")
        case -1103: // NSURLErrorDataLengthExceedsMaximum
            return .transport(code: code, description: "the answer was too large")
        case -1022: // NSURLErrorAppTransportSecurityRequiresSecureConnection: its own sentence in `BMLTError.description`
            return .transport(code: code, description: "App Transport Security requires a secure connection (https://)")
        case URLError.cannotParseResponse.rawValue:
            return .transport(code: code, description: "the reply's head could not be parsed")
        case URLError.cannotDecodeRawData.rawValue, URLError.cannotDecodeContentData.rawValue:
            return .transport(code: code, description: "the reply's body could not be decoded")
        case URLError.zeroByteResource.rawValue:
            return .transport(code: code, description: "the reply was empty")
        case URLError.unsupportedURL.rawValue:
            return .transport(code: code, description: "the answer was not HTTP, or the address is not supported")
        default:
            return .transport(code: code, description: "a network error")
        }
    }
}
