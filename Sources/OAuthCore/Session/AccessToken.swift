import Foundation

/// An access token ready to send to an API.
public struct AccessToken: Sendable, Hashable {
    /// The token.
    public let value: String
    /// `Bearer` or `DPoP`.
    public let tokenType: String
    /// When it expires, if known.
    public let expiresAt: Date?

    /// Whether requests with it need a DPoP proof.
    public var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// The `Authorization` header value: `Bearer <token>` or `DPoP <token>` (RFC 6750, RFC 9449 §7.1).
    public var authorizationHeaderValue: String { (isDPoPBound ? "DPoP " : "Bearer ") + value }
}
