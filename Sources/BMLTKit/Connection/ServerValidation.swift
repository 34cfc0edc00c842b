import Foundation

/// What validation learns about a server, all at once.
struct ServerValidation: Sendable {
    var info: BMLTServerInfo
    var serviceBodies: [BMLTServiceBody]
    var formats: [BMLTFormat]
    var languages: [BMLTLanguage]
    var capabilities: BMLTCapabilities
    /// An aggregator's root servers (empty on a root server, or when the list could not be read).
    var rootServers: [BMLTRootServer] = []
}

/// Validation, in one round of requests: GetServerInfo, and beside it GetServiceBodies and GetFormats (which every root
/// server answers the same way whatever its generation), so that a phone's round trip is paid once, not three times.
/// What only some servers need starts as soon as GetServerInfo has said which they are, beside what is still arriving:
/// GetLangs.php on 2.x (else `langs` from server info), and on an aggregator its own format list (the one sent at once,
/// with `show_all`, is cancelled) and its list of root servers.
///
/// The service bodies and formats are sent before the server is known to be a root server: their answers are used only
/// once GetServerInfo has shown one of a supported version. Otherwise (and on any failure or cancellation) they are
/// cancelled, nothing of theirs reaches the cache (`ReadRound`), and GetServerInfo's own cause is the one reported.
/// Failures are reported in the order of the steps: server info, the version, the service bodies, the formats, then
/// the root servers' and languages' (which only ever rethrow cancellation). Every failure is a `BMLTError`.
enum ServerValidator {
    /// The oldest root server version BMLTKit talks to.
    static let minimumVersion = "2.0.0"
    static let minimumVersionInt = 2_000_000

    static func validate(_ context: OperationContext) async throws(BMLTError) -> ServerValidation {
        let round = ReadRound(context)
        let serviceBodies = round.start { context throws(BMLTError) in try await serviceBodyList(context) }
        let formats = round.start { context throws(BMLTError) in try await formatList(context, query: AggregatorValidation.rootServerFormatQuery) }
        return try await round.run { () async throws(BMLTError) in
            try await validate(context, round: round, serviceBodies: serviceBodies, formats: formats)
        }
    }

    /// The round once started: GetServerInfo decides whether what was sent beside it is used. Out of line
    /// (`@inline(never)`), so that `validate`'s task frame holds only the round while it waits.
    @inline(never)
    private static func validate(_ context: OperationContext, round: ReadRound, serviceBodies: RoundRead<[BMLTServiceBody]>,
                                 formats: RoundRead<[BMLTFormat]>) async throws(BMLTError) -> ServerValidation {
        let info = try await serverInfo(context)
        guard info.versionInt >= minimumVersionInt else {
            throw .unsupportedServerVersion(found: info.version, minimum: minimumVersion)
        }
        let formatRead = info.aggregatorModeEnabled
            ? round.start { context throws(BMLTError) in try await formatList(context, query: AggregatorValidation.formatQuery(info)) }
            : formats
        if info.aggregatorModeEnabled { formats.cancel() }
        // A read of its own (a task, and two hops) only where there is something to read: the root servers of an
        // aggregator, GetLangs.php of a 2.x server (issue 59: six tasks per validation against bare URLSession's three).
        let rootServers = info.aggregatorModeEnabled
            ? round.start { context throws(BMLTError) in try await AggregatorValidation.rootServers(context, info: info) } : nil
        let languageRead = info.majorVersion < 3 ? round.start { context throws(BMLTError) in try await languages(context, info: info) } : nil
        let bodies = try await serviceBodies.use().get()
        let allFormats = try await formatRead.use().get()
        let aggregatedRoots = try await rootServers?.use().get() ?? []
        let (languageList, listed) = try await languageRead?.use().get() ?? (WireLanguages.fromServerInfo(info), false)
        var found = capabilities(of: info)
        if listed { found.insert(.languageList) }
        return ServerValidation(info: info, serviceBodies: bodies, formats: allFormats,
                                languages: languageList, capabilities: found, rootServers: aggregatedRoots)
    }

    /// The service bodies (their reply's size noted for a refresh's first budget, `RefreshMemory`).
    private static func serviceBodyList(_ context: OperationContext) async throws(BMLTError) -> [BMLTServiceBody] {
        let reply = try await context.semanticReply("GetServiceBodies")
        let list = try WireServiceBody.decodeList(try WireReply.json(reply, what: .serviceBodies))
        context.transport.refreshMemory.noteValidated(formats: nil, serviceBodies: reply.data.count)
        return list
    }

