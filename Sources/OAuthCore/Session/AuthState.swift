import Foundation

/// A signed-in session's tokens (the seeds' AppAuth `AuthState`): what an app keeps between
/// launches so the user need not log in again.
///
/// A ``TokenSession`` keeps it in a ``Storage``, tokens and DPoP key together so that they
/// change in one atomic write. Holds secrets (tokens, the DPoP private key): store it only
/// where secrets belong.
///
/// `Codable` in one stored form (``storedData()``), versioned: every form an earlier version
/// of this package wrote still decodes, so an update never logs a user out.
public struct AuthState: Sendable, Hashable, Codable {
    /// The issuer the tokens come from.
    public var issuer: String
    /// The client they were issued to.
    public var clientID: String
    /// The access token.
    public var accessToken: String
    /// `token_type`: `Bearer` or `DPoP`.
    public var tokenType: String
    /// When the access token expires, if the provider said; in whole seconds (rounded down),
    /// so that the state reads back from storage exactly as it was written, and within
    /// ``OutsideNumber/earliestDate``...``OutsideNumber/latestDate``.
    public var accessTokenExpiresAt: Date? {
        didSet { accessTokenExpiresAt = accessTokenExpiresAt.map(Self.storable) }
    }
    /// The refresh token, if any; replaced at each refresh when the provider rotates them.
    public var refreshToken: String?
    /// The latest ID token, kept for `id_token_hint` at logout.
    public var idToken: String?
    /// The user's `sub` from the first ID token; every later ID token and UserInfo must match it.
    public var subject: String?
    /// The scopes granted.
    public var scope: String?
    /// The private JWK of the DPoP key the tokens are bound to, when they are.
    public var dpopKey: JWK?

    /// Makes a state.
    public init(
        issuer: String, clientID: String, accessToken: String, tokenType: String, accessTokenExpiresAt: Date? = nil,
        refreshToken: String? = nil, idToken: String? = nil, subject: String? = nil, scope: String? = nil, dpopKey: JWK? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt.map(Self.storable)
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.subject = subject
        self.scope = scope
        self.dpopKey = dpopKey
    }

    /// The claims of ``idToken`` (to show who is logged in). Read without checking the
    /// signature again: the token was validated when it was received, and this state is
    /// only as trustworthy as the storage it was read from.
    public var idTokenClaims: JWTClaims? { idToken.flatMap(JWTClaims.unverified) }

    /// `date` as the stored form keeps it: in whole seconds, within ``OutsideNumber/earliestDate``
    /// ...``OutsideNumber/latestDate``. An expiry from a provider's `expires_in` of Int.max, or
    /// from a damaged file, would otherwise be written as a date that cannot be read back; a NaN
    /// date (no provider's number gives one) counts as long expired.
    static func storable(_ date: Date) -> Date {
        OutsideNumber.date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// Whether the access token is DPoP-bound.
    public var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// Whether the access token is still valid for at least `minimumLifetime` seconds at `now`
    /// (a token without a known expiry is assumed valid; the API's 401 will tell otherwise).
    public func isAccessTokenValid(for minimumLifetime: TimeInterval = 0, at now: Date = Date()) -> Bool {
        guard let accessTokenExpiresAt else { return true }
        return accessTokenExpiresAt.timeIntervalSince(now) > minimumLifetime
    }

    /// What the tokens are good for at a moment (``usability(at:)``).
    public enum Usability: String, Sendable, Hashable, CaseIterable {
        /// The access token is valid.
        case usable
        /// The access token expired, and the refresh token can renew it.
        case refreshable
        /// Neither token can be used: only a new login gives tokens.
        case loginNeeded
    }

    /// What the tokens are good for at `now`: the one rule for "is someone logged in", used by
    /// ``TokenSession`` (a session left ``Usability/loginNeeded`` is removed) and by the tools
    /// that report on a session.
    public func usability(at now: Date = Date()) -> Usability {
        if isAccessTokenValid(at: now) { return .usable }
        return refreshToken != nil ? .refreshable : .loginNeeded
    }

    /// The state after a token response: tokens the response lacks are kept (a provider that
    /// does not rotate refresh tokens sends none back, RFC 6749 §6). The ID token is the
    /// validated `idToken` when given; the response's own is never kept unvalidated.
    public func updated(with tokens: TokenSuccessResponse, idToken: IDToken?) -> AuthState {
        var next = self
        next.accessToken = tokens.accessToken
        next.tokenType = tokens.tokenType
        next.accessTokenExpiresAt = tokens.expiresAt
        next.refreshToken = tokens.refreshToken ?? refreshToken
        next.idToken = idToken?.rawValue ?? self.idToken
        next.scope = tokens.scope ?? scope
        return next
    }
}

// MARK: Stored form

extension AuthState {
    /// The version of the stored form this package writes. Version 1 (no `version` member)
    /// was written with dates either as ISO 8601 strings (the `haapi` CLI's `tokens.json`) or
    /// as seconds since 2001-01-01 (`OIDCClient`'s storage); both still decode.
    public static let storedFormatVersion = 2

