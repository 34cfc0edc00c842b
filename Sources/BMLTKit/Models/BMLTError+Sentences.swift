import Foundation

/// `BMLTError`'s sentences, from the string tables (`Resources/*.lproj/Localizable.strings`, see
/// ``BMLTLocalization``). A new case or reason gets its key here and its English sentence in `en.lproj` (then
/// `.ci/strings --generate` and the other eleven tables: `.ci/strings` names every key a table lacks).
extension BMLTError: LocalizedError, CustomStringConvertible {
    /// A sentence a person can act on, in ``BMLTLocalization/defaultLocale`` (the app's language).
    /// ```swift
    /// print(BMLTError.timeout.localizedDescription)   // in the app's language
    /// ```
    public var errorDescription: String? { sentence(in: BMLTLocalization.language(for: BMLTLocalization.defaultLocale)) }

    /// The sentence in English, for logs and developers (the same in every locale; a date in it is ISO 8601, as the
    /// log's own times are).
    /// ```swift
    /// print(BMLTError.cancelled.description)   // The request was cancelled.
    /// ```
    public var description: String { sentence(in: "en", forLog: true) }

    /// The sentence in `locale`'s language (English when BMLTKit has no table for it).
    /// ```swift
    /// let error = BMLTError.responseTooLarge(limit: 1_048_576)
    /// print(error.localizedDescription(for: Locale(identifier: "es")))
    /// // La respuesta del servidor superó el límite de 1.048.576 bytes. …
    /// ```
    public func localizedDescription(for locale: Locale) -> String {
        sentence(in: BMLTLocalization.language(for: locale))
    }

    /// The sentence in `language`; `forLog`: a date in it in ISO 8601 (`description`) instead of the language's own
    /// form, which every reader's sentence uses, English included.
    func sentence(in language: String, forLog: Bool = false) -> String {
        func text(_ key: String, _ arguments: String...) -> String { StringTables.text(key, arguments, language: language) }
        /// `key`'s sentence, or with the server's words `saidKey`'s.
        func said(_ key: String, _ saidKey: String, _ message: String?, after leading: [String] = []) -> String {
            guard let message, !message.isEmpty else { return StringTables.text(key, leading, language: language) }
            return StringTables.text(saidKey, leading + [message], language: language)
        }
        switch self {
        case .invalidURL(let given): return text("error.invalidURL", given)
        case .insecureURLRefused(let host): return text("error.insecureURLRefused", host)
        case .notARootServer(let reason): return text("error.notARootServer", reason.phrase(in: language))
        case .unsupportedServerVersion(let found, let minimum): return text("error.unsupportedServerVersion", found, minimum)
        case .transport(let code) where code == -1022: return text("error.transport.ats")   // NSURLErrorAppTransportSecurityRequiresSecureConnection
        case .transport(let code) where code == -1005: return text("error.transport.lost")  // NSURLErrorNetworkConnectionLost, before any reply
        case .transport(let code): return text("error.transport", Self.transportPhrase(code, in: language), String(code))
        case .timeout: return text("error.timeout")
        case .httpStatus(let code, let message) where (400..<500).contains(code):
            return said("error.httpStatus.client", "error.httpStatus.client.said", message, after: [String(code)])
        case .httpStatus(let code, let message):
            return said("error.httpStatus", "error.httpStatus.said", message, after: [String(code)])
        case .malformedResponse(let what, let detail):
            return text("error.malformedResponse", what.phrase(in: language), detail.phrase(in: language))
        case .unauthorized(let message): return said("error.unauthorized", "error.unauthorized.said", message)
        case .forbidden(let message): return said("error.forbidden", "error.forbidden.said", message)
        case .notFound(let message): return said("error.notFound", "error.notFound.said", message)
        case .conflict(let message): return said("error.conflict", "error.conflict.said", message)
        case .validationFailed(let message, let fieldErrors):
            let fields = fieldErrors.keys.sorted().map { "\($0): \(fieldErrors[$0]!.joined(separator: " "))" }
            let list = fields.joined(separator: "; ")
            switch (message.map { !$0.isEmpty } ?? false, fields.isEmpty) {
            case (true, true): return text("error.validationFailed.said", message ?? "")
            case (true, false): return text("error.validationFailed.said.fields", message ?? "", list)
            case (false, false): return text("error.validationFailed.fields", list)
            case (false, true): return text("error.validationFailed")
            }
        case .unsupported(let capability): return text("error.unsupported", capability.phrase(in: language))
        case .messageRejected(let reason): return reason.sentence(in: language)
        case .cancelled: return text("error.cancelled")
        case .responseTooLarge(let limit):
            return StringTables.plural("error.responseTooLarge", count: limit,
                                       [StringTables.number(limit, language: language)], language: language)
        case .invalidArgument(let argument): return text("error.invalidArgument", argument.phrase(in: language))
        case .brokenReply(let code, let detail):
            return text("error.brokenReply", detail.phrase(code: code, in: language), String(code))
        case .writeOutcomeUnknown(let open): return WriteOutcomeSentences.unknown(open, in: language)
        case .serverFailedOnWrite(let failure): return WriteOutcomeSentences.failed(failure, in: language)
        case .editConflict(let conflict): return EditConflictSentences.conflict(conflict, in: language, forLog: forLog)
        case .meetingDeleted(let gone): return EditConflictSentences.deleted(gone, in: language, forLog: forLog)
        }
    }

