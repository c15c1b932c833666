import Foundation

/// An access token ready to send to an API.
public struct AccessToken: Sendable, Hashable {
    /// The token.
    public let value: String
    /// `Bearer` or `DPoP`.
    public let tokenType: String
    /// When it expires, if known.
    public let expiresAt: Date?

    /// Makes a token.
    public init(value: String, tokenType: String, expiresAt: Date?) {
        self.value = value
        self.tokenType = tokenType
        self.expiresAt = expiresAt
    }

    /// Seconds left at `now`; infinite when the expiry is unknown (the API's 401 will tell).
    public func remainingLifetime(at now: Date = Date()) -> TimeInterval {
        expiresAt.map { $0.timeIntervalSince(now) } ?? .infinity
    }

    /// Whether requests with it need a DPoP proof: the server said so with `token_type` `DPoP`
    /// (RFC 9449 §5); any other type is sent as a bearer token.
    public var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// The `Authorization` header value: `Bearer <token>` or `DPoP <token>` (RFC 6750, RFC 9449 §7.1).
    public var authorizationHeaderValue: String { (isDPoPBound ? "DPoP " : "Bearer ") + value }

    /// When it expires (Curity's `expiresOn`): ``expiresAt``, or the distant future when the
    /// server did not say.
    public var expiresOn: Date { expiresAt ?? .distantFuture }

    /// Whether at `atTime` it has more than `minTtl` seconds left (Curity's `isValid(atTime:minTtl:)`).
    public func isValid(atTime: Date, minTtl: TimeInterval) -> Bool { remainingLifetime(at: atTime) > minTtl }
}

extension AccessToken: CustomStringConvertible, CustomDebugStringConvertible {
    /// The type, the value's ``Swift/String/maskedPrefix`` and the expiry: the token itself only
    /// while ``HaapiLogger/isSensitiveValueMasked`` is off.
    public var description: String {
        "AccessToken(\(tokenType) \(value.maskedPrefix), expires \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }

    /// As ``description``.
    public var debugDescription: String { description }
}
