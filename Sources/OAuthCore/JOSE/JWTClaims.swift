import Foundation

/// The claims of a JWT (RFC 7519 §4.1), with the registered ones typed and every claim kept.
public struct JWTClaims: Sendable, Hashable {
    /// `iss`.
    public var issuer: String?
    /// `sub`.
    public var subject: String?
    /// `aud`: one audience or several (both forms are accepted when parsing).
    public var audience: [String]?
    /// `exp`.
    public var expiresAt: Date?
    /// `nbf`.
    public var notBefore: Date?
    /// `iat`.
    public var issuedAt: Date?
    /// `jti`.
    public var jwtID: String?
    /// Every claim as received, registered ones included.
    public var all: [String: JSONValue]

    /// Makes claims from a JSON object.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) when the payload is not a JSON object,
    ///   or [`JOSEError.Code.invalidClaim`](doc:ErrorCode/invalidClaim) when a registered claim has the wrong type.
    public init(json: Data) throws {
        guard let value = try? JSONValue(parsing: json), let members = value.objectValue else {
            throw JOSEError(.malformed, "the JWT payload is not a JSON object")
        }
        try self.init(members: members)
    }

    /// Makes claims from members.
    public init(members: [String: JSONValue]) throws {
        all = members
        issuer = try Self.string(members, "iss")
        subject = try Self.string(members, "sub")
        jwtID = try Self.string(members, "jti")
        expiresAt = try Self.date(members, "exp")
        notBefore = try Self.date(members, "nbf")
        issuedAt = try Self.date(members, "iat")
        switch members["aud"] {
        case nil: audience = nil
        case .string(let single)?: audience = [single]
        case .array(let many)?:
            let names = many.compactMap(\.stringValue)
            guard names.count == many.count else { throw JOSEError(.invalidClaim, "\"aud\" must hold only strings") }
            audience = names
        default: throw JOSEError(.invalidClaim, "\"aud\" must be a string or an array of strings")
        }
    }

    /// A claim as a string, if present and a string.
    public subscript(string name: String) -> String? { all[name]?.stringValue }

    private static func string(_ members: [String: JSONValue], _ name: String) throws -> String? {
        try members.string(name, nullIsAbsent: false) { JOSEError(.invalidClaim, "\"\($0)\" must be a string") }
    }

