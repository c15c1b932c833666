import Foundation
import Hummingbird
import OAuthCore

/// How a client authenticated at the token or revocation endpoint.
enum ClientAuthenticationKind: String, Sendable {
    /// Only `client_id` (public clients).
    case none
    /// `client_secret_basic`.
    case secretBasic = "client_secret_basic"
    /// `client_secret_post`.
    case secretPost = "client_secret_post"
    /// `private_key_jwt`.
    case privateKeyJWT = "private_key_jwt"
    /// A client attestation token from `/oauth/token/cat`.
    case attestation
}

/// A client that proved who it is.
struct AuthenticatedClient: Sendable {
    var client: ClientRecord
    var method: ClientAuthenticationKind
}

/// A client attestation token (CAT), kept single use under kind `cat`.
struct ClientAttestationTokenRecord: Codable, Sendable, Hashable {
    static let kind = "cat"
    static let lifetime: TimeInterval = 120
    var clientId: String
}

/// Client authentication (RFC 6749 §2.3, RFC 7523 §2.2, and Curity's attestation assertion).
enum ClientAuthenticator {
    static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    static let attestationAssertionType = "urn:se:curity:attestation:client"
    /// The algorithms accepted for client assertions.
    static let assertionAlgorithms: Set<JWSAlgorithm> = [.es256, .es384, .es512, .edDSA, .rs256, .ps256]

    /// Authenticates the client of a request to the endpoint at `path`.
    ///
    /// `none` is only accepted for `browser` clients and, outside the client_credentials grant,
    /// for attestation clients (their codes are bound to the HAAPI session's DPoP key, and the
    /// SDK exchanges them with `client_id` only).
    /// - Throws: ``OAuthFailure`` `invalid_client` (401) or `invalid_request`.
    static func authenticate(
        request: Request, parameters: [String: String], state: ServerState, path: String, allowsPublicAttestationClient: Bool
    ) async throws -> AuthenticatedClient {
        let basic = try basicCredentials(request)
        let assertionType = parameters["client_assertion_type"]
        let assertion = parameters["client_assertion"]
        let postedSecret = parameters["client_secret"]
        let methods = [basic != nil, postedSecret != nil, assertionType != nil || assertion != nil].filter { $0 }.count
        guard methods <= 1 else { throw OAuthFailure.invalidRequest("more than one client authentication method is used") }

        if let basic {
            if let id = parameters["client_id"], id != basic.id {
                throw OAuthFailure.invalidRequest("client_id does not match the client of the Authorization header")
            }
            let client = try await lookUp(basic.id, state: state, basic: true)
            guard let secret = client.clientSecret, Credentials.constantTimeEqual(basic.secret, secret) else {
                throw OAuthFailure.invalidClient("client authentication failed", basic: true)
            }
            return AuthenticatedClient(client: client, method: .secretBasic)
        }
        if let postedSecret {
            guard let id = parameters["client_id"] else { throw OAuthFailure.invalidRequest("client_secret without client_id") }
            let client = try await lookUp(id, state: state)
            guard let secret = client.clientSecret, Credentials.constantTimeEqual(postedSecret, secret) else {
                throw OAuthFailure.invalidClient("client authentication failed")
            }
            return AuthenticatedClient(client: client, method: .secretPost)
        }
        if assertionType != nil || assertion != nil {
            guard let assertionType, let assertion, !assertion.isEmpty else {
                throw OAuthFailure.invalidRequest("client_assertion and client_assertion_type go together")
            }
            switch assertionType {
            case jwtBearerAssertionType:
                return try await privateKeyJWT(assertion, clientID: parameters["client_id"], state: state, path: path)
            case attestationAssertionType:
                return try await attestation(assertion, clientID: parameters["client_id"], state: state)
            default:
                throw OAuthFailure.invalidClient("unsupported client_assertion_type \"\(assertionType)\"")
            }
        }
        guard let id = parameters["client_id"], !id.isEmpty else {
            throw OAuthFailure.invalidClient("no client authentication and no client_id")
        }
        let client = try await lookUp(id, state: state)
        switch client.strategy {
        case .browser:
            return AuthenticatedClient(client: client, method: .none)
        case .attestation where allowsPublicAttestationClient:
            return AuthenticatedClient(client: client, method: .none)
        case .attestation:
            throw OAuthFailure.invalidClient("client \"\(id)\" authenticates with a client attestation token")
        default:
            throw OAuthFailure.invalidClient("client \"\(id)\" must authenticate")
        }
    }

