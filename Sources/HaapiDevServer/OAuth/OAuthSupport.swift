import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// An OAuth error answer (RFC 6749 §5.2), thrown inside an endpoint and turned into its response.
struct OAuthFailure: Error {
    var error: String
    var description: String
    var status: HTTPResponse.Status = .badRequest
    var headers: HTTPFields = [:]

    init(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest, headers: HTTPFields = [:]) {
        self.error = error
        self.description = description
        self.status = status
        self.headers = headers
    }

    static func invalidRequest(_ description: String) -> OAuthFailure { OAuthFailure("invalid_request", description) }
    static func invalidGrant(_ description: String) -> OAuthFailure { OAuthFailure("invalid_grant", description) }
    static func invalidScope(_ description: String) -> OAuthFailure { OAuthFailure("invalid_scope", description) }
    static func unauthorizedClient(_ description: String) -> OAuthFailure { OAuthFailure("unauthorized_client", description) }
    static func invalidDPoPProof(_ description: String) -> OAuthFailure { OAuthFailure("invalid_dpop_proof", description) }
    /// A request body over the limit.
    static let payloadTooLarge = OAuthFailure("invalid_request", "the request body is too large", status: .contentTooLarge)
    static func invalidClient(_ description: String, basic: Bool = false) -> OAuthFailure {
        OAuthFailure(
            "invalid_client", description, status: .unauthorized,
            headers: basic ? [.wwwAuthenticate: "Basic realm=\"haapi-dev-server\""] : [:])
    }

    /// The response, with `extra` header fields (such as `DPoP-Nonce`) added.
    func response(adding extra: HTTPFields = [:]) -> Response {
        var all = headers
        for field in extra where all[field.name] == nil { all.append(field) }
        return Reply.oauthError(error, description, status: status, headers: all)
    }
}

/// Helpers shared by the OAuth endpoints.
enum OAuthSupport {
    /// The lifetime of access tokens issued to users (authorization_code and refresh_token grants).
    static let userAccessTokenLifetime = 900
    /// The lifetime of ID tokens.
    static let idTokenLifetime = 3600
    /// The lifetime of refresh tokens.
    static let refreshTokenLifetime: TimeInterval = 14 * 24 * 3600
    /// The lifetime of DCR initial access tokens.
    static let initialAccessTokenLifetime = 300
    /// The lifetime of other client_credentials tokens.
    static let clientTokenLifetime = 3600

    /// The form parameters of a form-encoded body; a parameter given twice is refused (RFC 6749 §3.2).
    static func form(_ request: Request, limit: Int = 64 * 1024) async throws -> [String: String] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch  where Reply.isTooLarge(error) {
            throw OAuthFailure.payloadTooLarge
        } catch {
            throw OAuthFailure.invalidRequest("the request body is unreadable")
        }
        var parameters: [String: String] = [:]
        for (name, value) in FormURLEncoding.decode(String(buffer: buffer)) where !name.isEmpty {
            guard parameters[name] == nil else { throw OAuthFailure.invalidRequest("the parameter \"\(name)\" is given more than once") }
            parameters[name] = value
        }
        return parameters
    }

    /// A space-separated scope as a list, without duplicates, in order.
    static func scopes(_ text: String?) -> [String] {
        var seen = Set<String>()
        return (text ?? "").split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }

    /// The store id of an opaque token: its SHA-256, so the database never holds the token itself.
    static func tokenID(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(token.utf8)))
    }

    /// The header fields every answer of a DPoP-aware endpoint carries: the current nonce when nonces are on.
    static func nonceHeaders(_ state: ServerState) async -> HTTPFields {
        guard let nonce = try? await state.currentNonce() else { return [:] }
        return [.dpopNonce: nonce]
    }

    /// Checks the request's DPoP proof, if it has one, for `path`; `nil` without a proof.
    ///
    /// - Throws: ``OAuthFailure`` `invalid_dpop_proof`, or `use_dpop_nonce` (400, with the nonce).
    static func tokenEndpointProof(_ request: Request, path: String, state: ServerState) async throws -> String? {
        let proofs = request.headers[values: .dpop]
        guard !proofs.isEmpty else { return nil }
        guard proofs.count == 1 else { throw OAuthFailure.invalidDPoPProof("more than one DPoP header") }
        do {
            return try await state.checkDPoP(proofs[0], method: request.method.rawValue, path: path)
        } catch let failure as DPoPProofVerifier.Failure {
            throw OAuthFailure(failure.error, failure.reason, headers: await nonceHeaders(state))
        }
    }

    /// The access token of an `Authorization: DPoP|Bearer <token>` header and its scheme.
    static func accessToken(_ request: Request) -> (scheme: String, token: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let scheme = parts[0].lowercased()
        guard scheme == "dpop" || scheme == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : (scheme, token)
    }

    /// The `jti` and `exp` of a token this server signed.
    static func idAndExpiry(ofAccessToken token: String) -> (jti: String, expiresAt: Date)? {
        guard let claims = JWTClaims.unverified(token), let jti = claims.jwtID, let expiresAt = claims.expiresAt else { return nil }
        return (jti, expiresAt)
    }
}

