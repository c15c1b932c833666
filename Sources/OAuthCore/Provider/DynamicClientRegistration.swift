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
    /// - Parameter initialAccessToken: the bearer token the provider requires for registration, if any (§3).
    /// - Throws: ``OIDCError`` ``OIDCError/Code/notSupported`` (no registration endpoint) or
    ///   ``OIDCError/Code/registrationFailed`` (refused, or no `client_id` in the answer).
    public static func register(
        _ request: ClientRegistrationRequest, metadata: ProviderMetadata, initialAccessToken: String? = nil,
        transport: any HTTPTransport
    ) async throws -> RegisteredClient {
        guard let endpoint = metadata.registrationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no registration_endpoint")
        }
        var headers: HeaderFields = ["Content-Type": "application/json", "Accept": "application/json"]
        if let initialAccessToken { headers["Authorization"] = "Bearer " + initialAccessToken }
        let response = try await transport.send(
            TransportRequest(method: "POST", url: endpoint, headers: headers, body: request.document.serialized()))
        let document = (try? JSONValue(parsing: response.body))?.objectValue
        guard response.isSuccess, let document, let clientID = document["client_id"]?.stringValue else {
            let error = document?["error"]?.stringValue
            throw OIDCError(
                .registrationFailed,
                "the registration endpoint answered HTTP \(response.status)\(document?["error_description"]?.stringValue.map { ": \($0)" } ?? "")",
                serverError: error)
        }
        return RegisteredClient(clientID: clientID, clientSecret: document["client_secret"]?.stringValue, raw: document)
    }
}
