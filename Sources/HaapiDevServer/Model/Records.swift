import Foundation
import OAuthCore

/// A user of the development server.
public struct UserRecord: Codable, Sendable, Hashable {
    /// The login name.
    public var username: String
    /// The password's salted hash (see `PasswordHash`); the password itself is never kept.
    public var passwordHash: String
    /// Display name, for userinfo and ID tokens.
    public var name: String
    /// E-mail address.
    public var email: String
    /// Phone number, shown as the polling authenticator's recipient.
    public var phone: String
    /// Swedish personal identity number (`yyyymmddnnnn`), for the simulated BankID.
    public var personalNumber: String? = nil

    /// A user whose password is `password` (kept as a salted hash).
    public init(username: String, password: String, name: String, email: String, phone: String, personalNumber: String? = nil) {
        self.init(
            username: username, passwordHash: PasswordHash.make(password), name: name, email: email, phone: phone,
            personalNumber: personalNumber)
    }

    /// A user whose password hash is already made.
    init(username: String, passwordHash: String, name: String, email: String, phone: String, personalNumber: String?) {
        self.username = username
        self.passwordHash = passwordHash
        self.name = name
        self.email = email
        self.phone = phone
        self.personalNumber = personalNumber
    }

    /// Changes the password.
    public mutating func setPassword(_ password: String) { passwordHash = PasswordHash.make(password) }

    private enum CodingKeys: String, CodingKey {
        case username, passwordHash, name, email, phone, personalNumber
        /// Where earlier versions kept the password in clear: hashed when read, and the server
        /// rewrites every user at start (``ServerState``), so none stays in clear.
        case legacyPassword = "password"
    }

    /// Decodes a user; a password kept in clear by an earlier version (`password`) is hashed as it is read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        if let hash = try container.decodeIfPresent(String.self, forKey: .passwordHash) {
            passwordHash = hash
        } else {
            passwordHash = PasswordHash.make(try container.decode(String.self, forKey: .legacyPassword))
        }
        name = try container.decode(String.self, forKey: .name)
        email = try container.decode(String.self, forKey: .email)
        phone = try container.decode(String.self, forKey: .phone)
        personalNumber = try container.decodeIfPresent(String.self, forKey: .personalNumber)
    }

    /// Encodes the user with the password's hash, never the password.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(username, forKey: .username)
        try container.encode(passwordHash, forKey: .passwordHash)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(phone, forKey: .phone)
        try container.encodeIfPresent(personalNumber, forKey: .personalNumber)
    }
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
    /// The name a consent shows ("Demo App asks for access"); `nil`: the client id.
    public var name: String?
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
    /// Whether a client registered for HAAPI may also take the plain browser flow (without
    /// attestation or a bound code); `nil` is the strategy's default: only browser clients may.
    public var allowsBrowserFlow: Bool?
    /// Where the browser may be sent after a sign-out (`post_logout_redirect_uris`), besides the
    /// redirect URIs; loopback ones on any port, as redirect URIs.
    public var postLogoutRedirectUris: [String]?

    /// Whether the client authenticates itself at the token endpoint (a secret or keys).
    public var isConfidential: Bool { clientSecret != nil || jwks != nil }
    /// Whether the client may take the plain browser flow.
    public var mayUseBrowserFlow: Bool { allowsBrowserFlow ?? (strategy == .browser) }

    /// Makes a client.
    public init(
        clientId: String, clientSecret: String? = nil, jwks: String? = nil, strategy: ClientStrategy, redirectUris: [String],
        scope: [String], issueTokenBoundAuthorizationCode: Bool, authenticators: [String], templateClientId: String? = nil
    ) {
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.jwks = jwks
        self.strategy = strategy
        self.redirectUris = redirectUris
        self.scope = scope
        self.issueTokenBoundAuthorizationCode = issueTokenBoundAuthorizationCode
        self.authenticators = authenticators
        self.templateClientId = templateClientId
    }
}

extension ClientRecord {
    /// Whether `redirectUri` is one of the client's: an exact match, or, for a registered
    /// loopback URI (`http://127.0.0.1/...`, `http://[::1]/...`), the same URI on any port,
    /// as RFC 8252 §7.3 asks of servers for native apps that listen on an ephemeral port.
    public func accepts(redirectUri: String) -> Bool { Self.matches(redirectUri, registered: redirectUris) }

    /// Whether the browser may be sent to `uri` after a sign-out: a post-logout URI of the
    /// client's or one of its redirect URIs, matched as ``accepts(redirectUri:)`` matches.
    public func accepts(postLogoutRedirectUri uri: String) -> Bool {
        Self.matches(uri, registered: (postLogoutRedirectUris ?? []) + redirectUris)
    }

    static func matches(_ redirectUri: String, registered redirectUris: [String]) -> Bool {
        // Exact string comparison (RFC 9700 §4.1.3), nothing decoded or normalized first.
        if redirectUris.contains(redirectUri) { return true }
        // The one exception, RFC 8252 §7.3: a loopback IP redirect on any port. The rest must match
        // as sent: no user info, no fragment, a port in range, the path and query byte for byte.
        guard let candidate = URLComponents(string: redirectUri), Self.isLoopback(candidate), candidate.user == nil,
            candidate.password == nil,
            candidate.fragment == nil, candidate.port.map { (1...65535).contains($0) } ?? true, !redirectUri.contains("\\")
        else { return false }
        return redirectUris.contains { registered in
            guard let known = URLComponents(string: registered), Self.isLoopback(known) else { return false }
            return known.scheme == candidate.scheme && known.percentEncodedHost == candidate.percentEncodedHost
                && known.percentEncodedPath == candidate.percentEncodedPath && known.percentEncodedQuery == candidate.percentEncodedQuery
        }
    }

    /// A loopback IP redirect (never `localhost`, which may resolve elsewhere: RFC 8252 §8.3).
    private static func isLoopback(_ components: URLComponents) -> Bool {
        components.scheme == "http" && Loopback.isIPLiteral(components.host)
    }
}
