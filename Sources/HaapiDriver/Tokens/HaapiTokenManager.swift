import Foundation
import OAuthCore

/// A HAAPI access token: the package's ``/OAuthCore/AccessToken``, which every HAAPI request carries as
/// `Authorization: DPoP <token>` (`Bearer` when the server issued an unbound one).
public typealias HaapiAccessToken = AccessToken

/// How the driver obtains HAAPI access tokens.
public enum HaapiAccessStrategy: Sendable {
    /// Client attestation, falling back to DCR (when configured) if the device cannot attest
    /// or the server refuses its attestation.
    case attestation(any AttestationProvider, dcrFallback: DCRConfiguration?)
    /// Client credentials of a confidential client, with the configured authentication method.
    case clientCredentials
    /// Always the DCR-registered client.
    case dcr(DCRConfiguration)
}

/// Obtains, caches and renews the HAAPI access tokens of one client, all bound to one DPoP key
/// (Curity's `HaapiTokenManager`; ``HaapiTokenManagerBuilder`` makes one as Curity's SDK does).
///
/// A token is reused until it has less than `minTokenTtl` seconds left; callers that ask at
/// the same time share one token request. Only one manager per name may be open. Safe to share
/// between tasks and threads: its state is behind a lock, and ``close()`` and ``clearState()``
/// are synchronous, as Curity's are.
public final class HaapiTokenManager: NSObject, Sendable {
    /// The OAuth scope of HAAPI access tokens.
    public static let haapiScope = "urn:se:curity:scopes:haapi"
    /// The client assertion type of a client attestation token.
    public static let attestationAssertionType = "urn:se:curity:attestation:client"

    private static let openNames = LockedValue<Set<String>>([])

    /// The manager's name.
    public let name: String
    /// The DPoP key every HAAPI request of this manager is signed with.
    let key: Dpop
    private let clientID: String
    private let tokenEndpoint: URL
    /// How the tokens are obtained, as the builder resolved it from the configuration.
    package let strategy: HaapiAccessStrategy
    private let clientAuthenticationMethod: any ClientAuthenticationMethod
    private let transport: any HTTPTransport
    private let minTokenTtl: TimeInterval
    private let attestationMaxRetries: Int
    private let now: @Sendable () -> Date
    /// Whether the manager holds its name in ``openNames`` while open.
    private let holdsName: Bool

    private struct State {
        var cached: HaapiAccessToken?
        var pending: SharedWork<HaapiAccessToken>?
        var registeredClient: RegisteredClient?
        var isClosed = false
        /// Counts ``clearState()`` and ``close()``: a token request begun before one of them
        /// does not fill the cache after it.
        var epoch = 0
    }

    private let state = LockedValue(State())

    /// Opens a manager.
    /// - Parameters:
    ///   - name: the manager's name; only one manager of a name may be open.
    ///   - clientID: the client the HAAPI access tokens are issued to.
    ///   - tokenEndpointURL: the token endpoint the tokens come from.
    ///   - strategy: how tokens are obtained: attestation, DCR or client credentials.
    ///   - clientAuthenticationMethod: the client's credentials at the token endpoint.
    ///   - dpop: the key every token is bound to and every proof signed with.
    ///   - transport: the network the token requests go through.
    ///   - minTokenTtl: the seconds a cached token must still have to be reused.
    ///   - attestationMaxRetries: how many more times a failed attestation is tried before the
    ///     DCR fallback (``AttestationConfiguration/attestationMaxRetries``).
    ///   - now: the clock tokens' expiry is measured against.
    ///   - claimsName: whether the manager holds its name while open (the default);
    ///     `false` for one that only resolves the client's credentials (an OAuth-only accessor).
    /// - Throws: ``HaapiError/haapiTokenManagerAlreadyExists(name:)`` when one of that name is open;
    ///   ``HaapiError/invalidConfiguration(reason:)`` for a DCR strategy with no client authentication.
    public init(
        name: String, clientID: String, tokenEndpointURL: URL, strategy: HaapiAccessStrategy,
        clientAuthenticationMethod: any ClientAuthenticationMethod, dpop: Dpop, transport: any HTTPTransport,
        minTokenTtl: TimeInterval = 120, attestationMaxRetries: Int = 0, now: @escaping @Sendable () -> Date = { Date() },
        claimsName: Bool = true
    ) throws {
        let usesDCR: Bool
        switch strategy {
        case .dcr: usesDCR = true
        case .attestation(_, let fallback): usesDCR = fallback != nil
        case .clientCredentials: usesDCR = false
        }
        if usesDCR && clientAuthenticationMethod is ClientAuthenticationMethodNone {
            throw HaapiError.invalidConfiguration(
                reason: "DCR needs a client authentication method other than ClientAuthenticationMethodNone")
        }
        if claimsName {
            let inserted = Self.openNames.withLock { $0.insert(name).inserted }
            guard inserted else { throw HaapiError.haapiTokenManagerAlreadyExists(name: name) }
        }
        holdsName = claimsName
        self.name = name
        self.clientID = clientID
        self.tokenEndpoint = tokenEndpointURL
        self.strategy = strategy
        self.clientAuthenticationMethod = clientAuthenticationMethod
        self.key = dpop
        self.transport = transport
        self.minTokenTtl = minTokenTtl
        self.attestationMaxRetries = max(0, attestationMaxRetries)
        self.now = now
    }

