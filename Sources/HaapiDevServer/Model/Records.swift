import Foundation

/// A user of the development server.
public struct UserRecord: Codable, Sendable, Hashable {
    /// The login name.
    public var username: String
    /// The password (development data: kept in clear so `--print-config` can show it).
    public var password: String
    /// Display name, for userinfo and ID tokens.
    public var name: String
    /// E-mail address.
    public var email: String
    /// Phone number, shown as the polling authenticator's recipient.
    public var phone: String
}

/// How a seeded client obtains HAAPI access tokens.
public enum ClientStrategy: String, Codable, Sendable, Hashable {
    /// Client attestation (the SDK's software provider is accepted).
    case attestation
    /// client_credentials with a client secret.
    case secret
    /// client_credentials with a private_key_jwt assertion.
    case jwt
    /// The template of dynamically registered clients.
    case dcr
    /// A public client for the browser-based login (authorization code + PKCE).
    case browser
    /// A client created by dynamic registration.
    case registered
}

/// A client of the development server.
public struct ClientRecord: Codable, Sendable, Hashable {
    /// The client id.
    public var clientId: String
    /// The client secret, for confidential clients.
    public var clientSecret: String?
    /// The public JWK set of a `private_key_jwt` client.
    public var jwks: String?
    /// How the client gets HAAPI access tokens.
    public var strategy: ClientStrategy
    /// The registered redirect URIs.
    public var redirectUris: [String]
    /// The scopes the client may ask for.
    public var scope: [String]
    /// Whether authorization codes are bound to the HAAPI session's DPoP key (`issue-token-bound-authorization-code`).
    public var issueTokenBoundAuthorizationCode: Bool
    /// The authenticators offered to the client's users (several give a selector).
    public var authenticators: [String]
    /// For registered clients: the template they came from.
    public var templateClientId: String?
}