    /// The words for a transport failure's `URLError` code.
    static func transportPhrase(_ code: Int, in language: String) -> String {
        let name: String
        switch code {
        case URLError.cannotFindHost.rawValue, URLError.dnsLookupFailed.rawValue: name = "transport.hostNotFound"
        case URLError.cannotConnectToHost.rawValue: name = "transport.refused"
        case URLError.networkConnectionLost.rawValue: name = "transport.lost"
        case URLError.notConnectedToInternet.rawValue: name = "transport.offline"
        case URLError.secureConnectionFailed.rawValue, URLError.serverCertificateUntrusted.rawValue,
             URLError.serverCertificateHasBadDate.rawValue, URLError.serverCertificateHasUnknownRoot.rawValue,
             URLError.serverCertificateNotYetValid.rawValue, URLError.clientCertificateRejected.rawValue: name = "transport.tls"
        case URLError.badServerResponse.rawValue: name = "transport.badResponse"
        case URLError.httpTooManyRedirects.rawValue, URLError.redirectToNonExistentLocation.rawValue: name = "transport.redirects"
        case -1103: name = "transport.tooLarge"   // NSURLErrorDataLengthExceedsMaximum
        case -1022: name = "transport.ats"
        case URLError.cannotParseResponse.rawValue: name = "transport.head"
        case URLError.cannotDecodeRawData.rawValue, URLError.cannotDecodeContentData.rawValue: name = "transport.body"
        case URLError.zeroByteResource.rawValue: name = "transport.empty"
        case URLError.unsupportedURL.rawValue: name = "transport.notHTTP"
        default: name = "transport.other"
        }
        return StringTables.text(name, language: language)
    }
}

extension BMLTMessageRejection: CustomStringConvertible {
    /// A sentence a person can act on, in English (`localizedDescription(for:)` for another language).
    /// ```swift
    /// print(BMLTMessageRejection.noContact.description)
    /// ```
    public var description: String { sentence(in: "en") }

    /// The sentence in `locale`'s language.
    /// ```swift
    /// print(BMLTMessageRejection.looksLikeSpam.localizedDescription(for: Locale(identifier: "de")))
    /// ```
    public func localizedDescription(for locale: Locale) -> String { sentence(in: BMLTLocalization.language(for: locale)) }

    func sentence(in language: String) -> String {
        let name: String
        switch self {
        case .disabled: name = "rejection.disabled"
        case .noContact: name = "rejection.noContact"
        case .invalidSender: name = "rejection.invalidSender"
        case .looksLikeSpam: name = "rejection.looksLikeSpam"
        case .couldNotSend: name = "rejection.couldNotSend"
        }
        return StringTables.text(name, language: language)
    }
}
