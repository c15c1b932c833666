/// Why a JOSE object (JWS, JWT, JWK) was refused or could not be made.
///
/// A struct around an extensible ``Code`` so that new reasons can be added without
/// breaking callers that switch on them.
public struct JOSEError: CodedError, Hashable {
    /// The reason.
    public let code: Code
    /// A human-readable explanation naming what was wrong.
    public let message: String

    /// Makes an error with a code and a message.
    public init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }

    /// Why, by kind: times outside the window (check the clock), a key or algorithm not trusted, another
    /// party's token, or invalid input.
    public var failureReason: String {
        switch code {
        case .expired, .notYetValid, .invalidIssuedAt:
            return "The token's time claims are outside the accepted window; check the device clock."
        case .invalidSignature, .algorithmNone, .algorithmKeyMismatch, .algorithmNotAllowed, .unknownKey:
            return "The token was not signed by a key and algorithm this client trusts."
        case .issuerMismatch, .audienceMismatch:
            return "The token was issued by or for another party."
        default:
            return "The JOSE input is invalid or unsupported."
        }
    }

    /// A new flow for a token out of its time window; a retry in the foreground when signing failed; a
    /// configuration change for an unusable algorithm or key; a look at the cause otherwise.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch code {
        case .expired, .notYetValid, .invalidIssuedAt:
            return .newHaapiFlow
        case .signingFailed:
            return .retryable(condition: .whenAppInForeground)
        case .unsupportedAlgorithm, .unsupportedKeyType, .invalidKey:
            return .unrecoverable(action: .modifyConfiguration(reason: message))
        default:
            return .unrecoverable(action: .introspectCause)
        }
    }
}

extension ErrorCode where Domain == JOSEError {
    /// The input is not a compact JWS / JWT / JWK of the expected shape.
    public static var malformed: Self { Self("malformed") }
    /// A segment is not canonical base64url.
    public static var invalidBase64URL: Self { Self("invalid_base64url") }
    /// The input is larger than the configured limit.
    public static var tooLarge: Self { Self("too_large") }
    /// `alg: none`: unsecured JWS are never accepted.
    public static var algorithmNone: Self { Self("alg_none") }
    /// The algorithm is unknown or not supported here.
    public static var unsupportedAlgorithm: Self { Self("unsupported_algorithm") }
    /// The algorithm is not in the caller's allowed list.
    public static var algorithmNotAllowed: Self { Self("algorithm_not_allowed") }
    /// The algorithm does not fit the key (for example HS256 with an RSA or EC public key).
    public static var algorithmKeyMismatch: Self { Self("algorithm_key_mismatch") }
    /// The key is not a valid key of its declared type.
    public static var invalidKey: Self { Self("invalid_key") }
    /// The key type (`kty`) or curve is unknown or not supported.
    public static var unsupportedKeyType: Self { Self("unsupported_key_type") }
    /// No key matches the token's `kid`.
    public static var unknownKey: Self { Self("unknown_key") }
    /// The signature does not verify.
    public static var invalidSignature: Self { Self("invalid_signature") }
    /// Signing failed in the crypto library.
    public static var signingFailed: Self { Self("signing_failed") }
    /// The header names a critical extension (`crit`) this implementation does not understand.
    public static var unsupportedCriticalHeader: Self { Self("unsupported_crit") }
    /// A claim that must be present is missing.
    public static var missingClaim: Self { Self("missing_claim") }
    /// A claim has the wrong JSON type or an impossible value.
    public static var invalidClaim: Self { Self("invalid_claim") }
    /// `exp` is in the past (beyond the allowed clock skew).
    public static var expired: Self { Self("expired") }
    /// `nbf` is in the future (beyond the allowed clock skew).
    public static var notYetValid: Self { Self("not_yet_valid") }
    /// `iat` is in the future (beyond the allowed clock skew), or too old.
    public static var invalidIssuedAt: Self { Self("invalid_iat") }
    /// `iss` is not the expected issuer.
    public static var issuerMismatch: Self { Self("issuer_mismatch") }
    /// `aud` does not contain the expected audience.
    public static var audienceMismatch: Self { Self("audience_mismatch") }
}
