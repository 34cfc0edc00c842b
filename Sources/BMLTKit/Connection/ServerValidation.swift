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

/// Validation: GetServerInfo, then GetServiceBodies and GetFormats concurrently (and beside them, on an aggregator, its
/// list of root servers), then the languages (GetLangs.php on 2.x when it answers; else `langs` from server info).
/// Every failure is a `BMLTError`.
enum ServerValidator {
    /// The oldest root server version BMLTKit talks to.
    static let minimumVersion = "2.0.0"
    static let minimumVersionInt = 2_000_000

    static func validate(_ context: OperationContext) async throws(BMLTError) -> ServerValidation {
        let info = try await serverInfo(context)
        guard info.versionInt >= minimumVersionInt else {
            throw .unsupportedServerVersion(found: info.version, minimum: minimumVersion)
        }
        // GetFormats (and an aggregator's list of root servers) in one child task; GetServiceBodies in this task, beside
        // it. Failures are reported as ever: the service bodies' first (a failure there ends the validation at once and
        // cancels the child), then the formats', then the root servers' (which only ever rethrow cancellation).
        async let others = info.aggregatorModeEnabled
            ? await formatsAndRootServers(context, info: info)
            : (await formatList(context, info: info), .success([]))
        let serviceBodies = try WireServiceBody.decodeList(try await context.semantic("GetServiceBodies", what: "the service body list"))
        let (formats, rootServers) = await others
        let allFormats = try formats.get()
        let aggregatedRoots = try rootServers.get()
        let (languages, listed) = try await languages(context, info: info)
        var capabilities = capabilities(of: info)
        if listed { capabilities.insert(.languageList) }
        return ServerValidation(info: info, serviceBodies: serviceBodies, formats: allFormats,
                                languages: languages, capabilities: capabilities, rootServers: aggregatedRoots)
    }

    /// An aggregator's GetFormats and its list of root servers, at the same time (in a function of its own, so that its
    /// `async let` is laid out in a task frame only on an aggregator).
    @inline(never)
    private static func formatsAndRootServers(_ context: OperationContext, info: BMLTServerInfo) async
        -> (formats: Result<[BMLTFormat], BMLTError>, rootServers: Result<[BMLTRootServer], BMLTError>) {
        async let rootServers = catching { () async throws(BMLTError) in try await AggregatorValidation.rootServers(context, info: info) }
        let formats = await formatList(context, info: info)
        return (formats, await rootServers)
    }

    private static func formatList(_ context: OperationContext, info: BMLTServerInfo) async -> Result<[BMLTFormat], BMLTError> {
        await catching { () async throws(BMLTError) in
            try WireFormat.decodeList(try await context.semantic("GetFormats", AggregatorValidation.formatQuery(info),
                                                                 what: "the format list"))
        }
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
            let list = try WireLanguages.decode(try WireReply.json(reply, what: "the language list"))
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
            return try WireServerInfo.decode(try WireReply.json(reply, what: "GetServerInfo"))
        } catch .malformedResponse(_, let detail) {
            throw .notARootServer(reason: detail)
        } catch .notFound {
            throw .notARootServer(reason: "there is no client_interface at this address (HTTP 404)")
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

    private static func catching<T>(_ body: () async throws(BMLTError) -> T) async -> Result<T, BMLTError> {
        do throws(BMLTError) { return .success(try await body()) } catch { return .failure(error) }
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
