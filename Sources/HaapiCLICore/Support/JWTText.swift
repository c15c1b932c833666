import Foundation
import OAuthCore

/// Decoding of JWT payloads (not verified: for display).
package enum JWTText {
    /// The claims that are times (seconds since 1970, RFC 7519 §4.1), shown as dates by ``readable(_:)``.
    package static let timeClaims: Set<String> = ["exp", "iat", "nbf", "auth_time", "updated_at"]

    /// A token's header and claims for a reader: time claims as ISO 8601 dates (UTC).
    /// `nil` when `token` is not a JWT.
    package static func readable(_ token: String) -> JSONValue? {
        guard let jws = try? CompactJWS(token), case .object(var members)? = try? JSONValue(parsing: jws.payload) else { return nil }
        for name in timeClaims {
            guard let seconds = members[name]?.doubleValue, seconds.isFinite, abs(seconds) < 1e11 else { continue }
            members[name] = .string(Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle()))
        }
        return ["header": .object(jws.header.raw), "claims": .object(members)]
    }
}