    private static func date(_ members: [String: JSONValue], _ name: String) throws -> Date? {
        guard let value = members[name] else { return nil }
        guard let seconds = value.doubleValue, seconds.isFinite else {
            throw JOSEError(.invalidClaim, "\"\(name)\" must be a NumericDate (seconds since 1970)")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Checks the time, issuer and audience claims.
    /// - Throws: ``JOSEError`` naming the first rule that failed.
    public func validate(_ options: JWTValidationOptions) throws {
        let now = options.now
        let skew = options.clockSkew
        if let expiresAt {
            guard now.timeIntervalSince(expiresAt) < skew else {
                throw JOSEError(.expired, "the token expired at \(expiresAt) (now \(now), skew \(OutsideNumber.wholeSeconds(skew)) s)")
            }
        } else if options.requireExpiration {
            throw JOSEError(.missingClaim, "the token has no \"exp\"")
        }
        if let notBefore, notBefore.timeIntervalSince(now) > skew {
            throw JOSEError(.notYetValid, "the token is not valid before \(notBefore) (now \(now))")
        }
        if let issuedAt {
            if issuedAt.timeIntervalSince(now) > skew {
                throw JOSEError(.invalidIssuedAt, "the token was issued in the future, at \(issuedAt) (now \(now))")
            }
            if let maxAge = options.maximumAge, now.timeIntervalSince(issuedAt) > maxAge + skew {
                throw JOSEError(
                    .invalidIssuedAt, "the token was issued at \(issuedAt), more than \(OutsideNumber.wholeSeconds(maxAge)) s ago")
            }
        } else if options.requireIssuedAt {
            throw JOSEError(.missingClaim, "the token has no \"iat\"")
        }
        if let expected = options.issuer {
            guard let issuer else { throw JOSEError(.missingClaim, "the token has no \"iss\"") }
            guard issuer == expected else {
                throw JOSEError(.issuerMismatch, "the token's issuer is \"\(issuer)\", expected \"\(expected)\"")
            }
        }
        if let expected = options.audience {
            guard let audience else { throw JOSEError(.missingClaim, "the token has no \"aud\"") }
            guard audience.contains(expected) else {
                throw JOSEError(.audienceMismatch, "the token's audience \(audience) does not include \"\(expected)\"")
            }
        }
    }
}

/// The rules ``JWTClaims/validate(_:)`` applies.
public struct JWTValidationOptions: Sendable {
    /// The time to validate against.
    public var now: Date
    /// How far clocks may disagree, in seconds (default 60).
    public var clockSkew: TimeInterval
    /// The required `iss`, if any.
    public var issuer: String?
    /// An audience `aud` must contain, if any.
    public var audience: String?
    /// Whether a token without `exp` is refused (default `true`).
    public var requireExpiration: Bool
    /// Whether a token without `iat` is refused (default `false`).
    public var requireIssuedAt: Bool
    /// The oldest `iat` accepted, in seconds before `now`, if any.
    public var maximumAge: TimeInterval?

    /// Makes validation options.
    public init(
        now: Date = Date(), clockSkew: TimeInterval = 60, issuer: String? = nil, audience: String? = nil,
        requireExpiration: Bool = true, requireIssuedAt: Bool = false, maximumAge: TimeInterval? = nil
    ) {
        self.now = now
        self.clockSkew = clockSkew
        self.issuer = issuer
        self.audience = audience
        self.requireExpiration = requireExpiration
        self.requireIssuedAt = requireIssuedAt
        self.maximumAge = maximumAge
    }
}

/// A signed JWT whose signature has been verified.
public struct VerifiedJWT: Sendable {
    /// The JWS it came from.
    public let jws: CompactJWS
    /// Its claims, validated against the options given.
    public let claims: JWTClaims

    /// Parses, verifies and validates a JWT in one step, in that order, so that no claim
    /// of an unverified token is ever looked at.
    public init(
        _ token: String, keys: JWKSet, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
        options: JWTValidationOptions = JWTValidationOptions()
    ) throws {
        try self.init(token, options: options) { try $0.verify(with: keys, allowedAlgorithms: allowedAlgorithms) }
    }

    /// Parses, verifies and validates a JWT with a single key.
    public init(
        _ token: String, key: JWSVerificationKey, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
        options: JWTValidationOptions = JWTValidationOptions()
    ) throws {
        try self.init(token, options: options) { try $0.verify(with: key, allowedAlgorithms: allowedAlgorithms) }
    }

    /// Parses `token`, runs `verify` on it, then reads and validates its claims.
    private init(_ token: String, options: JWTValidationOptions, verify: (CompactJWS) throws -> Void) throws {
        let jws = try CompactJWS(token)
        try verify(jws)
        let claims = try JWTClaims(json: jws.payload)
        try claims.validate(options)
        self.jws = jws
        self.claims = claims
    }
}

extension JWTClaims {
    /// The claims of `token` read without checking its signature: only to display them, to find
    /// the key that checks them, or from a token validated when it was received. `nil` when
    /// `token` is not a compact JWS with a JSON object payload.
    package static func unverified(_ token: String) -> JWTClaims? {
        (try? CompactJWS(token)).flatMap { try? JWTClaims(json: $0.payload) }
    }

    /// The payload of `token` as JSON, read without checking the signature and without
    /// requiring the registered claims' types (for display); `nil` when it is not a JWT.
    package static func unverifiedPayload(_ token: String) -> JSONValue? {
        (try? CompactJWS(token)).flatMap { try? JSONValue(parsing: $0.payload) }
    }
}