    private enum CodingKeys: String, CodingKey {
        case version, issuer, clientID, accessToken, tokenType, accessTokenExpiresAt, refreshToken, idToken, subject, scope, dpopKey
    }

    /// Decodes a stored state, of this version or an earlier one (dates as ISO 8601 strings or as seconds
    /// since 2001).
    /// - Throws: `DecodingError.dataCorrupted` naming the member that is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do { try self.init(stored: value) } catch let error as StoredFormError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// What is wrong with a stored session: the member, and why.
    struct StoredFormError: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads the stored form from its parsed JSON. By hand rather than by `JSONDecoder`, whose
    /// generic machinery cost `haapi token` (one stored session read per start) more than the
    /// rest of the read.
    init(stored value: JSONValue) throws(StoredFormError) {
        guard case .object(let members) = value else { throw StoredFormError(description: "not a JSON object") }
        func string(_ key: CodingKeys) throws(StoredFormError) -> String? {
            try members.string(key.rawValue) { StoredFormError(description: "\($0): not a string") }
        }
        func required(_ key: CodingKeys) throws(StoredFormError) -> String {
            guard let text = try string(key) else { throw StoredFormError(description: "\(key.rawValue): missing") }
            return text
        }
        let version: Int
        switch members[CodingKeys.version.rawValue] {
        case nil, .null?: version = 1
        case .integer(let number)?: version = number
        default: throw StoredFormError(description: "version: not an integer")
        }
        guard version <= Self.storedFormatVersion else {
            throw StoredFormError(
                description:
                    "version: the session was stored by a newer version (format \(version); this one reads up to \(Self.storedFormatVersion))"
            )
        }
        issuer = try required(.issuer)
        clientID = try required(.clientID)
        accessToken = try required(.accessToken)
        tokenType = try required(.tokenType)
        switch members[CodingKeys.accessTokenExpiresAt.rawValue] {
        case nil, .null?: accessTokenExpiresAt = nil
        case .integer(let seconds)?: accessTokenExpiresAt = Self.storable(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case .number(let seconds)?: accessTokenExpiresAt = Self.storable(Date(timeIntervalSinceReferenceDate: seconds))
        case .string(let text)?:
            guard let date = StoredDate.parse(text) else {
                throw StoredFormError(description: "accessTokenExpiresAt: \"\(text)\" is not an ISO 8601 date")
            }
            accessTokenExpiresAt = Self.storable(date)
        default: throw StoredFormError(description: "accessTokenExpiresAt: not a date")
        }
        refreshToken = try string(.refreshToken)
        idToken = try string(.idToken)
        subject = try string(.subject)
        scope = try string(.scope)
        if let key = members[CodingKeys.dpopKey.rawValue], key != .null {
            do { dpopKey = try JWK(members: key) } catch {
                throw StoredFormError(description: "dpopKey: \((error as? JOSEError)?.message ?? "\(error)")")
            }
        } else {
            dpopKey = nil
        }
    }

    /// Encodes the state with ``storedFormatVersion``, its dates as ISO 8601 strings and its DPoP key as a
    /// JWK, private parts included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.storedFormatVersion, forKey: .version)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(accessTokenExpiresAt.map(StoredDate.init), forKey: .accessTokenExpiresAt)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(dpopKey, forKey: .dpopKey)
    }

    /// The stored form: JSON with sorted keys (readable with `cat`, stable for diffs) and
    /// dates as ISO 8601, whatever encoder settings a caller uses elsewhere.
    public func storedData() throws -> Data { try JSONValue.encodeSorted(self, pretty: true) }

    /// Reads a stored session in any form this package has written.
    /// - Throws: ``StorageError`` [`StorageError.Code.invalidFormat`](doc:ErrorCode/invalidFormat) when `data` is not one
    ///   (damaged, or written by a newer version); it says which.
    public init(storedData data: Data) throws {
        let value: JSONValue
        do { value = try JSONValue(parsing: data) } catch {
            throw StorageError(.invalidFormat, "the stored session cannot be read", underlying: "not JSON: \(error)")
        }
        do { try self.init(stored: value) } catch {
            throw StorageError(.invalidFormat, "the stored session cannot be read", underlying: error.description)
        }
    }
}

/// A date in the stored form: written as ISO 8601 in whole seconds; read (``AuthState/init(stored:)``)
/// from that, from ISO 8601 with fractional seconds, or from a number of seconds since 2001-01-01
/// (what Foundation's default date strategy wrote in version 1).
private struct StoredDate: Encodable {
    let date: Date

    init(_ date: Date) { self.date = date }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date.formatted(Date.ISO8601FormatStyle()))
    }

    /// RFC 3339, with or without fractional seconds.
    static func parse(_ text: String) -> Date? { RFC3339.date(text) }
}
