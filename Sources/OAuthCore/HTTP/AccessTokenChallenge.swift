import Foundation

/// What a 401 answer says about the access token it refused, read from its `WWW-Authenticate`
/// challenge (RFC 6750 §3, RFC 9449 §7.1): the one rule of the package for when a new token may
/// help.
public struct AccessTokenChallenge: Sendable, Hashable {
    /// The challenge's `error` parameter (`invalid_token`, `use_dpop_nonce`, `invalid_dpop_proof`,
    /// `insufficient_scope`, ...), if it has one.
    public let error: String?
    /// Its `error_description`, if any: server text, to show escaped.
    public let errorDescription: String?

    /// The challenge of `response`; `nil` unless it is a 401.
    public init?(_ response: TransportResponse) {
        guard response.status == 401 else { return nil }
        let challenges = response.headers.values(for: "WWW-Authenticate")
        error = challenges.lazy.compactMap { Self.parameter("error", in: $0) }.first
        errorDescription = challenges.lazy.compactMap { Self.parameter("error_description", in: $0) }.first
    }

    /// Whether a new access token may succeed where this one failed: the token was refused
    /// (`invalid_token`), or the answer names no error (a resource server may leave it out, RFC
    /// 6750 §3.1). Never for a nonce challenge or a faulty proof, which a new token does not cure,
    /// nor for a token that lacks scope.
    public var asksForNewToken: Bool { error == nil || error == "invalid_token" }

    /// The value of `name` in a challenge, quoted or not (RFC 9110 §11.2's auth-param).
    static func parameter(_ name: String, in challenge: String) -> String? {
        var rest = Substring(challenge)
        while let found = rest.range(of: name + "=", options: .caseInsensitive) {
            // A whole parameter name: at the start, or after a space or a comma.
            let before = found.lowerBound == rest.startIndex ? nil : rest[rest.index(before: found.lowerBound)]
            rest = rest[found.upperBound...]
            guard before == nil || before == " " || before == "," else { continue }
            if rest.first == "\"" {
                let value = rest.dropFirst()
                return value.firstIndex(of: "\"").map { String(value[..<$0]) }
            }
            return String(rest.prefix { $0 != "," && $0 != " " })
        }
        return nil
    }
}

extension AccessTokenChallenge {
    /// The one rule for an API that refuses an access token: sends with `token`, and when the
    /// answer asks for a new token (``asksForNewToken``) gets one from `renew` and sends once
    /// more. A second refusal is the caller's answer; a third try would only repeat it.
    package static func sendRenewingOnce<Token: Sendable>(
        token: Token, renew: (Token) async throws -> Token, send: (Token) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let response = try await send(token)
        guard AccessTokenChallenge(response)?.asksForNewToken == true else { return response }
        return try await send(try await renew(token))
    }
}
