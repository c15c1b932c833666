import Foundation

/// A validated ID token (OpenID Connect Core §2): its compact form and its claims.
public struct IDToken: Sendable, Hashable {
    /// The token as received.
    public let rawValue: String
    /// Its claims.
    public let claims: JWTClaims

    /// `sub`: the user's identifier at the provider.
    public var subject: String { claims.subject ?? "" }
    /// `nonce`, if present.
    public var nonce: String? { claims[string: "nonce"] }
    /// `auth_time`, if present.
    public var authTime: Date? { claims.all["auth_time"]?.doubleValue.map(Date.init(timeIntervalSince1970:)) }
    /// `acr`, if present.
    public var acr: String? { claims[string: "acr"] }
}