    /// The formats (their reply's size noted for a refresh's first budget, `RefreshMemory`).
    private static func formatList(_ context: OperationContext, query: [URLQueryItem]) async throws(BMLTError) -> [BMLTFormat] {
        let reply = try await context.semanticReply("GetFormats", query)
        let list = try WireFormat.decodeList(try WireReply.json(reply, what: .formats))
        context.transport.refreshMemory.noteValidated(formats: reply.data.count, serviceBodies: nil)
        return list
    }

    /// The server's languages: on 2.x GetLangs.php's list when it answers with one (`listed`), else — and on 3.x and
    /// later — `langs` from server info. A function of its own (`@inline(never)`) so that its request and decoding are
    /// not laid out in `validate`'s task frame, which each validation in flight holds while its other requests wait.
    @inline(never)
    private static func languages(_ context: OperationContext, info: BMLTServerInfo) async throws(BMLTError) -> (languages: [BMLTLanguage], listed: Bool) {
        let fromInfo = WireLanguages.fromServerInfo(info)
        guard info.majorVersion < 3 else { return (fromInfo, false) }
        do {
            let reply = try await context.get("client_interface/json/GetLangs.php")
            let list = try WireLanguages.decode(try WireReply.json(reply, what: .languages))
            return list.isEmpty ? (fromInfo, false) : (list, true)
        } catch .cancelled {
            throw .cancelled
        } catch {
            // GetLangs.php is optional: the languages in server info stand.
            return (fromInfo, false)
        }
    }

    /// GetServerInfo. A reply that is not JSON, or JSON without a version, means this is not a root server.
    static func serverInfo(_ context: OperationContext) async throws(BMLTError) -> BMLTServerInfo {
        let reply = try await context.get("client_interface/json/", query: [URLQueryItem(name: "switcher", value: "GetServerInfo")])
        do {
            return try WireServerInfo.decode(try WireReply.json(reply, what: .serverInfo))
        } catch .malformedResponse(_, let detail) {
            throw .notARootServer(reason: .unreadable(detail))
        } catch .notFound {
            throw .notARootServer(reason: .noClientInterface)
        }
    }

    static func capabilities(of info: BMLTServerInfo) -> BMLTCapabilities {
        var capabilities: BMLTCapabilities = [.nawsExport]
        if info.majorVersion >= 3 { capabilities.insert(.restAdmin) }
        // 4.x's json.php is an auth-only shim (login, logout, permissions, user info): never used for edits.
        if info.majorVersion >= 4, !info.aggregatorModeEnabled { capabilities.insert(.serverSettings) }
        if info.semanticAdminEnabled, info.majorVersion < 4, !info.aggregatorModeEnabled { capabilities.insert(.legacyAdmin) }
        if info.emailEnabled, info.majorVersion < 4, !info.aggregatorModeEnabled { capabilities.insert(.contactMessages) }
        if info.aggregatorModeEnabled { capabilities.insert(.aggregator) }
        if info.versionInt >= 3_001_000 { capabilities.insert(.commaSeparatedParameters) }
        return capabilities
    }
}

extension BMLTConnection {
    /// Validates the server (the fire-and-forget form): posts `.bmltServerValidated` with `bmltIsServerValid`
    /// and, on failure, the cause in `bmltError` (plus a `.bmltError`). Fills `server`.
    @discardableResult
    public func connect() -> BMLTRequest {
        start(Self.validation)
    }

    /// Validates the server and returns what it said about itself; throws the cause when it is not a usable
    /// root server. Posts the same notifications as `connect()`.
    public func validate() async throws -> BMLTServerInfo {
        try await run(Self.validation).info
    }

    static let validation = Operation<ServerValidation>(
        kind: .validation,
        work: { context throws(BMLTError) in try await ServerValidator.validate(context) },
        succeed: { connection, validation, request in
            connection.store(validation)
            return [.serverValidated(isValid: true, info: validation.info, error: nil, request: request)]
        },
        fail: { connection, error, request in
            connection.server.lastError = error
            connection.server.isValid = false
            return [.serverValidated(isValid: false, info: nil, error: error, request: request)]
        }
    )
}
