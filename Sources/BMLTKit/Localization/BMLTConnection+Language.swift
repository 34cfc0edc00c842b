import Foundation

extension BMLTConnection {
    /// The locale of the sentences this connection words: `configuration.locale`, else
    /// ``BMLTLocalization/defaultLocale``.
    /// ```swift
    /// print(connection.locale.identifier)
    /// ```
    public nonisolated var locale: Locale { configuration.locale ?? BMLTLocalization.defaultLocale }

    /// `error`'s sentence in this connection's ``locale`` (an error is a value; `error.localizedDescription` is in
    /// the app's language, this follows `BMLTConfiguration.locale`).
    /// ```swift
    /// if let error = connection.lastError { print(connection.localizedDescription(of: error)) }
    /// ```
    public nonisolated func localizedDescription(of error: BMLTError) -> String { error.localizedDescription(for: locale) }

    /// The table language of ``locale``.
    nonisolated var language: String { BMLTLocalization.language(for: locale) }
}
