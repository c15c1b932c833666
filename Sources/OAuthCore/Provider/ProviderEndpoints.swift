import Foundation

/// Endpoints an app configures itself, over discovery or instead of it (a HAAPI configuration's
/// endpoints, a CLI profile's saved ones).
public struct ProviderEndpoints: Sendable, Hashable {
    /// `authorization_endpoint`.
    public var authorization: URL?
    /// `token_endpoint`.
    public var token: URL?
    /// `userinfo_endpoint`.
    public var userInfo: URL?
    /// `revocation_endpoint`.
    public var revocation: URL?

    /// Endpoints; those left `nil` come from discovery, when there is one.
    public init(authorization: URL? = nil, token: URL? = nil, userInfo: URL? = nil, revocation: URL? = nil) {
        self.authorization = authorization
        self.token = token
        self.userInfo = userInfo
        self.revocation = revocation
    }

    /// Sets in `metadata` every endpoint configured here: the app's configuration wins over
    /// the discovery document.
    public func apply(to metadata: inout ProviderMetadata) {
        if let authorization { metadata.authorizationEndpoint = authorization }
        if let token { metadata.tokenEndpoint = token }
        if let userInfo { metadata.userInfoEndpoint = userInfo }
        if let revocation { metadata.revocationEndpoint = revocation }
    }
}

extension OpenIDProvider {
    /// The provider of an app's configuration, made in one place: discovered at `issuer` with
    /// the configured `endpoints` winning over the document's, or, without an issuer, described
    /// by the endpoints alone. Such a provider has no keys, so ID tokens are not verified, and
    /// `standInIssuer` (default: the token endpoint) only names it.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidConfiguration`](doc:ErrorCode/invalidConfiguration) without an issuer and
    ///   without both the token and the authorization endpoint.
    public init(issuer: URL?, endpoints: ProviderEndpoints, standInIssuer: String? = nil, transport: any HTTPTransport) throws {
        if let issuer {
            self.init(issuer: issuer, transport: transport) { endpoints.apply(to: &$0) }
            return
        }
        guard let token = endpoints.token, let authorization = endpoints.authorization else {
            throw OIDCError(.invalidConfiguration, "the configuration has neither an issuer nor token and authorization endpoints")
        }
        self.init(
            metadata: ProviderMetadata(
                issuer: standInIssuer ?? token.absoluteString, authorizationEndpoint: authorization, tokenEndpoint: token,
                userInfoEndpoint: endpoints.userInfo, revocationEndpoint: endpoints.revocation),
            transport: transport)
    }
}