    /// The id and secret of an `Authorization: Basic` header (both form-encoded, RFC 6749 §2.3.1).
    private static func basicCredentials(_ request: Request) throws -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { throw OAuthFailure.invalidClient("the Basic credentials are malformed", basic: true) }
        return (FormURLEncoding.unescape(text[..<colon]), FormURLEncoding.unescape(text[text.index(after: colon)...]))
    }

    private static func lookUp(_ id: String, state: ServerState, basic: Bool = false) async throws -> ClientRecord {
        guard let client = try await state.store.get(ClientRecord.self, kind: "client", id: id) else {
            throw OAuthFailure.invalidClient("unknown client", basic: basic)
        }
        return client
    }

    /// `private_key_jwt` (RFC 7523 §3): signed with a key of the client's JWKS, iss = sub = client_id,
    /// aud naming this endpoint, the token endpoint or the issuer, not expired, jti never seen.
    private static func privateKeyJWT(_ assertion: String, clientID: String?, state: ServerState, path: String) async throws
        -> AuthenticatedClient
    {
        guard let unverified = JWTClaims.unverified(assertion) else {
            throw OAuthFailure.invalidClient("the client assertion is not a JWT")
        }
        guard let id = clientID ?? unverified.subject ?? unverified.issuer else {
            throw OAuthFailure.invalidClient("the client assertion names no client")
        }
        let client = try await lookUp(id, state: state)
        guard let jwks = client.jwks, let keys = try? JWKSet(json: Data(jwks.utf8)) else {
            throw OAuthFailure.invalidClient("client \"\(id)\" has no keys for private_key_jwt")
        }
        let verified: VerifiedJWT
        do {
            verified = try VerifiedJWT(
                assertion, keys: keys, allowedAlgorithms: assertionAlgorithms,
                options: JWTValidationOptions(clockSkew: 30, requireExpiration: true))
        } catch {
            throw OAuthFailure.invalidClient("the client assertion does not verify: \(error)")
        }
        let claims = verified.claims
        guard claims.issuer == id, claims.subject == id else {
            throw OAuthFailure.invalidClient("the client assertion's iss and sub must be the client_id")
        }
        let accepted = Set([state.url(path).absoluteString, state.url("/oauth/token").absoluteString, state.issuer.absoluteString])
        guard let audience = claims.audience, audience.contains(where: accepted.contains) else {
            throw OAuthFailure.invalidClient("the client assertion's audience is not this server")
        }
        guard let expiresAt = claims.expiresAt, expiresAt.timeIntervalSinceNow < 3600 else {
            throw OAuthFailure.invalidClient("the client assertion must expire within an hour")
        }
        guard let jti = claims.jwtID, !jti.isEmpty, jti.count <= 256 else {
            throw OAuthFailure.invalidClient("the client assertion has no jti")
        }
        guard
            try await state.store.insertIfAbsent(
                kind: "client-assertion-jti", id: "\(id).\(jti)", expiresAt: expiresAt.addingTimeInterval(60))
        else {
            throw OAuthFailure.invalidClient("the client assertion was already used (jti replay)")
        }
        return AuthenticatedClient(client: client, method: .privateKeyJWT)
    }

    /// The attestation assertion: a CAT from `/oauth/token/cat`, single use, for the client it was issued to.
    private static func attestation(_ cat: String, clientID: String?, state: ServerState) async throws -> AuthenticatedClient {
        guard let record = try await state.store.take(ClientAttestationTokenRecord.self, kind: ClientAttestationTokenRecord.kind, id: cat)
        else {
            throw OAuthFailure.invalidClient("the client attestation token is unknown, expired or already used")
        }
        guard clientID == nil || clientID == record.clientId else {
            throw OAuthFailure.invalidClient("the client attestation token was issued to another client")
        }
        let client = try await lookUp(record.clientId, state: state)
        guard client.strategy == .attestation else { throw OAuthFailure.invalidClient("the client does not use attestation") }
        return AuthenticatedClient(client: client, method: .attestation)
    }
}
