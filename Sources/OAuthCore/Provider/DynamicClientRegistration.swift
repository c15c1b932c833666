import Foundation

/// The client metadata sent to a registration endpoint (RFC 7591 §2).
public struct ClientRegistrationRequest: Sendable {
    /// `redirect_uris`.
    public var redirectURIs: [URL]
    /// `post_logout_redirect_uris` (RP-Initiated Logout 1.0 §3.1).
    public var postLogoutRedirectURIs: [URL]
    /// `client_name`.
    public var clientName: String?
    /// `token_endpoint_auth_method`: `none` for a native app (RFC 8252 §8.4).
    public var tokenEndpointAuthMethod: String
    /// `grant_types`.
    public var grantTypes: [String]
    /// `scope`, space-separated.
    public var scope: String?
    /// Any other metadata (`application_type`, `jwks`, ...).
    public var additionalMetadata: [String: JSONValue]

    /// Makes a request for a public native client by default.
    public init(
        redirectURIs: [URL], postLogoutRedirectURIs: [URL] = [], clientName: String? = nil, tokenEndpointAuthMethod: String = "none",
        grantTypes: [String] = ["authorization_code", "refresh_token"], scope: String? = nil,
        additionalMetadata: [String: JSONValue] = ["application_type": "native"]
    ) {
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.clientName = clientName
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.grantTypes = grantTypes
        self.scope = scope
        self.additionalMetadata = additionalMetadata
    }

    var document: JSONValue {
        var members = additionalMetadata
        members["redirect_uris"] = .array(redirectURIs.map { .string($0.absoluteString) })
        if !postLogoutRedirectURIs.isEmpty {
            members["post_logout_redirect_uris"] = .array(postLogoutRedirectURIs.map { .string($0.absoluteString) })
        }
        if let clientName { members["client_name"] = .string(clientName) }
        members["token_endpoint_auth_method"] = .string(tokenEndpointAuthMethod)
        members["grant_types"] = .array(grantTypes.map { .string($0) })
        members["response_types"] = ["code"]
        if let scope { members["scope"] = .string(scope) }
        return .object(members)
    }
}

/// A client the provider registered (RFC 7591 §3.2.1). `Codable`, so it can be kept and
/// reused: register once per installation, not once per login.
public struct RegisteredClient: Sendable, Hashable, Codable {
    /// `client_id`.
    public var clientID: String
    /// `client_secret`, for confidential registrations.
    public var clientSecret: String?
    /// Every member of the registration response.
    public var raw: [String: JSONValue]

    /// Makes a client.
    public init(clientID: String, clientSecret: String? = nil, raw: [String: JSONValue] = [:]) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.raw = raw
    }

    /// Reads a registration response (RFC 7591 §3.2.1), as the provider sent it or as
    /// ``registrationResponse`` kept it.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.registrationFailed`](doc:ErrorCode/registrationFailed) when it is not a JSON object
    ///   with a `client_id`.
    public init(registrationResponse data: Data) throws {
        guard let members = (try? JSONValue(parsing: data))?.objectValue, let clientID = members["client_id"]?.stringValue,
            !clientID.isEmpty
        else { throw OIDCError(.registrationFailed, "the registration response has no client_id") }
        self.init(clientID: clientID, clientSecret: members["client_secret"]?.stringValue, raw: members)
    }

    /// The registration response, to keep and read again with ``init(registrationResponse:)``.
    public var registrationResponse: Data { JSONValue.object(raw).serialized() }

    /// How this client authenticates at the token endpoint: with its secret, by the
    /// `token_endpoint_auth_method` the provider registered (`client_secret_post`, else
    /// `client_secret_basic`, the RFC 7591 default), or as a public client when it has none.
    public var clientAuthentication: ClientAuthentication {
        guard let clientSecret else { return .none(clientID: clientID) }
        if raw["token_endpoint_auth_method"]?.stringValue == "client_secret_post" {
            return .clientSecretPost(clientID: clientID, secret: clientSecret)
        }
        return .clientSecretBasic(clientID: clientID, secret: clientSecret)
    }
}

/// Dynamic client registration (RFC 7591).
public enum DynamicClientRegistration {
    /// Registers a client at the provider's `registration_endpoint`.
    /// - Parameters:
    ///   - request: the client metadata to register.
    ///   - metadata: the provider's metadata, whose `registration_endpoint` is used.
    ///   - initialAccessToken: the bearer token the provider requires for registration, if any (§3).
    ///   - transport: the transport the registration request goes through.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.notSupported`](doc:ErrorCode/notSupported) (no registration endpoint); the
    ///   errors of ``register(document:at:initialAccessToken:transport:)``.
    public static func register(
        _ request: ClientRegistrationRequest, metadata: ProviderMetadata, initialAccessToken: String? = nil,
        transport: any HTTPTransport
    ) async throws -> RegisteredClient {
        guard let endpoint = metadata.registrationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no registration_endpoint")
        }
        return try await register(document: request.document, at: endpoint, initialAccessToken: initialAccessToken, transport: transport)
    }

    /// Registers a client described by `document`, the client metadata as the provider wants it
    /// (a Curity template registration sends only `software_id`).
    /// - Throws: ``OIDCError`` [`OIDCError.Code.registrationFailed`](doc:ErrorCode/registrationFailed) when the answer is not a
    ///   registration: its cause is the ``OAuthErrorResponse`` of an OAuth error, else a
    ///   ``UnexpectedResponseError`` keeping the answer; ``HTTPTransportError``.
    public static func register(
        document: JSONValue, at endpoint: URL, initialAccessToken: String? = nil, transport: any HTTPTransport
    ) async throws -> RegisteredClient {
        var headers: HeaderFields = ["Content-Type": "application/json", "Accept": "application/json"]
        if let initialAccessToken { headers["Authorization"] = "Bearer " + initialAccessToken }
        let response = try await transport.send(
            TransportRequest(method: "POST", url: endpoint, headers: headers, body: document.serialized()))
        if response.isSuccess, let client = try? RegisteredClient(registrationResponse: response.body) { return client }
        let refusal = OAuthErrorResponse(response)
        throw OIDCError(
            .registrationFailed,
            "the registration endpoint answered HTTP \(response.status)\(refusal?.serverDescription.map { ": \($0)" } ?? "")",
            serverError: refusal?.error,
            cause: refusal ?? UnexpectedResponseError(response, from: "the registration endpoint", expected: "a client registration"))
    }
}
