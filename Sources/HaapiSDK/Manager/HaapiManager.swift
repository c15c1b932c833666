import Foundation
import HaapiDriver
import OAuthCore

/// Moves a HAAPI flow forward: starts it, submits forms, follows links and polls, turning each
/// response into a ``HaapiResult`` (the seeds' `HaapiManager`).
///
/// The manager sends requests through any ``/OAuthCore/HTTPTransport``. Against a real server that
/// transport is the driver's (it adds the HAAPI access token and a DPoP proof to every
/// request); any transport works for tests. The manager keeps the flow's `Session-Id`
/// and, when configured, its PKCE verifier.
public actor HaapiManager {
    /// The most redirection steps followed in a row before the flow is declared broken.
    public static let maximumRedirects = 16

    /// The configuration.
    public nonisolated let configuration: HaapiConfiguration
    /// The flow's DPoP key, which signs every HAAPI request: pass it to
    /// ``OAuthTokenManager/fetchAccessToken(with:dpop:additionalParameters:codeVerifier:)`` to bind the tokens to it
    /// (`nil` when the manager was made on a bare transport).
    public nonisolated let dpop: Dpop?
    /// What the requests go through: the driver's ``/HaapiDriver/HaapiClient``, or the bare transport given.
    package nonisolated let transport: any HTTPTransport
    private let clientIDProvider: (@Sendable () async throws -> String)?
    /// The HAAPI token manager this manager made for itself, closed with it.
    private let ownedTokenManager: HaapiTokenManager?
    private var sessionID: String?
    private var pkce: PKCE?
    /// Whether ``close()`` was called; behind a lock, as `close()` is synchronous.
    private let closed = LockedValue(false)
    private var isClosed: Bool { closed.withLock { $0 } }
    /// The last step received (a continue-same-step leaves it in place).
    public private(set) var currentRepresentation: (any HaapiRepresentation)?

    /// A manager for one flow at a time.
    ///
    /// - Parameters:
    ///   - haapiConfiguration: the client and server the flow runs against.
    ///   - transport: what the requests go through: the driver's ``/HaapiDriver/HaapiClient``, or a
    ///     bare transport.
    ///   - clientIDProvider: the client id of the authorization request, when it is not
    ///     the configuration's: with the DCR fallback, the registered client's (HaapiAccessorBuilder sets it).
    ///   - dpop: the key `transport` signs requests with, published as ``dpop``.
    public init(
        haapiConfiguration: HaapiConfiguration, transport: any HTTPTransport,
        clientIDProvider: (@Sendable () async throws -> String)? = nil, dpop: Dpop? = nil
    ) {
        self.configuration = haapiConfiguration
        self.transport = transport
        self.clientIDProvider = clientIDProvider
        self.dpop = dpop
        ownedTokenManager = nil
    }

    /// A manager with HAAPI access tokens by attestation (as the seeds say: "use only if
    /// supporting only Attestation backed HAAPI flows"), or by client credentials when the
    /// device cannot attest and the configuration has a client authentication method. For the
    /// DCR fallback, use ``HaapiAccessorBuilder``.
    /// - Throws: ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)`` when neither works here,
    ///   ``/HaapiDriver/HaapiError/haapiTokenManagerAlreadyExists(name:)`` when a manager of the
    ///   configuration's name is open, ``/HaapiDriver/HaapiError/dpopKeyCreationFailure(cause:)``.
    public init(haapiConfiguration: any HaapiConfigurable) throws {
        let configuration = HaapiConfiguration(haapiConfigurable: haapiConfiguration)
        let strategy = try HaapiAccessorBuilder(haapiConfiguration: configuration).resolvedStrategy()
        let parts = try AccessParts(configuration: configuration, strategy: strategy, dcrConfiguration: nil, transport: nil)
        self.init(haapiConfiguration: configuration, parts: parts, ownsTokenManager: true)
    }

    /// Whether this platform runs HAAPI flows: ``/HaapiDriver/Haapi/isSupported``.
    public static var isSupported: Bool { Haapi.isSupported }

    /// A manager on the driver's transport: every request carries a HAAPI token and a DPoP proof.
    init(haapiConfiguration: HaapiConfiguration, parts: AccessParts, ownsTokenManager: Bool) {
        let tokenManager = parts.tokenManager
        configuration = haapiConfiguration
        transport = HaapiClient(tokenManager: tokenManager, base: parts.transport)
        // With DCR the flow belongs to the registered client, known once the first token is obtained.
        clientIDProvider = {
            _ = try await tokenManager.accessToken()
            return try await tokenManager.effectiveClient.clientID
        }
        dpop = tokenManager.dpop
        ownedTokenManager = ownsTokenManager ? tokenManager : nil
    }

    /// The PKCE `code_verifier` of the current flow, for the code exchange, when PKCE is on.
    public var codeVerifier: String? { pkce?.verifier }
    /// The `nonce` the current flow's authorization request carried: the one its parameters
    /// gave, or, for an OpenID request (`openid` scope) without one, a random one made here.
    /// The ID token the flow ends with must carry it (``/OAuthCore/TokenSession/start(with:dpop:nonce:maxAge:maximumIDTokenAge:requiresIDToken:)``
    /// checks it; OpenID Connect Core §3.1.2.1).
    public private(set) var nonce: String?

    /// The flow's `Session-Id`, once the server has set one (none once the manager is closed).
    public var currentSessionID: String? { isClosed ? nil : sessionID }

    /// Ends the manager (synchronous, as Curity's is): later calls answer
    /// ``/HaapiDriver/HaapiError/haapiTokenManagerIsClosed``, and the flow's `Session-Id` is forgotten. A
    /// manager made with ``init(haapiConfiguration:)`` also closes its HAAPI token manager.
    public nonisolated func close() {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { ownedTokenManager?.close() }
    }

    // MARK: Flow operations

    /// Starts a flow: the authorization request with client_id, response_type=code,
    /// redirect_uri, and the scope, state, nonce, acr_values and extra parameters of
    /// `parameters` (or of the configuration's provider); a PKCE challenge when configured.
    public func start(parameters: OAuthAuthorizationParameters? = nil) async -> HaapiResult {
        guard !isClosed else { return .error(HaapiError.haapiTokenManagerIsClosed) }
        sessionID = nil
        currentRepresentation = nil
        let parameters = parameters ?? configuration.authorizationParametersProvider?() ?? OAuthAuthorizationParameters()
        let clientID: String
        do {
            clientID = try await clientIDProvider?() ?? configuration.clientId
        } catch {
            return .error(error)
        }
        var query = AuthorizationQuery(clientID: clientID, redirectURI: configuration.appRedirect)
        nonce = parameters.nonce ?? (parameters.scopes.contains("openid") ? RandomToken.make() : nil)
        pkce = configuration.usesPKCE ? PKCE() : nil
        (query.scopes, query.state, query.nonce, query.pkce) = (parameters.scopes, parameters.state, nonce, pkce)
        (query.acrValues, query.prompt, query.uiLocales) = (parameters.acrValues, parameters.prompt, parameters.uiLocales)
        query.additionalParameters = parameters.extraRequestParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return await send(
            method: "GET", url: configuration.authorizationEndpointURL, query: query.parameters, body: nil, continueActions: [])
    }

    /// Submits a form, as the seeds write it: `parameters` fill the fields by name; a value
    /// that is not a `String` is sent as its text (`true`/`false` for a `Bool`; see
    /// ``FormActionModel/fieldValues(_:)``).
    public func submitForm(_ form: FormActionModel, parameters: [String: any Sendable]) async -> HaapiResult {
        await submitForm(form, fields: form.fieldValues(parameters))
    }

    /// Submits a form. Hidden fields are sent unchanged, `fields` fill the other fields,
    /// fields left without a value are left out (see ``FormActionModel/parameters(with:)``).
    /// GET puts the fields in the query; other methods send them form-encoded, or as a JSON
    /// object when the form's type is `application/json`.
    public func submitForm(_ form: FormActionModel, fields parameters: [String: String] = [:]) async -> HaapiResult {
        guard !isClosed else { return .error(HaapiError.haapiTokenManagerIsClosed) }
        guard let url = configuration.resolve(form.href) else {
            return .error(HaapiError.illegalState(message: "the form's href \"\(form.href)\" is not a URL"))
        }
        let (query, body) = Self.encode(form, form.parameters(with: parameters))
        return await send(method: form.method, url: url, query: query, body: body, continueActions: form.continueActions)
    }

    /// GET puts the fields in the query; other methods send a form-encoded body, or a JSON
    /// object when the form's type is `application/json`.
    static func encode(_ form: FormActionModel, _ fields: [(String, String)]) -> (query: [(String, String)], body: (Data, String)?) {
        if form.method == "GET" { return (fields, nil) }
        if form.type.lowercased().hasPrefix("application/json") {
            let object = Dictionary(fields.map { ($0.0, JSONValue.string($0.1)) }, uniquingKeysWith: { _, last in last })
            return ([], (JSONValue.object(object).serialized(), "application/json"))
        }
        return ([], (Data(FormURLEncoding.encode(fields).utf8), "application/x-www-form-urlencoded"))
    }

    /// Submits the form of a form action (any other action is an error: it has no form).
    public func submit(_ action: any Action, fields: [String: String] = [:]) async -> HaapiResult {
        guard let form = action.form else {
            return .error(HaapiError.illegalState(message: "the \(action.template) action \"\(action.kind)\" has no form to submit"))
        }
        return await submitForm(form, fields: fields)
    }

    /// Follows a link: a plain GET of its `href`.
    public func followLink(_ link: Link) async -> HaapiResult {
        guard !isClosed else { return .error(HaapiError.haapiTokenManagerIsClosed) }
        guard let url = configuration.resolve(link.href) else {
            return .error(HaapiError.illegalState(message: "the link's href \"\(link.href)\" is not a URL"))
        }
        return await send(method: "GET", url: url, query: [], body: nil, continueActions: [])
    }

    /// Polls once: submits the step's main action (the `poll` action while pending, the
    /// continuing action once done or failed).
    public func poll(_ step: PollingStep) async -> HaapiResult {
        await submit(step.mainAction)
    }

    // MARK: Exchange

    private func send(
        method: String, url: URL, query: [(String, String)], body: (Data, String)?, continueActions: [any Action]
    ) async -> HaapiResult {
        var (method, url, query, body) = (method, url, query, body)
        for _ in 0...Self.maximumRedirects {
            guard configuration.isServerOrigin(url) else {
                // An href to elsewhere would carry the HAAPI token, the Session-Id and a DPoP proof there.
                return .error(
                    HaapiError.illegalState(
                        message:
                            "the server named \(url.origin ?? url.absoluteString) as the next request's target; HAAPI requests go to the configured server only"
                    ))
            }
            let result = await exchange(method: method, url: url, query: query, body: body)
            switch result {
            case .representation(let redirect as RedirectionStep) where configuration.isAutoRedirect:
                // A redirection step is answered by submitting its form (hidden fields only).
                let form = redirect.form
                guard let next = configuration.resolve(form.href) else {
                    return .error(HaapiError.illegalState(message: "the redirect's href \"\(form.href)\" is not a URL"))
                }
                (method, url) = (form.method, next)
                (query, body) = Self.encode(form, form.parameters(with: [:]))
            case .representation(let step as ContinueSameStep):
                // Stay on the current step; offer the submitted form's continue actions.
                guard !continueActions.isEmpty else { return result }
                do {
                    return .representation(try step.offering(continueActions))
                } catch {
                    return .error(error)
                }
            case .representation(let step):
                currentRepresentation = isClosed ? nil : step
                return result
            default:
                return result
            }
        }
        return .error(HaapiError.illegalState(message: "more than \(Self.maximumRedirects) redirection steps in a row"))
    }

    /// The user's languages as an `Accept-Language` value, read once per process.
    static let acceptLanguage = UserLanguages.acceptLanguage(UserLanguages.preferred)

    private func exchange(method: String, url: URL, query: [(String, String)], body: (Data, String)?) async -> HaapiResult {
        var headers: HeaderFields = ["Accept": HaapiModel.authMediaType]
        // The server words its labels, titles and problems in the user's languages (an app's
        // URLSession would add this on Apple platforms; every transport gets it here).
        if let languages = Self.acceptLanguage { headers["Accept-Language"] = languages }
        for (name, value) in (configuration.httpHeadersProvider?() ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers[name] = value
        }
        if let sessionID { headers["Session-Id"] = sessionID }
        if let body { headers["Content-Type"] = body.1 }
        let request = TransportRequest(
            method: method, url: url.appendingQuery(query), headers: headers, body: body?.0,
            timeout: configuration.timeout)
        HaapiLogger.debug(
            SdkFollowUpTag.http, "\(method) \(request.url.absoluteString.split(separator: "?").first ?? "") headers \(headers: headers)")
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            return .error(HaapiError.wrapping(error, "HAAPI request", url: url))
        }
        if let newSession = response.headers["Set-Session-Id"], !newSession.isEmpty { sessionID = newSession }
        HaapiLogger.debug(SdkFollowUpTag.http, "HTTP \(response.status) \(response.mediaType ?? "no content type")")
        return Self.result(of: response)
    }

    /// Classifies a response: a 2xx step, a 4xx/5xx problem, or an error that keeps status and body.
    static func result(of response: TransportResponse) -> HaapiResult {
        do {
            switch (response.isSuccess, response.mediaType) {
            case (true, HaapiModel.authMediaType?):
                return .representation(try HaapiModel.representation(from: try json(response)))
            case (false, HaapiModel.problemMediaType?):
                return .problem(try HaapiModel.problem(from: try json(response)))
            default:
                if !response.isSuccess, response.retryAfterSeconds != nil {
                    return .error(HaapiError(unexpected: response))
                }
                if let challenge = AccessTokenChallenge(response), challenge.error == "invalid_token" {
                    // The driver has already renewed the HAAPI token once: a refusal of the new one is final.
                    return .error(HaapiError.server("invalid_token", description: challenge.errorDescription, statusCode: 401))
                }
                if response.mediaType == "application/json", let refusal = OAuthErrorResponse(response) {
                    return .error(HaapiError(refusal))
                }
                return .error(HaapiError(unexpected: response))
            }
        } catch {
            return .error(error)
        }
    }

    private static func json(_ response: TransportResponse) throws -> JSONValue {
        do {
            return try JSONValue(parsing: response.body)
        } catch {
            throw HaapiModelError(.notJSON, path: "$", "the \(response.mediaType ?? "") body is not JSON")
        }
    }

    // MARK: Completion handlers

    /// ``start(parameters:)`` with a completion handler, as the seeds write it.
    public nonisolated func start(
        parameters: OAuthAuthorizationParameters? = nil, completionHandler: @escaping HaapiCompletionHandler
    ) {
        Task { completionHandler(await start(parameters: parameters)) }
    }

    /// ``submitForm(_:parameters:)`` with a completion handler.
    public nonisolated func submitForm(
        _ form: FormActionModel, parameters: [String: any Sendable], completionHandler: @escaping HaapiCompletionHandler
    ) {
        let fields = form.fieldValues(parameters)
        Task { completionHandler(await submitForm(form, fields: fields)) }
    }

    /// ``followLink(_:)`` with a completion handler.
    public nonisolated func followLink(_ link: Link, completionHandler: @escaping HaapiCompletionHandler) {
        Task { completionHandler(await followLink(link)) }
    }
}

/// Receives the outcome of a ``HaapiManager`` operation (the seeds' `HaapiCompletionHandler`).
public typealias HaapiCompletionHandler = @Sendable (_ haapiResult: HaapiResult) -> Void
