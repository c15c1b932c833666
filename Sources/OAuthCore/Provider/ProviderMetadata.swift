import Foundation

/// An OpenID Provider's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414), the members
/// this client uses typed and every member kept in ``raw``.
///
/// `Codable`, so an ``AuthState`` can carry it and an app restart needs no new discovery.
public struct ProviderMetadata: Sendable, Hashable, Codable {
    /// `issuer`.
    public var issuer: String
    /// `authorization_endpoint`.
    public var authorizationEndpoint: URL
    /// `token_endpoint`.
    public var tokenEndpoint: URL
    /// `jwks_uri`.
    public var jwksURI: URL?
    /// `userinfo_endpoint`.
    public var userInfoEndpoint: URL?
    /// `end_session_endpoint` (RP-Initiated Logout 1.0).
    public var endSessionEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009).
    public var revocationEndpoint: URL?
    /// `registration_endpoint` (RFC 7591).
    public var registrationEndpoint: URL?
    /// `pushed_authorization_request_endpoint` (RFC 9126).
    public var pushedAuthorizationRequestEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628 §4).
    public var deviceAuthorizationEndpoint: URL?
    /// `require_pushed_authorization_requests` (RFC 9126 §5).
    public var requirePushedAuthorizationRequests: Bool
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3): when `true`, every
    /// authorization response must carry `iss`.
    public var authorizationResponseIssParameterSupported: Bool
    /// `id_token_signing_alg_values_supported`.
    public var idTokenSigningAlgValuesSupported: [String]
    /// `code_challenge_methods_supported`.
    public var codeChallengeMethodsSupported: [String]?
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): present when the provider does DPoP.
    public var dpopSigningAlgValuesSupported: [String]?
    /// Every member as received.
    public var raw: [String: JSONValue]

    /// Metadata written by hand, for a provider without discovery (its ``raw`` holds the same
    /// members, as a discovery document would).
    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL? = nil, userInfoEndpoint: URL? = nil,
        endSessionEndpoint: URL? = nil, revocationEndpoint: URL? = nil
    ) {
        var raw: [String: JSONValue] = [
            "issuer": .string(issuer), "authorization_endpoint": .string(authorizationEndpoint.absoluteString),
            "token_endpoint": .string(tokenEndpoint.absoluteString),
        ]
        raw["jwks_uri"] = jwksURI.map { .string($0.absoluteString) }
        raw["userinfo_endpoint"] = userInfoEndpoint.map { .string($0.absoluteString) }
        raw["end_session_endpoint"] = endSessionEndpoint.map { .string($0.absoluteString) }
        raw["revocation_endpoint"] = revocationEndpoint.map { .string($0.absoluteString) }
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
        self.userInfoEndpoint = userInfoEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.registrationEndpoint = nil
        self.pushedAuthorizationRequestEndpoint = nil
        self.deviceAuthorizationEndpoint = nil
        self.requirePushedAuthorizationRequests = false
        self.authorizationResponseIssParameterSupported = false
        self.idTokenSigningAlgValuesSupported = ["RS256"]
        self.codeChallengeMethodsSupported = nil
        self.dpopSigningAlgValuesSupported = nil
        self.raw = raw
    }

    /// Reads a discovery document.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidMetadata`](doc:ErrorCode/invalidMetadata) when it is not a JSON object, or a
    ///   required member (`issuer`, `authorization_endpoint`, `token_endpoint`) is missing or not a URL.
    public init(json: Data) throws {
        guard let document = try? JSONValue(parsing: json), let members = document.objectValue else {
            throw OIDCError(.invalidMetadata, "the discovery document is not a JSON object")
        }
        func url(_ name: String, required: Bool = false) throws -> URL? {
            guard let value = members[name], value != .null else {
                if required { throw OIDCError(.invalidMetadata, "the discovery document has no \"\(name)\"") }
                return nil
            }
            guard let text = value.stringValue, let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw OIDCError(.invalidMetadata, "the discovery document's \"\(name)\" is not an absolute URL")
            }
            return url
        }
        guard let issuer = members["issuer"]?.stringValue else {
            throw OIDCError(.invalidMetadata, "the discovery document has no string \"issuer\"")
        }
        self.issuer = issuer
        self.authorizationEndpoint = try url("authorization_endpoint", required: true)!
        self.tokenEndpoint = try url("token_endpoint", required: true)!
        self.jwksURI = try url("jwks_uri")
        self.userInfoEndpoint = try url("userinfo_endpoint")
        self.endSessionEndpoint = try url("end_session_endpoint")
        self.revocationEndpoint = try url("revocation_endpoint")
        self.registrationEndpoint = try url("registration_endpoint")
        self.pushedAuthorizationRequestEndpoint = try url("pushed_authorization_request_endpoint")
        self.deviceAuthorizationEndpoint = try url("device_authorization_endpoint")
        self.requirePushedAuthorizationRequests = members["require_pushed_authorization_requests"]?.boolValue ?? false
        self.authorizationResponseIssParameterSupported =
            members["authorization_response_iss_parameter_supported"]?.boolValue ?? false
        // OpenID Connect Discovery §3: RS256 is the default when the member is absent.
        self.idTokenSigningAlgValuesSupported =
            members["id_token_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue) ?? ["RS256"]
        self.codeChallengeMethodsSupported = members["code_challenge_methods_supported"]?.arrayValue?.compactMap(\.stringValue)
        self.dpopSigningAlgValuesSupported = members["dpop_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue)
        self.raw = members
    }

    /// The discovery URL of an issuer: `{issuer}/.well-known/openid-configuration`
    /// (the issuer's path kept, as OpenID Connect Discovery §4 asks).
    public static func discoveryURL(for issuer: URL) -> URL {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/.well-known/openid-configuration")!
    }

    /// Fetches and checks an issuer's metadata.
    ///
    /// The document's `issuer` must be exactly the configured one (Discovery §4.3): a
    /// provider that names another issuer could hand out another provider's endpoints.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.discoveryFailed`](doc:ErrorCode/discoveryFailed) (no response, not HTTP 200),
    ///   [`OIDCError.Code.invalidMetadata`](doc:ErrorCode/invalidMetadata) or [`OIDCError.Code.issuerMismatch`](doc:ErrorCode/issuerMismatch-8n2gd).
    public static func discover(issuer: URL, transport: any HTTPTransport) async throws -> ProviderMetadata {
        let url = discoveryURL(for: issuer)
        let body = try await ProviderDocument.fetch(url, name: "the discovery document", failure: .discoveryFailed, transport: transport)
        let metadata = try ProviderMetadata(json: body)
        guard metadata.issuer == issuer.absoluteString else {
            throw OIDCError(
                .issuerMismatch,
                "the discovery document names the issuer \"\(metadata.issuer)\", but the configured issuer is \"\(issuer.absoluteString)\"")
        }
        return metadata
    }

    // Codable through the raw document, so nothing the provider sent is lost and the
    // stored form is the provider's own JSON.
    /// Decodes the provider's discovery document, kept whole as the provider sent it.
    /// - Throws: `DecodingError` when it is not a JSON object; the errors of reading the metadata when a
    ///   required member is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let raw = try [String: JSONValue](from: decoder)
        try self.init(json: JSONValue.object(raw).serialized())
    }

    /// The provider's members, with the typed ones as they are now: an endpoint the app
    /// changed is stored changed.
    public func encode(to encoder: any Encoder) throws {
        var members = raw
        func set(_ name: String, _ url: URL?) { members[name] = url.map { .string($0.absoluteString) } }
        members["issuer"] = .string(issuer)
        set("authorization_endpoint", authorizationEndpoint)
        set("token_endpoint", tokenEndpoint)
        set("jwks_uri", jwksURI)
        set("userinfo_endpoint", userInfoEndpoint)
        set("end_session_endpoint", endSessionEndpoint)
        set("revocation_endpoint", revocationEndpoint)
        set("registration_endpoint", registrationEndpoint)
        set("pushed_authorization_request_endpoint", pushedAuthorizationRequestEndpoint)
        try members.encode(to: encoder)
    }
}