    deinit {
        // A manager closed earlier has freed its name already, maybe for a new manager.
        guard holdsName, !state.withLock({ $0.isClosed }) else { return }
        let name = self.name
        _ = Self.openNames.withLock { $0.remove(name) }
    }

    /// The DPoP key every HAAPI request of this manager is signed with (Curity's `dpop`; never
    /// `nil` here).
    public var dpop: Dpop? { key }

    /// Closes the manager and frees its name; later calls throw ``HaapiError/haapiTokenManagerIsClosed``.
    public func close() {
        let pending = state.withLock { state -> SharedWork<HaapiAccessToken>?? in
            guard !state.isClosed else { return .none }
            state.isClosed = true
            state.cached = nil
            state.epoch += 1
            defer { state.pending = nil }
            return .some(state.pending)
        }
        guard case .some(let work) = pending else { return }
        work?.cancel()
        guard holdsName else { return }
        let name = self.name
        _ = Self.openNames.withLock { $0.remove(name) }
    }

    /// Forgets the cached HAAPI access token, a token request under way and the registered DCR
    /// client read into memory (it stays in its storage): the next request obtains a new token.
    public func clearState() {
        let pending = state.withLock { state -> SharedWork<HaapiAccessToken>? in
            state.cached = nil
            state.registeredClient = nil
            state.epoch += 1
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
    }

    /// A client that sends requests with this manager's tokens and DPoP proofs (Curity's
    /// `createClient()`), over the manager's own network.
    public func createClient() -> HaapiClient { HaapiClient(tokenManager: self, base: transport) }

    /// The client whose credentials the flow uses: the DCR-registered one once registered,
    /// otherwise the configured one.
    public var effectiveClient: (clientID: String, authentication: ClientAuthentication) {
        get async throws {
            // A client registered by an earlier run counts too (the `.oauth` accessor fetches no token first).
            var registered = state.withLock { $0.registeredClient }
            if registered == nil, let configuration = dcrConfiguration, !configuration.shouldClearExistingDCRClient,
                let stored = try configuration.storage.read(key: storageKey(configuration))
            {
                registered = try? RegisteredClient(registrationResponse: stored)
                state.withLock { $0.registeredClient = $0.registeredClient ?? registered }
            }
            if let registered { return (registered.clientID, try Self.confidentialAuthentication(of: registered)) }
            return (clientID, try clientAuthenticationMethod.clientAuthentication(clientID: clientID))
        }
    }

    /// A HAAPI access token with at least `minTokenTtl` seconds left.
    public func accessToken() async throws -> HaapiAccessToken {
        enum Next {
            case token(HaapiAccessToken)
            case wait(SharedWork<HaapiAccessToken>)
        }
        let next = try state.withLock { state -> Next in
            guard !state.isClosed else { throw HaapiError.haapiTokenManagerIsClosed }
            if let cached = state.cached, cached.remainingLifetime(at: now()) > minTokenTtl { return .token(cached) }
            if let pending = state.pending { return .wait(pending) }
            let epoch = state.epoch
            let work = SharedWork { [self] in try await obtainAndKeep(epoch: epoch) }
            state.pending = work
            return .wait(work)
        }
        switch next {
        case .token(let token): return token
        case .wait(let work):
            let token = try await work.value
            guard !state.withLock({ $0.isClosed }) else { throw HaapiError.haapiTokenManagerIsClosed }
            return token
        }
    }

    /// Obtains a token and, unless the manager was cleared or closed meanwhile, caches it.
    private func obtainAndKeep(epoch: Int) async throws -> HaapiAccessToken {
        let result: Result<HaapiAccessToken, any Error>
        do { result = .success(try await obtainToken()) } catch { result = .failure(error) }
        state.withLock { state in
            guard state.epoch == epoch else { return }
            state.pending = nil
            if case .success(let token) = result { state.cached = token }
        }
        return try result.get()
    }

    /// A HAAPI access token and the key to prove it with (Curity's `getHaapiTokenAsync`).
    ///
    /// - Parameters:
    ///   - forceFresh: whether to obtain a new token even when the cached one is still good.
    ///   - dpopNonce: a nonce a server asked for (`DPoP-Nonce`), which the proofs of the
    ///     returned ``DpopAccessTokenInfo`` carry.
    /// - Throws: ``HaapiError``.
    public func getHaapiTokenAsync(forceFresh: Bool = false, dpopNonce: String? = nil) async throws -> DpopAccessTokenInfo {
        if forceFresh { state.withLock { $0.cached = nil } }
        return DpopAccessTokenInfo(accessToken: try await accessToken(), dpop: key, dpopNonce: dpopNonce)
    }

    /// ``getHaapiTokenAsync(forceFresh:dpopNonce:)`` with a completion handler, as Curity's SDK
    /// 4 wrote it; called on a task of its own.
    @available(*, deprecated, message: "Use getHaapiTokenAsync")
    public func getHaapiToken(
        forceFresh: Bool = false, dpopNonce: String? = nil,
        completionHandler: @escaping @Sendable (Result<DpopAccessTokenInfo, HaapiError>) -> Void
    ) {
        Task {
            do {
                completionHandler(.success(try await getHaapiTokenAsync(forceFresh: forceFresh, dpopNonce: dpopNonce)))
            } catch let error as HaapiError {
                completionHandler(.failure(error))
            } catch {
                completionHandler(.failure(.illegalState(message: "\(error)")))
            }
        }
    }

    /// The token ``accessToken()`` would reuse, if any: the old one until a renewal succeeds,
    /// then the new one (a failed renewal never leaves the manager without its old token).
    public var cachedAccessToken: HaapiAccessToken? { state.withLock { $0.cached } }

    /// Drops the cached token (the server said it is no longer valid).
    public func invalidateAccessToken() { state.withLock { $0.cached = nil } }

    /// Drops the cached token if it is still `refused`, the token the server said is no
    /// longer valid.
    ///
    /// Requests that were refused together then share one new token: a late refusal of the
    /// old token must not throw away the new one another request already got.
    public func invalidateAccessToken(_ refused: HaapiAccessToken) {
        state.withLock { state in
            if state.cached == refused { state.cached = nil }
        }
    }

    // MARK: Strategies

    private func obtainToken() async throws -> HaapiAccessToken {
        switch strategy {
        case .clientCredentials:
            return try await requestToken(authentication: try clientAuthenticationMethod.clientAuthentication(clientID: clientID))
        case .dcr(let configuration):
            return try await tokenWithRegisteredClient(configuration)
        case .attestation(let provider, let fallback):
            do {
                guard provider.isSupported else { throw HaapiError.attestationNotSupported }
                return try await tokenWithAttestation(provider, retries: attestationMaxRetries)
            } catch let error as HaapiError {
                switch error {
                case .attestationNotSupported, .attestationRefusedByServer, .attestationFailure, .attestationKeyGenFailure:
                    guard let fallback else { throw error }
                    HaapiLogger.info(DriverFollowUpTag.attestation, "attestation unavailable (\(error.error)); using the DCR fallback")
                    return try await tokenWithRegisteredClient(fallback)
                default:
                    throw error
                }
            }
        }
    }

    /// A token by attestation, the attestation tried again up to `retries` times when the device
    /// or the server fails it (not when the device cannot attest).
    private func tokenWithAttestation(_ provider: any AttestationProvider, retries: Int) async throws -> HaapiAccessToken {
        var attempt = 0
        while true {
            do {
                return try await tokenWithAttestation(provider)
            } catch HaapiError.attestationFailure(let cause) where attempt < retries {
                HaapiLogger.info(DriverFollowUpTag.attestation, "attestation failed (\(cause.map { "\($0)" } ?? "no cause")); trying again")
            } catch HaapiError.attestationRefusedByServer(let cause) where attempt < retries {
                HaapiLogger.info(
                    DriverFollowUpTag.attestation,
                    "the server refused the attestation (\(cause.map { "\($0)" } ?? "no cause")); trying again")
            }
            attempt += 1
        }
    }

    private func tokenWithAttestation(_ provider: any AttestationProvider) async throws -> HaapiAccessToken {
        let catEndpoint = tokenEndpoint.appendingPathComponent("cat")
        HaapiLogger.debug(DriverFollowUpTag.attestation, "requesting an attestation challenge")
        let challengeURL = catEndpoint.appendingQuery([("client_id", clientID)])
        let challengeResponse = try await exchange(TransportRequest(url: challengeURL, headers: ["Accept": "application/json"]))
        guard challengeResponse.isSuccess, let challenge = try? JSONValue(parsing: challengeResponse.body)["challenge"]?.stringValue else {
            throw HaapiError.attestationRefusedByServer(cause: HaapiError(unexpected: challengeResponse))
        }
        let answer: String
        do {
            answer = try await provider.challengeResponse(for: challenge, clientID: clientID)
        } catch let error as HaapiError {
            throw error
        } catch {
            throw HaapiError.attestationFailure(cause: error)
        }
        let catResponse = try await exchange(
            .form(
                catEndpoint, parameters: [("client_id", clientID), ("challenge", challenge), ("challenge_response", answer)],
                headers: ["Accept": "application/json"]))
        guard catResponse.isSuccess, let cat = try? JSONValue(parsing: catResponse.body)["cat"]?.stringValue else {
            let refusal = OAuthErrorResponse(catResponse).map(HaapiError.init)
            throw HaapiError.attestationRefusedByServer(cause: refusal ?? HaapiError(unexpected: catResponse))
        }
        return try await requestToken(
            authentication: .none(clientID: clientID),
            extra: [("client_assertion_type", Self.attestationAssertionType), ("client_assertion", cat)])
    }

    /// The DCR configuration of the strategy, if it has one.
    private var dcrConfiguration: DCRConfiguration? {
        switch strategy {
        case .dcr(let configuration): return configuration
        case .attestation(_, let fallback): return fallback
        case .clientCredentials: return nil
        }
    }

    private func storageKey(_ configuration: DCRConfiguration) -> String {
        "haapi-dcr-client.\(clientID).\(configuration.templateClientId)"
    }

    private func tokenWithRegisteredClient(_ configuration: DCRConfiguration) async throws -> HaapiAccessToken {
        let key = storageKey(configuration)
        var registered = state.withLock { $0.registeredClient }
        if configuration.shouldClearExistingDCRClient && registered == nil {
            try configuration.storage.delete(key: key)
        }
        if registered == nil, let stored = try configuration.storage.read(key: key) {
            registered = try? RegisteredClient(registrationResponse: stored)
            state.withLock { $0.registeredClient = registered }
        }
        if let client = registered {
            do {
                return try await requestToken(authentication: try Self.confidentialAuthentication(of: client))
            } catch HaapiError.serverError(let error, _, _) where error == "invalid_client" || error == "unauthorized_client" {
                // The server forgot the client: register again, once.
                HaapiLogger.info(DriverFollowUpTag.storage, "the stored DCR client was refused; registering a new one")
                try configuration.storage.delete(key: key)
                state.withLock { $0.registeredClient = nil }
            }
        }
        let client = try await register(configuration)
        try configuration.storage.write(key: key, data: client.registrationResponse)
        state.withLock { $0.registeredClient = client }
        return try await requestToken(authentication: try Self.confidentialAuthentication(of: client))
    }

    private func register(_ configuration: DCRConfiguration) async throws -> RegisteredClient {
        guard let registrationEndpoint = configuration.clientRegistrationEndpointUrl else {
            throw HaapiError.invalidConfiguration(reason: "the DCR configuration's clientRegistrationEndpointUrl is nil (not a URL)")
        }
        let initial = try await TokenEndpointClient(
            endpoint: tokenEndpoint, clientAuthentication: try clientAuthenticationMethod.clientAuthentication(clientID: clientID),
            transport: transport
        ).requestToken(.clientCredentials(scope: "dcr"))
        let initialToken = try Self.tokens(initial.result)
        let client: RegisteredClient
        do {
            client = try await DynamicClientRegistration.register(
                document: ["software_id": .string(configuration.templateClientId)], at: registrationEndpoint,
                initialAccessToken: initialToken.accessToken, transport: transport)
        } catch let error as OIDCError {
            let status = error.firstCause(OAuthErrorResponse.self)?.statusCode ?? error.firstCause(UnexpectedResponseError.self)?.statusCode
            throw HaapiError.serverError(
                error.serverError ?? "registration_failed", errorDescription: "dynamic client registration failed", statusCode: status ?? 0)
        } catch {
            throw HaapiError.wrapping(error, "request", url: registrationEndpoint)
        }
        HaapiLogger.info(DriverFollowUpTag.storage, "registered DCR client \(client.clientID)")
        return client
    }

    /// The credentials of a registered client for the client credentials grant, which only a
    /// confidential client may use (RFC 6749 §4.4): a registration without a secret is public
    /// (RFC 7591), so it cannot fetch HAAPI tokens.
    private static func confidentialAuthentication(of client: RegisteredClient) throws -> ClientAuthentication {
        guard client.clientSecret != nil else {
            throw HaapiError.invalidConfiguration(reason: "the registered DCR client has no client_secret to authenticate with")
        }
        return client.clientAuthentication
    }

    private func requestToken(authentication: ClientAuthentication, extra: [(String, String)] = []) async throws -> HaapiAccessToken {
        let client = TokenEndpointClient(endpoint: tokenEndpoint, clientAuthentication: authentication, transport: transport, dpop: key)
        let result: TokenEndpointResponse
        do {
            result = try await client.requestToken(.clientCredentials(scope: Self.haapiScope), additionalParameters: extra).result
        } catch {
            // An HTML error page or a busy server is the server's answer, not a network failure:
            // left as it is, HaapiManager would report it as `communication`.
            throw HaapiError.wrapping(error, "HAAPI token request", url: tokenEndpoint)
        }
        return Self.accessToken(try Self.tokens(result), receivedAt: now())
    }

    /// The HAAPI access token of a token response received at `now`: it lives `expires_in`
    /// seconds, 300 when the server does not say. Package access: a fuzz harness checks what
    /// the server's number becomes.
    package static func accessToken(_ tokens: TokenSuccessResponse, receivedAt now: Date) -> HaapiAccessToken {
        let lifetime = TimeInterval(tokens.expiresIn ?? 300)
        // The server's integer as it came: Int(lifetime) trapped on Int.max, which rounds up to 2^63 as a Double.
        HaapiLogger.debug(DriverFollowUpTag.flow, "new HAAPI access token \(sensitive: tokens.accessToken), \(tokens.expiresIn ?? 300) s")
        return HaapiAccessToken(value: tokens.accessToken, tokenType: tokens.tokenType, expiresAt: now.addingTimeInterval(lifetime))
    }

    /// The tokens of a success; an OAuth error becomes ``HaapiError/serverError(_:errorDescription:statusCode:)``.
    private static func tokens(_ result: TokenEndpointResponse) throws -> TokenSuccessResponse {
        switch result {
        case .success(let tokens): return tokens
        case .failure(let refusal): throw HaapiError(refusal)
        }
    }

    private func exchange(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw HaapiError.wrapping(error, "request", url: request.url)
        }
    }
}