/// A refresh token (stored under kind `refresh-token` by the SHA-256 of the token).
struct RefreshTokenRecord: Codable, Sendable, Hashable {
    static let kind = "refresh-token"

    var clientId: String
    var username: String
    var scope: [String]
    /// The DPoP key the token is bound to.
    var jkt: String?
    /// The grant the token belongs to: every token rotated from one code shares it.
    var family: String
    var nonce: String?
    var authTime: Date
    /// Whether the token was used (rotated); presenting it again revokes the family, unless it
    /// is a retry after a lost answer (see ``successor``).
    var used: Bool
    /// When it was first rotated (`nil` in records stored before retries were recognised).
    var usedAt: Date?
    /// The store id of the token it was rotated into: while that one is unused, presenting this
    /// token again soon after the rotation replaces it instead of revoking the grant.
    var successor: String?
    /// The answer of the rotation (the successor and its access token), sealed with a key
    /// derived from this token itself, so that only a presenter of this token can read it back:
    /// a retry within the grace period gets this same answer, not new tokens.
    var rotationAnswer: String? = nil
    /// When it expires.
    var expiresAt: Date
}

/// A grant (the tokens issued from one authorization code and their rotations), kept so that
/// a replayed code or a reused refresh token can revoke all of them.
struct GrantFamilyRecord: Codable, Sendable, Hashable {
    static let kind = "grant-family"

    var clientId: String
    var revoked: Bool
    /// The access tokens issued in the grant, by jti, with their expiry.
    var accessTokens: [String: Date]
}

extension ServerState {
    /// Revokes an access token by its jti until it expires.
    func revokeAccessToken(jti: String, expiresAt: Date) async throws {
        guard expiresAt > Date() else { return }
        try await store.put(true, kind: "revoked-access-token", id: jti, expiresAt: expiresAt.addingTimeInterval(60))
    }

    /// Revokes every token of a grant.
    func revokeGrantFamily(_ family: String) async throws {
        guard var record = try await store.get(GrantFamilyRecord.self, kind: GrantFamilyRecord.kind, id: family) else { return }
        for (jti, expiresAt) in record.accessTokens { try await revokeAccessToken(jti: jti, expiresAt: expiresAt) }
        record.revoked = true
        record.accessTokens = [:]
        try await store.put(
            record, kind: GrantFamilyRecord.kind, id: family, expiresAt: Date().addingTimeInterval(OAuthSupport.refreshTokenLifetime))
    }

    /// Notes an access token issued in a grant, so that revoking the grant revokes it.
    func addToGrantFamily(_ family: String, accessToken: String) async throws {
        guard let (jti, expiresAt) = OAuthSupport.idAndExpiry(ofAccessToken: accessToken) else { return }
        var record =
            try await store.get(GrantFamilyRecord.self, kind: GrantFamilyRecord.kind, id: family)
            ?? GrantFamilyRecord(clientId: "", revoked: false, accessTokens: [:])
        let now = Date()
        record.accessTokens = record.accessTokens.filter { $0.value > now }
        record.accessTokens[jti] = expiresAt
        try await store.put(
            record, kind: GrantFamilyRecord.kind, id: family, expiresAt: now.addingTimeInterval(OAuthSupport.refreshTokenLifetime))
    }
}
