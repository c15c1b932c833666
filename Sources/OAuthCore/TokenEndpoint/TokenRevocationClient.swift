import Foundation

/// Revokes tokens at a revocation endpoint (RFC 7009), authenticating as the client does at
/// the token endpoint.
public struct TokenRevocationClient: Sendable {
    /// The kind of token revoked (RFC 7009 §2.1 `token_type_hint`).
    public enum TokenTypeHint: String, Sendable {
        /// An access token.
        case accessToken = "access_token"
        /// A refresh token.
        case refreshToken = "refresh_token"
    }

    /// The revocation endpoint URL.
    public let endpoint: URL
    /// How the client authenticates.
    public let clientAuthentication: ClientAuthentication
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// The server's token endpoint and issuer identifier, when known: what a client assertion's
    /// audience is chosen from (see ``ClientAuthentication/AssertionAudience``).
    public let tokenEndpoint: URL?
    /// The server's issuer identifier, when known: the other audience a client assertion may name.
    public let issuer: String?

    /// Makes a client.
    public init(
        endpoint: URL, clientAuthentication: ClientAuthentication, transport: any HTTPTransport, tokenEndpoint: URL? = nil,
        issuer: String? = nil
    ) {
        self.endpoint = endpoint
        self.tokenEndpoint = tokenEndpoint
        self.issuer = issuer
        self.clientAuthentication = clientAuthentication
        self.transport = transport
    }

    /// Revokes `token`. A server that does not know the token answers success too (§2.2).
    ///
    /// - Throws: ``OAuthErrorResponse`` when the server refuses with an OAuth error,
    ///   ``UnexpectedResponseError`` for any other failure status, ``HTTPTransportError`` when no response arrives, ``JOSEError`` when a
    ///   client assertion cannot be signed.
    public func revoke(_ token: String, hint: TokenTypeHint?) async throws {
        var parameters = [("token", token)]
        if let hint { parameters.append(("token_type_hint", hint.rawValue)) }
        var headers: HeaderFields = ["Accept": "application/json"]
        try clientAuthentication.apply(
            to: &parameters, headers: &headers, recipient: .init(endpoint: endpoint, tokenEndpoint: tokenEndpoint, issuer: issuer))
        HaapiLogger.debug(DriverFollowUpTag.http, "POST \(endpoint.redacted) \(parameters: parameters) headers \(headers: headers)")
        let response = try await transport.send(.form(endpoint, parameters: parameters, headers: headers))
        HaapiLogger.debug(DriverFollowUpTag.http, "revocation endpoint answered HTTP \(response.status)")
        if response.isSuccess { return }
        throw OAuthErrorResponse(response) ?? UnexpectedResponseError(response, from: "the revocation endpoint")
    }
}
